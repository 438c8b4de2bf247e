import type { Logger } from 'pino';
import type { DialectName } from '../../../db/create-db.js';
import type { Db, Executor } from '../../../db/schema.js';
import type { Clock } from '../../../lib/clock.js';
import { toTimestamp } from '../../../lib/timestamps.js';
import type { ProjectContext } from '../organizer.types.js';
import { findItemPlaces } from '../organizer.repository.js';
import { deleteFilings, readFilings, writeFiling, type Filing } from './filings.repository.js';
import { readModel, readRevision, writeModel } from './models.repository.js';
import { emptyModel, keepClasses, learn, MAX_PENDING, parseModel, PENDING_PRUNE_TO, type ModelData } from './routing-model.js';
import { seedModel } from './seed.js';
import { createParsedModels } from './parsed-models.js';

/** An item the user put into another project: a labelled example of where its title belongs. */
export interface Move {
  id: string;
  title: string | null;
  from: string;
  to: string;
}

/** What a decision reads of the learner: the model, and the filings not yet confirmed (oldest first). */
export interface Routing {
  model: ModelData;
  pending: readonly Filing[];
}

/** The model as exported: its counts, with the filings awaiting confirmation as `[item, project, filed at]`. */
export type ExportedModel = ModelData & { pending: Array<[itemId: string, projectId: string, filedAt: string]> };

/** The organizer's per-user routing model: read for a decision, taught by what users do (decision 0039). */
export interface RoutingLearner {
  /**
   * The user's model, built once from their history (`projects`' titles) on first use; filings of
   * the organizer kept for a day are learned first (issue 47: only confirmed filings teach).
   */
  modelFor(userId: string, projects: readonly ProjectContext[]): Promise<Routing>;
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
  exportModel(userId: string): Promise<ExportedModel | null>;
}

/** A filing still where the organizer put it this long after is one the user kept: a confirmed example. */
export const CONFIRM_AFTER_MS = 24 * 3600 * 1000;
/**
 * Kept filings are learned together once the oldest has waited this much longer, so a user who
 * organizes all day rewrites the model once an hour for them, not at every capture (decision 0114).
 */
export const CONFIRM_BATCH_MS = 3600 * 1000;

export function createRoutingLearner(deps: { db: Db; dialect: DialectName; clock: Clock; logger: Logger }): RoutingLearner {
  const { db, dialect } = deps;
  const now = () => toTimestamp(deps.clock.now());
  const ago = (ms: number) => toTimestamp(new Date(deps.clock.now().getTime() - ms));
  const parsed = createParsedModels();

  /** Writes the model and keeps it parsed under the revision written. */
  async function save(trx: Executor, userId: string, model: ModelData): Promise<void> {
    const revision = await writeModel(trx, userId, JSON.stringify(model), now());
    parsed.wrote(userId, revision, model);
  }

  /** The stored model, parsed once per revision: a decision reads the revision, the text only when it changed. */
  async function current(userId: string): Promise<ModelData> {
    const revision = await readRevision(db, userId);
    if (revision === undefined) return emptyModel();
    return parsed.known(userId, revision) ?? parsed.read(userId, await readModel(db, dialect, userId));
  }

  async function teach(trx: Executor, userId: string, examples: ReadonlyArray<{ itemId: string; text: string; projectId: string }>): Promise<void> {
    if (examples.length === 0) return;
    const model = parsed.fresh(await readModel(trx, dialect, userId, { lock: true }));
    // A move of a filing awaiting confirmation is the user's answer: it teaches, the filing never will.
    await deleteFilings(
      trx,
      userId,
      examples.map((e) => e.itemId),
    );
    for (const e of examples) learn(model, e);
    await save(trx, userId, model);
  }

  /** The filings kept long enough are learned (those still where they were filed); moved or deleted ones are dropped. */
  async function confirm(trx: Executor, userId: string, model: ModelData, filings: Filing[]): Promise<Filing[]> {
    const before = ago(CONFIRM_AFTER_MS);
    const ready = filings.filter((f) => f.filed_at <= before);
    if (ready.length === 0) return filings;
    const places = new Map(
      (
        await findItemPlaces(
          trx,
          userId,
          ready.map((f) => f.item_id),
        )
      ).map((r) => [r.id, r]),
    );
    for (const f of ready) {
      const item = places.get(f.item_id);
      if (item && item.project_id === f.project_id && item.title !== null) learn(model, { itemId: f.item_id, text: item.title, projectId: f.project_id });
    }
    await deleteFilings(
      trx,
      userId,
      ready.map((f) => f.item_id),
      before,
    );
    return filings.filter((f) => f.filed_at > before);
  }

  /** Past the bound, the oldest filings are forgotten unlearned. */
  async function bound(trx: Executor, userId: string, filings: Filing[]): Promise<Filing[]> {
    if (filings.length <= MAX_PENDING) return filings;
    const cut = filings.length - PENDING_PRUNE_TO;
    await deleteFilings(
      trx,
      userId,
      filings.slice(0, cut).map((f) => f.item_id),
    );
    return filings.slice(cut);
  }

  return {
    async modelFor(userId, projects) {
      const [model, filings] = await Promise.all([current(userId), readFilings(db, userId)]);
      const ids = new Set(projects.map((p) => p.id));
      const stale = model.classes.some((id) => !ids.has(id));
      const oldest = filings[0]?.filed_at;
      const confirming = oldest !== undefined && oldest <= ago(CONFIRM_AFTER_MS + CONFIRM_BATCH_MS);
      if (model.seeded && !stale && !confirming) {
        return { model, pending: await bound(db, userId, filings) };
      }
      // Once per user (and after a project is deleted): seed from history, drop deleted projects' classes;
      // and the filings kept for a day become examples.
      return db.transaction().execute(async (trx) => {
        const locked = parsed.fresh(await readModel(trx, dialect, userId, { lock: true }));
        keepClasses(locked, ids);
        if (!locked.seeded) seedModel(locked, projects);
        const pending = await bound(trx, userId, await confirm(trx, userId, locked, await readFilings(trx, userId)));
        await save(trx, userId, locked);
        return { model: locked, pending };
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
        await writeFiling(db, userId, { item_id: item.id, project_id: item.project_id, filed_at: now() });
      } catch (error) {
        // Eventual by design (decision 0039): a lost filing costs one example, a failed capture costs the capture.
        deps.logger.warn({ err: error }, 'organizer: could not record a filing');
      }
    },

    async exportModel(userId) {
      const stored = await readModel(db, dialect, userId);
      if (!stored) return null;
      const pending = (await readFilings(db, userId)).map((f): [string, string, string] => [f.item_id, f.project_id, f.filed_at]);
      return { ...parseModel(stored.model), pending };
    },
  };
}
