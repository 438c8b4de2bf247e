import type { Logger } from 'pino';
import type { DialectName } from '../../../db/create-db.js';
import type { Db, Executor } from '../../../db/schema.js';
import type { Clock } from '../../../lib/clock.js';
import { toTimestamp } from '../../../lib/timestamps.js';
import type { ProjectContext } from '../organizer.types.js';
import { readModel, writeModel } from './models.repository.js';
import { keepClasses, learn, parseModel, type ModelData } from './routing-model.js';
import { seedModel } from './seed.js';

/** An item the user put into another project: a labelled example of where its title belongs. */
export interface Move {
  id: string;
  title: string | null;
  from: string;
  to: string;
}

/** The organizer's per-user routing model: read for a decision, taught by what users do (decision 0039). */
export interface RoutingLearner {
  /** The user's model, built once from their history (`projects`' titles) on first use. */
  modelFor(userId: string, projects: readonly ProjectContext[]): Promise<ModelData>;
  /**
   * Moves by the user (PATCH project_id, a bulk move, an Undo of a filing), learned in the caller's
   * transaction: the example and the move commit or roll back together.
   */
  learnMoves(trx: Executor, userId: string, moves: readonly Move[]): Promise<void>;
  /** The organizer filed a capture: an example until the user moves it. After the capture's commit, never failing it. */
  learnFiling(userId: string, item: { id: string; title: string | null; project_id: string }): Promise<void>;
  /** The model for the user's export, with project ids as they are; null when nothing was learned. */
  exportModel(userId: string): Promise<ModelData | null>;
}

export function createRoutingLearner(deps: { db: Db; dialect: DialectName; clock: Clock; logger: Logger }): RoutingLearner {
  const { db, dialect } = deps;
  const now = () => toTimestamp(deps.clock.now());

  async function teach(trx: Executor, userId: string, examples: ReadonlyArray<{ itemId: string; text: string; projectId: string }>): Promise<void> {
    if (examples.length === 0) return;
    const model = parseModel(await readModel(trx, dialect, userId, { lock: true }));
    for (const e of examples) learn(model, e);
    await writeModel(trx, userId, JSON.stringify(model), now());
  }

  return {
    async modelFor(userId, projects) {
      const model = parseModel(await readModel(db, dialect, userId));
      const ids = new Set(projects.map((p) => p.id));
      const stale = model.classes.some((id) => !ids.has(id));
      if (model.seeded && !stale) return model;
      // Once per user (and after a project is deleted): seed from history, drop deleted projects' classes.
      return db.transaction().execute(async (trx) => {
        const locked = parseModel(await readModel(trx, dialect, userId, { lock: true }));
        keepClasses(locked, ids);
        if (!locked.seeded) seedModel(locked, projects);
        await writeModel(trx, userId, JSON.stringify(locked), now());
        return locked;
      });
    },

    learnMoves: (trx, userId, moves) =>
      teach(
        trx,
        userId,
        moves.flatMap((m) => (m.title === null || m.from === m.to ? [] : [{ itemId: m.id, text: m.title, projectId: m.to }])),
      ),

    async learnFiling(userId, item) {
      if (item.title === null) return;
      const title = item.title;
      try {
        await db.transaction().execute((trx) => teach(trx, userId, [{ itemId: item.id, text: title, projectId: item.project_id }]));
      } catch (error) {
        // Eventual by design (decision 0039): a lost example costs a little accuracy, a failed capture costs the capture.
        deps.logger.warn({ err: error }, 'organizer: could not learn from a filing');
      }
    },

    async exportModel(userId) {
      const json = await readModel(db, dialect, userId);
      return json ? parseModel(json) : null;
    },
  };
}
