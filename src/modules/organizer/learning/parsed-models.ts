import type { StoredModel } from './models.repository.js';
import { parseModel, type ModelData } from './routing-model.js';

/** Users whose parsed model is kept: past this, the least recently used goes. */
const USERS_KEPT = 500;

/**
 * Parsed routing models, keyed by the revision stored with the text (decisions 0096, 0114):
 * parsing a user's model on every organized capture was ~9 ms of the event loop, and reading its
 * 70-90 KB only to compare it 1.5 ms of PostgreSQL's. Each write stores a new random revision, so a
 * worker that reads a row another worker (or process) rewrote parses it again, and a rolled-back
 * write leaves an entry that never matches. The models handed out are shared: a caller that
 * changes one takes `fresh()` or copies what it changes.
 */
export interface ParsedModels {
  /** The model kept for this revision, if any. Read-only. */
  known(userId: string, revision: string): ModelData | undefined;
  /** The model the stored row holds, parsed once per revision. Read-only. */
  read(userId: string, stored: StoredModel | undefined): ModelData;
  /** A model of the caller's own to change, from the stored row. */
  fresh(stored: StoredModel | undefined): ModelData;
  /** The model the caller wrote, under the revision it wrote: the next read of that revision needs no parse. */
  wrote(userId: string, revision: string, model: ModelData): void;
}

export function createParsedModels(): ParsedModels {
  const kept = new Map<string, { revision: string; model: ModelData }>();
  const keep = (userId: string, revision: string, model: ModelData) => {
    kept.delete(userId);
    if (kept.size >= USERS_KEPT) kept.delete(kept.keys().next().value!);
    kept.set(userId, { revision, model });
  };
  const known = (userId: string, revision: string): ModelData | undefined => {
    const hit = kept.get(userId);
    if (!hit || hit.revision !== revision) return undefined;
    keep(userId, revision, hit.model);
    return hit.model;
  };
  return {
    known,
    read(userId, stored) {
      if (stored === undefined) return parseModel(undefined);
      const hit = known(userId, stored.revision);
      if (hit) return hit;
      const model = parseModel(stored.model);
      keep(userId, stored.revision, model);
      return model;
    },
    fresh: (stored) => parseModel(stored?.model),
    wrote: keep,
  };
}
