import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Logger } from 'pino';
import type { TranscribeConfig } from '../../config.js';
import { AppError } from '../../errors.js';
import { DEFAULT_SEARCH_PATH } from '../../lib/executables.js';
import { ProcessFailure } from '../../lib/run-process.js';
import { createWorkLimiter, WorkQueueBusyError, type WorkLimiter } from '../../lib/work-limiter.js';
import { AudioTooLongError, createAudioDecoder, NotAudioError, type AudioDecoder, type DecodedAudio } from './audio-decoder.js';
import { EngineFailure, type EngineName, type EngineResult, type TranscriptionEngine } from './engines/engine.js';
import type { FetchFn } from './engines/openai-engine.js';
import { DEBIAN_EN_US_MODEL_DIR } from './engines/pocketsphinx-engine.js';
import { selectEngine } from './engines/select-engine.js';
import { canonicalLanguage, primaryLanguage } from './language.js';

export interface VoiceOptions {
  /** At most this many decodes and local transcriptions run at once. */
  concurrency: number;
  /** Requests allowed to wait for a slot; more are answered 503 at once. */
  maxWaiting: number;
  queueWaitMs: number;
  decodeTimeoutMs: number;
  /** pocketsphinx gets this plus the audio's own duration. */
  pocketsphinxBaseTimeoutMs: number;
  openaiTimeoutMs: number;
  /** Longer audio is refused (413): it bounds CPU time, disk and what an OpenAI-style API accepts. */
  maxAudioMs: number;
  pocketsphinxModelDir: string;
  /** Where each request's working directory is made. */
  tempRoot: string;
  fetch: FetchFn;
}

/**
 * Half the cores (at least one) transcribe; the rest keep captures and lists fast meanwhile.
 * Ten minutes of audio is a long voice note and stays under 20 MB as 16 kHz WAV (OpenAI takes 25).
 */
export function defaultVoiceOptions(): VoiceOptions {
  const concurrency = Math.max(1, Math.floor(availableParallelism() / 2));
  return {
    concurrency,
    maxWaiting: 8 * concurrency,
    queueWaitMs: 60_000,
    decodeTimeoutMs: 60_000,
    pocketsphinxBaseTimeoutMs: 60_000,
    openaiTimeoutMs: 120_000,
    maxAudioMs: 10 * 60_000,
    pocketsphinxModelDir: DEBIAN_EN_US_MODEL_DIR,
    tempRoot: tmpdir(),
    fetch: globalThis.fetch,
  };
}

export interface TranscribeInput {
  /** The uploaded file, as received. */
  audioPath: string;
  /** A directory of this request only, removed after it; the decoded audio goes there. */
  workDir: string;
  language: string | undefined;
  /** Aborts when the client goes away: waiting ends and child processes are killed. */
  signal: AbortSignal;
}

export interface Transcription {
  text: string;
  language: string | null;
  duration_ms: number;
}

export interface VoiceService {
  /** The engine in use, or null when none is available. */
  readonly engineName: EngineName | null;
  /** Why no engine is available, when none is. */
  readonly unavailableReason: string | null;
  readonly tempRoot: string;
  readonly limiter: WorkLimiter;
  /** 503 transcription_unavailable when no engine can run; checked before an upload is read. */
  assertAvailable(): void;
  transcribe(input: TranscribeInput): Promise<Transcription>;
}

export interface VoiceServiceDeps {
  config: Omit<TranscribeConfig, 'searchPath'> & { searchPath?: string | undefined };
  options: VoiceOptions;
  logger: Logger;
}

const RETRY_AFTER_BUSY_S = 30;

