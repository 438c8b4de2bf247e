import { openAsBlob } from 'node:fs';
import { SAMPLE_RATE, type DecodedAudio } from '../audio-decoder.js';
import { primaryLanguage, reportedLanguage } from '../language.js';
import { EngineFailure, type TranscriptionEngine } from './engine.js';

export type FetchFn = typeof fetch;

export interface OpenAiEngineOptions {
  /** Up to and including /v1 (e.g. https://api.openai.com/v1). */
  baseUrl: string;
  apiKey: string | undefined;
  model: string;
  timeoutMs: number;
  fetch: FetchFn;
}

/** The service's answer is a small JSON object; anything past this is not one. */
const MAX_ANSWER_BYTES = 1024 * 1024;

/** A canonical 44-byte header for 16-bit mono PCM at SAMPLE_RATE, so the PCM file can go out as WAV. */
function wavHeader(dataBytes: number): Buffer {
  const header = Buffer.alloc(44);
  header.write('RIFF', 0, 'ascii');
  header.writeUInt32LE(36 + dataBytes, 4);
  header.write('WAVE', 8, 'ascii');
  header.write('fmt ', 12, 'ascii');
  header.writeUInt32LE(16, 16);
  header.writeUInt16LE(1, 20); // PCM
  header.writeUInt16LE(1, 22); // mono
  header.writeUInt32LE(SAMPLE_RATE, 24);
  header.writeUInt32LE(SAMPLE_RATE * 2, 28);
  header.writeUInt16LE(2, 32);
  header.writeUInt16LE(16, 34);
  header.write('data', 36, 'ascii');
  header.writeUInt32LE(dataBytes, 40);
  return header;
}

async function readBounded(response: Response): Promise<string> {
  if (!response.body) return '';
  const reader: ReadableStreamDefaultReader<Uint8Array> = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > MAX_ANSWER_BYTES) {
      await reader.cancel();
      throw new EngineFailure('the transcription service sent an answer that is far too large');
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/**
 * Any OpenAI-compatible POST {base}/audio/transcriptions (OpenAI, Groq, a local whisper server…).
 * It is sent the decoded audio as 16 kHz mono WAV, which every such service reads.
 */
export function createOpenAiEngine(options: OpenAiEngineOptions): TranscriptionEngine {
  const url = `${options.baseUrl}/audio/transcriptions`;
  const limit = options.timeoutMs >= 1000 ? `${Math.round(options.timeoutMs / 1000)} s` : `${options.timeoutMs} ms`;
  return {
    name: 'openai',
    cpuBound: false,
    languages: null,
    async transcribe(audio: DecodedAudio, { language, signal }) {
      const form = new FormData();
      const pcm = await openAsBlob(audio.pcmPath);
      form.append('file', new Blob([wavHeader(audio.bytes), pcm], { type: 'audio/wav' }), 'audio.wav');
      form.append('model', options.model);
      form.append('response_format', 'json');
      // OpenAI takes ISO 639-1 codes ("en"), not full tags ("en-GB").
      if (language) form.append('language', primaryLanguage(language));
      const headers: Record<string, string> = { accept: 'application/json' };
      if (options.apiKey) headers.authorization = `Bearer ${options.apiKey}`;

      const timeout = AbortSignal.timeout(options.timeoutMs);
      let text: string;
      let status: number;
      try {
        const response = await options.fetch(url, { method: 'POST', headers, body: form, redirect: 'error', signal: AbortSignal.any([signal, timeout]) });
        status = response.status;
        text = await readBounded(response);
      } catch (error) {
        if (signal.aborted) throw error;
        if (error instanceof EngineFailure) throw error;
        if (timeout.aborted) throw new EngineFailure(`the transcription service did not answer within ${limit}`);
        throw new EngineFailure('could not reach the transcription service', { cause: error instanceof Error ? (error.cause ?? error.message) : error });
      }
      if (status < 200 || status > 299) {
        throw new EngineFailure(`the transcription service answered HTTP ${status}`, { answer: text.slice(0, 500) });
      }
      let answer: unknown;
      try {
        answer = JSON.parse(text);
      } catch {
        answer = undefined;
      }
      const body = typeof answer === 'object' && answer !== null ? (answer as { text?: unknown; language?: unknown }) : {};
      if (typeof body.text !== 'string') throw new EngineFailure('the transcription service answered without a text', { answer: text.slice(0, 500) });
      return { text: body.text.trim(), language: reportedLanguage(body.language) };
    },
  };
}
