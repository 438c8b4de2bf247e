import { join } from 'node:path';
import { ProcessFailure, runProcess } from '../../../lib/run-process.js';
import { EngineFailure, type TranscriptionEngine } from './engine.js';

/** Where Debian's pocketsphinx-en-us package puts the US English model. */
export const DEBIAN_EN_US_MODEL_DIR = '/usr/share/pocketsphinx/model/en-us';

/** The files of the model directory that the engine reads. */
export function modelFiles(modelDir: string): { hmm: string; lm: string; dict: string } {
  return { hmm: join(modelDir, 'en-us'), lm: join(modelDir, 'en-us.lm.bin'), dict: join(modelDir, 'cmudict-en-us.dict') };
}

export interface PocketsphinxOptions {
  /** pocketsphinx_continuous of Debian's pocketsphinx package (0.8+5prealpha). */
  binaryPath: string;
  modelDir: string;
  /** Time allowed on top of the audio's own length (the engine runs well under real time). */
  baseTimeoutMs: number;
}

/**
 * Offline English transcription. pocketsphinx_continuous reads the raw PCM file (no .wav suffix,
 * so it takes it as headerless 16 kHz 16-bit mono), splits it at pauses and prints one line of
 * lowercase words per utterance.
 */
export function createPocketsphinxEngine(options: PocketsphinxOptions): TranscriptionEngine {
  const model = modelFiles(options.modelDir);
  return {
    name: 'pocketsphinx',
    cpuBound: true,
    languages: ['en'],
    async transcribe(audio, { signal }) {
      const args = ['-infile', audio.pcmPath, '-hmm', model.hmm, '-lm', model.lm, '-dict', model.dict, '-logfn', '/dev/null'];
      try {
        const { stdout } = await runProcess(options.binaryPath, args, {
          timeoutMs: options.baseTimeoutMs + audio.durationMs,
          signal,
          maxOutputBytes: 1024 * 1024,
        });
        const text = stdout
          .split('\n')
          .map((line) => line.trim())
          .filter(Boolean)
          .join(' ');
        return { text, language: 'en' };
      } catch (error) {
        if (!(error instanceof ProcessFailure) || error.kind === 'aborted') throw error;
        const why = error.kind === 'timeout' ? `did not finish within ${Math.round((options.baseTimeoutMs + audio.durationMs) / 1000)} s` : 'failed';
        throw new EngineFailure(`the offline engine (pocketsphinx) ${why}`, { cause: error.message, stderr: error.stderr });
      }
    },
  };
}
