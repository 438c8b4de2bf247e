import { pino, type Logger } from 'pino';
import type { OrganizerConfig } from '../../config.js';
import { createOpenAiEngine } from './openai-engine.js';
import type { OrganizerEngine } from './organizer.types.js';

/**
 * The local engine, loaded at its first use: its date parser (chrono-node) alone took a quarter of
 * the server's start-up, and most requests never organize anything.
 */
const localEngine = (sentenceEncoder: boolean): OrganizerEngine => ({
  name: 'local',
  decide: async (request) => (await import('./local/local-engine.js')).decideLoaded(request, { sentenceEncoder }),
});

/** The engine ORGANIZER_ENGINE names; `openai` always has the local engine behind it. */
export function createOrganizerEngine(config: OrganizerConfig, deps: { fetch?: typeof fetch; logger?: Logger } = {}): OrganizerEngine {
  const local = localEngine(config.sentenceEncoder !== false);
  if (config.engine === 'local' || !config.openai) return local;
  return createOpenAiEngine({
    ...config.openai,
    timeoutMs: config.timeoutMs,
    fetch: deps.fetch ?? globalThis.fetch,
    logger: deps.logger ?? pino({ level: 'silent' }),
    fallback: local,
  });
}
