import type { DecodedAudio } from '../audio-decoder.js';

export type EngineName = 'pocketsphinx' | 'openai';

export interface EngineRequest {
  /** Canonical BCP-47 tag, or undefined to let the engine decide. */
  language: string | undefined;
  signal: AbortSignal;
}

export interface EngineResult {
  text: string;
  /** The language the engine transcribed in, when it says; a BCP-47 tag. */
  language: string | null;
}

/** Every speech-to-text engine behind one shape; the service picks one at start. */
export interface TranscriptionEngine {
  readonly name: EngineName;
  /** A local engine spends this machine's CPU, so it runs inside the work limiter. */
  readonly cpuBound: boolean;
  /** Primary language subtags the engine can transcribe; null for any. */
  readonly languages: readonly string[] | null;
  transcribe(audio: DecodedAudio, request: EngineRequest): Promise<EngineResult>;
}

/** The engine could not transcribe audio that decoded fine; the message is safe to show. */
export class EngineFailure extends Error {
  override readonly name = 'EngineFailure';
  constructor(
    message: string,
    readonly detail?: Record<string, unknown>,
  ) {
    super(message);
  }
}
