import { parseModel, type ModelData } from './routing-model.js';

/** Users whose parsed model is kept: past this, the least recently used goes. */
const USERS_KEPT = 500;

/**
 * Parsed routing models, keyed by the exact JSON stored (decision 0096): parsing a user's model
 * on every organized capture was ~9 ms of the event loop. The stored text is the key, not a
 * version or a time, so a worker that reads a row another worker (or process) rewrote parses it
 * again, and a rolled-back write leaves an entry that never matches. The models handed out are
 * shared: a caller that changes one takes `fresh()` or copies what it changes.
 */
export interface ParsedModels {
  /** The model the stored text holds, parsed once per text. Read-only. */
  read(userId: string, json: string | undefined): ModelData;
  /** A model of the caller's own to change, from the stored text. */
  fresh(json: string | undefined): ModelData;
  /** The model the caller wrote, with the text it wrote: the next read of that text needs no parse. */
  wrote(userId: string, json: string, model: ModelData): void;
}

export function createParsedModels(): ParsedModels {
  const kept = new Map<string, { json: string; model: ModelData }>();
  const keep = (userId: string, json: string, model: ModelData) => {
    kept.delete(userId);
    if (kept.size >= USERS_KEPT) kept.delete(kept.keys().next().value!);
    kept.set(userId, { json, model });
  };
  return {
    read(userId, json) {
      if (json === undefined) return parseModel(json);
      const hit = kept.get(userId);
      if (hit && hit.json === json) {
        keep(userId, json, hit.model);
        return hit.model;
      }
      const model = parseModel(json);
      keep(userId, json, model);
      return model;
    },
    fresh: (json) => parseModel(json),
    wrote: keep,
  };
}
