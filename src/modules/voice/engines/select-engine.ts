import type { OpenAiTranscribeConfig, TranscribeEngineSetting } from '../../../config.js';
import { allReadable, findExecutable } from '../../../lib/executables.js';
import type { TranscriptionEngine } from './engine.js';
import { createOpenAiEngine, type FetchFn } from './openai-engine.js';
import { createPocketsphinxEngine, modelFiles } from './pocketsphinx-engine.js';

export interface EngineSelectionOptions {
  engine: TranscribeEngineSetting;
  openai: OpenAiTranscribeConfig | undefined;
  searchPath: string;
  pocketsphinxModelDir: string;
  pocketsphinxBaseTimeoutMs: number;
  openaiTimeoutMs: number;
  fetch: FetchFn;
}

export type EngineSelection = { ok: true; engine: TranscriptionEngine; ffmpegPath: string } | { ok: false; reason: string };

const INSTALL_POCKETSPHINX = 'apt-get install pocketsphinx pocketsphinx-en-us';

/**
 * Picks the engine once, at start. `auto` means the OpenAI-compatible service when it is
 * configured, else pocketsphinx when it is installed. Every engine needs ffmpeg to decode uploads.
 */
export function selectEngine(options: EngineSelectionOptions): EngineSelection {
  const ffmpegPath = findExecutable('ffmpeg', options.searchPath);
  if (!ffmpegPath) return { ok: false, reason: 'ffmpeg, which decodes the audio, is not installed (apt-get install ffmpeg)' };

  const wantsOpenAi = options.engine === 'openai' || (options.engine === 'auto' && options.openai !== undefined);
  if (wantsOpenAi) {
    if (!options.openai) return { ok: false, reason: 'the openai engine needs TRANSCRIBE_BASE_URL' };
    const { baseUrl, apiKey, model } = options.openai;
    return { ok: true, ffmpegPath, engine: createOpenAiEngine({ baseUrl, apiKey, model, timeoutMs: options.openaiTimeoutMs, fetch: options.fetch }) };
  }

  const binaryPath = findExecutable('pocketsphinx_continuous', options.searchPath);
  const model = modelFiles(options.pocketsphinxModelDir);
  if (!binaryPath || !allReadable([model.hmm, model.lm, model.dict])) {
    const reason =
      options.engine === 'pocketsphinx'
        ? `pocketsphinx is not installed (${INSTALL_POCKETSPHINX})`
        : `no speech engine: install pocketsphinx (${INSTALL_POCKETSPHINX}) or set TRANSCRIBE_BASE_URL`;
    return { ok: false, reason };
  }
  return {
    ok: true,
    ffmpegPath,
    engine: createPocketsphinxEngine({ binaryPath, modelDir: options.pocketsphinxModelDir, baseTimeoutMs: options.pocketsphinxBaseTimeoutMs }),
  };
}