export function createVoiceService({ config, options, logger }: VoiceServiceDeps): VoiceService {
  const selection = selectEngine({
    engine: config.engine,
    openai: config.openai,
    searchPath: config.searchPath ?? DEFAULT_SEARCH_PATH,
    pocketsphinxModelDir: options.pocketsphinxModelDir,
    pocketsphinxBaseTimeoutMs: options.pocketsphinxBaseTimeoutMs,
    openaiTimeoutMs: options.openaiTimeoutMs,
    fetch: options.fetch,
  });
  const limiter = createWorkLimiter({ concurrency: options.concurrency, maxWaiting: options.maxWaiting, maxWaitMs: options.queueWaitMs });
  const ready = selection.ok
    ? {
        ok: true as const,
        engine: selection.engine,
        decoder: createAudioDecoder({ ffmpegPath: selection.ffmpegPath, timeoutMs: options.decodeTimeoutMs, maxDurationMs: options.maxAudioMs }),
      }
    : selection;

  function requireEngine(): { engine: TranscriptionEngine; decoder: AudioDecoder } {
    if (!ready.ok) throw new AppError('transcription_unavailable', `transcription is not available on this server: ${ready.reason}`);
    return ready;
  }

  function checkLanguage(engine: TranscriptionEngine, language: string | undefined): void {
    if (!language || !engine.languages || engine.languages.includes(primaryLanguage(language))) return;
    throw new AppError(
      'transcription_failed',
      `the offline engine (${engine.name}) transcribes English only, not "${language}"; ` +
        'send English audio, or ask the operator to configure an OpenAI-compatible engine (TRANSCRIBE_BASE_URL)',
    );
  }

  async function run(engine: TranscriptionEngine, decoder: AudioDecoder, input: TranscribeInput, language: string | undefined) {
    const decode = () => decoder.decode(input.audioPath, join(input.workDir, 'audio.pcm'), input.signal);
    const recognise = async (audio: DecodedAudio): Promise<EngineResult> =>
      audio.bytes === 0 ? { text: '', language: null } : engine.transcribe(audio, { language, signal: input.signal });
    // A local engine holds its slot from decoding to the last word; a remote one only while decoding.
    if (engine.cpuBound) {
      return limiter.run(async () => {
        const audio = await decode();
        return { audio, result: await recognise(audio) };
      }, input.signal);
    }
    const audio = await limiter.run(decode, input.signal);
    return { audio, result: await recognise(audio) };
  }

  function translate(error: unknown, engine: TranscriptionEngine, signal: AbortSignal): unknown {
    if (signal.aborted) return new AppError('bad_request', 'the client closed the request');
    if (error instanceof WorkQueueBusyError) {
      return new AppError('transcription_unavailable', `every transcription slot is busy (${error.message}); retry in ${RETRY_AFTER_BUSY_S} s`, {
        headers: { 'retry-after': String(RETRY_AFTER_BUSY_S) },
      });
    }
    if (error instanceof NotAudioError) {
      logger.debug({ ffmpeg: error.message }, 'upload is not readable audio');
      return new AppError('unsupported_media_type', 'the file is not audio that can be read; send wav, mp3, ogg/opus, webm, m4a/aac or flac');
    }
    if (error instanceof AudioTooLongError) return new AppError('payload_too_large', error.message);
    if (error instanceof EngineFailure) {
      logger.warn({ engine: engine.name, detail: error.detail }, `transcription failed: ${error.message}`);
      return new AppError('transcription_failed', error.message);
    }
    if (error instanceof ProcessFailure) {
      logger.warn({ err: error, stderr: error.stderr }, 'audio decoding failed');
      if (error.kind === 'spawn') return new AppError('transcription_unavailable', 'the audio decoder (ffmpeg) could not be started');
      return new AppError('transcription_failed', error.kind === 'timeout' ? 'decoding the audio did not finish in time' : 'the audio could not be decoded');
    }
    return error;
  }

  return {
    engineName: selection.ok ? selection.engine.name : null,
    unavailableReason: selection.ok ? null : selection.reason,
    tempRoot: options.tempRoot,
    limiter,
    assertAvailable() {
      requireEngine();
    },
    async transcribe(input) {
      const { engine, decoder: audioDecoder } = requireEngine();
      const language = canonicalLanguage(input.language);
      checkLanguage(engine, language);
      try {
        const { audio, result } = await run(engine, audioDecoder, input, language);
        return { text: result.text, language: language ?? result.language ?? engine.languages?.[0] ?? null, duration_ms: audio.durationMs };
      } catch (error) {
        throw translate(error, engine, input.signal);
      }
    },
  };
}
