import { stat } from 'node:fs/promises';
import { ProcessFailure, runProcess } from '../../lib/run-process.js';

/** What every engine receives: raw 16 kHz mono signed 16-bit little-endian PCM in a file. */
export interface DecodedAudio {
  pcmPath: string;
  bytes: number;
  durationMs: number;
}

export const SAMPLE_RATE = 16_000;
const BYTES_PER_MS = (SAMPLE_RATE * 2) / 1000;

/**
 * Demuxers ffmpeg may pick for an upload: the common audio containers (wav, mp3, ogg/opus, webm,
 * m4a/aac, flac and a few more phones produce). Anything else is refused, in particular playlist
 * and concat formats (hls, concat, …) whose content makes ffmpeg open other files or URLs.
 */
const ALLOWED_DEMUXERS = ['wav', 'w64', 'mp3', 'ogg', 'matroska', 'webm', 'mov', 'mp4', 'm4a', '3gp', 'flac', 'aac', 'aiff', 'caf', 'amr'];

/** The input is not audio ffmpeg can read (not a container it may open, or no audio stream). */
export class NotAudioError extends Error {
  override readonly name = 'NotAudioError';
}

/** The audio plays longer than the engines are given. */
export class AudioTooLongError extends Error {
  override readonly name = 'AudioTooLongError';
}

export interface AudioDecoderOptions {
  ffmpegPath: string;
  timeoutMs: number;
  maxDurationMs: number;
}

export interface AudioDecoder {
  /** Decodes the first audio stream of `inputPath` into `pcmPath`. */
  decode(inputPath: string, pcmPath: string, signal: AbortSignal): Promise<DecodedAudio>;
}

export function createAudioDecoder(options: AudioDecoderOptions): AudioDecoder {
  // One 20 ms frame more than allowed is decoded, so longer audio shows as such without being
  // decoded to its end.
  const limitSeconds = ((options.maxDurationMs + 20) / 1000).toFixed(3);
  return {
    async decode(inputPath, pcmPath, signal) {
      const args = [
        '-nostdin',
        '-hide_banner',
        '-loglevel',
        'error',
        '-threads',
        '1',
        '-protocol_whitelist',
        'file',
        '-format_whitelist',
        ALLOWED_DEMUXERS.join(','),
        '-i',
        inputPath,
        '-map',
        '0:a:0',
        '-vn',
        '-sn',
        '-dn',
        '-map_metadata',
        '-1',
        '-t',
        limitSeconds,
        '-ac',
        '1',
        '-ar',
        String(SAMPLE_RATE),
        '-c:a',
        'pcm_s16le',
        '-f',
        's16le',
        '-y',
        pcmPath,
      ];
      try {
        await runProcess(options.ffmpegPath, args, { timeoutMs: options.timeoutMs, signal, maxOutputBytes: 64 * 1024 });
      } catch (error) {
        // ffmpeg exits 1 for input it cannot open or that has no audio stream: that is the client's file.
        if (error instanceof ProcessFailure && error.kind === 'exit' && error.exitCode !== null) throw new NotAudioError(firstLine(error.stderr));
        throw error;
      }
      const { size } = await stat(pcmPath);
      const bytes = size - (size % 2);
      const durationMs = Math.round(bytes / BYTES_PER_MS);
      if (durationMs > options.maxDurationMs) {
        throw new AudioTooLongError(`the audio is longer than ${formatMinutes(options.maxDurationMs)}, the most that is transcribed`);
      }
      return { pcmPath, bytes, durationMs };
    },
  };
}

const firstLine = (text: string): string =>
  text
    .split('\n')
    .find((line) => line.trim() !== '')
    ?.trim() ?? 'ffmpeg could not read it';

const formatMinutes = (ms: number): string => (ms % 60_000 === 0 ? `${ms / 60_000} minutes` : `${Math.round(ms / 1000)} s`);
