import { pino, type Logger } from 'pino';
import type { OrganizerConfig } from '../../config.js';
import { createOpenAiEngine } from './openai-engine.js';
import type { OrganizerEngine } from './organizer.types.js';

/**
 * The local engine, loaded at its first use: its date parser (chrono-node) alone took a quarter of
 * the server's start-up, and most requests never organize anything.
 */
const localEngine: OrganizerEngine = {
  name: 'local',
  decide: async (request) => (await import('./local/local-engine.js')).localEngine.decide(request),
};

/** The engine ORGANIZER_ENGINE names; `openai` always has the local engine behind it. */
export function createOrganizerEngine(config: OrganizerConfig, deps: { fetch?: typeof fetch; logger?: Logger } = {}): OrganizerEngine {
  if (config.engine === 'local' || !config.openai) return localEngine;
  return createOpenAiEngine({
    ...config.openai,
    timeoutMs: config.timeoutMs,
    fetch: deps.fetch ?? globalThis.fetch,
    logger: deps.logger ?? pino({ level: 'silent' }),
    fallback: localEngine,
  });
}
