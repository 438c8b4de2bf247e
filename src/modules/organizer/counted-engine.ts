import type { Counter } from 'prom-client';
import type { OrganizerEngine } from './organizer.types.js';

/** The engine, counting each run under the engine that actually decided (after any fallback). */
export function countedEngine(engine: OrganizerEngine, runs: Counter<'engine'>): OrganizerEngine {
  return {
    name: engine.name,
    async decide(request) {
      const decided = await engine.decide(request);
      runs.inc({ engine: decided.engine });
      return decided;
    },
  };
}
