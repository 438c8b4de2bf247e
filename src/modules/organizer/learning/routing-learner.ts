import type { Logger } from 'pino';
import type { DialectName } from '../../../db/create-db.js';
import type { Db, Executor } from '../../../db/schema.js';
import type { Clock } from '../../../lib/clock.js';
import { toTimestamp } from '../../../lib/timestamps.js';
import type { ProjectContext } from '../organizer.types.js';
import { findItemPlaces } from '../organizer.repository.js';
import { readModel, writeModel } from './models.repository.js';
import { keepClasses, learn, MAX_PENDING, parseModel, type ModelData } from './routing-model.js';
import { seedModel } from './seed.js';
import { createParsedModels } from './parsed-models.js';

/** An item the user put into another project: a labelled example of where its title belongs. */
export interface Move {
  id: string;
  title: string | null;
  from: string;
  to: string;
}

/** The organizer's per-user routing model: read for a decision, taught by what users do (decision 0039). */
export interface RoutingLearner {
  /**
   * The user's model, built once from their history (`projects`' titles) on first use; filings of
   * the organizer kept for a day are learned first (issue 47: only confirmed filings teach).
   */
  modelFor(userId: string, projects: readonly ProjectContext[]): Promise<ModelData>;
  /**
   * Moves by the user (PATCH project_id, a bulk move, an Undo of a filing), learned in the caller's
   * transaction: the example and the move commit or roll back together.
   */
  learnMoves(trx: Executor, userId: string, moves: readonly Move[]): Promise<void>;
  /**
   * The organizer filed a capture: not an example yet. It is learned once the user keeps it (still in
   * that project `CONFIRM_AFTER_MS` later), or their move teaches instead. After the capture's commit, never failing it.
   */
  recordFiling(userId: string, item: { id: string; project_id: string }): Promise<void>;
  /** The model for the user's export, with project ids as they are; null when nothing was learned. */
  exportModel(userId: string): Promise<ModelData | null>;
}

/** A filing still where the organizer put it this long after is one the user kept: a confirmed example. */
export const CONFIRM_AFTER_MS = 24 * 3600 * 1000;

export function createRoutingLearner(deps: { db: Db; dialect: DialectName; clock: Clock; logger: Logger }): RoutingLearner {
  const { db, dialect } = deps;
  const now = () => toTimestamp(deps.clock.now());
  const parsed = createParsedModels();

  /** Writes the model and keeps it parsed under the text written. */
  async function save(trx: Executor, userId: string, model: ModelData): Promise<void> {
    const json = JSON.stringify(model);
    await writeModel(trx, userId, json, now());
    parsed.wrote(userId, json, model);
  }

  async function teach(trx: Executor, userId: string, examples: ReadonlyArray<{ itemId: string; text: string; projectId: string }>): Promise<void> {
    if (examples.length === 0) return;
    const model = parsed.fresh(await readModel(trx, dialect, userId, { lock: true }));
    // A move of a filing awaiting confirmation is the user's answer: it teaches, the filing never will.
    const moved = new Set(examples.map((e) => e.itemId));
    model.pending = model.pending.filter(([id]) => !moved.has(id));
    for (const e of examples) learn(model, e);
    await save(trx, userId, model);
  }

  const due = (model: ModelData): Array<[string, string, string]> => {
    const before = deps.clock.now().getTime() - CONFIRM_AFTER_MS;
    return model.pending.filter(([, , at]) => Date.parse(at) <= before);
  };

  /** The filings kept long enough are learned (those still where they were filed); moved or deleted ones are dropped. */
  async function confirm(trx: Executor, userId: string, model: ModelData): Promise<void> {
    const ready = due(model);
    if (ready.length === 0) return;
    const places = new Map(
      (
        await findItemPlaces(
          trx,
          userId,
          ready.map(([id]) => id),
        )
      ).map((r) => [r.id, r]),
    );
    for (const [id, projectId] of ready) {
      const item = places.get(id);
      if (item && item.project_id === projectId && item.title !== null) learn(model, { itemId: id, text: item.title, projectId });
    }
    const done = new Set(ready.map(([id]) => id));
    model.pending = model.pending.filter(([id]) => !done.has(id));
  }

  return {
    async modelFor(userId, projects) {
      const model = parsed.read(userId, await readModel(db, dialect, userId));
      const ids = new Set(projects.map((p) => p.id));
      const stale = model.classes.some((id) => !ids.has(id));
      if (model.seeded && !stale && due(model).length === 0) return model;
      // Once per user (and after a project is deleted): seed from history, drop deleted projects' classes;
      // and the filings kept for a day become examples.
      return db.transaction().execute(async (trx) => {
        const locked = parsed.fresh(await readModel(trx, dialect, userId, { lock: true }));
        keepClasses(locked, ids);
        if (!locked.seeded) seedModel(locked, projects);
        await confirm(trx, userId, locked);
        await save(trx, userId, locked);
        return locked;
      });
    },

    learnMoves: (trx, userId, moves) =>
      teach(
        trx,
        userId,
        moves.flatMap((m) => (m.title === null || m.from === m.to ? [] : [{ itemId: m.id, text: m.title, projectId: m.to }])),
      ),

    async recordFiling(userId, item) {
      try {
        await db.transaction().execute(async (trx) => {
          // Only `pending` changes, as a new array: the shared parsed model is copied, not parsed again.
          const stored = parsed.read(userId, await readModel(trx, dialect, userId, { lock: true }));
          const filing: ModelData['pending'][number] = [item.id, item.project_id, now()];
          const model = { ...stored, pending: [...stored.pending.filter(([id]) => id !== item.id), filing].slice(-MAX_PENDING) };
          await save(trx, userId, model);
        });
      } catch (error) {
        // Eventual by design (decision 0039): a lost filing costs one example, a failed capture costs the capture.
        deps.logger.warn({ err: error }, 'organizer: could not record a filing');
      }
    },

    async exportModel(userId) {
      const json = await readModel(db, dialect, userId);
      return json ? parseModel(json) : null;
    },
  };
}
