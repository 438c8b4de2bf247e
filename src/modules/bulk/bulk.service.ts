import type { DialectName } from '../../db/create-db.js';
import type { Db, Executor } from '../../db/schema.js';
import { AppError, badRequest } from '../../errors.js';
import type { Clock } from '../../lib/clock.js';
import type { ItemWrites } from '../items/write-changes.js';
import type { ItemLoader } from '../items/item-loader.js';
import { archiveState, toggleState, unarchiveState } from '../items/item-state.js';
import type { ItemRow, ItemView } from '../items/item-view.js';
import type { PatchInput } from '../items/patch-columns.js';
import type { ItemEdits } from '../items/single-item-edits.js';
import type { RoutingLearner } from '../organizer/learning/routing-learner.js';
import type { ProjectsService } from '../projects/projects.service.js';
import type { BulkBody, BulkFailure, BulkResult } from './bulk.schemas.js';
import { listCompleted, type CompletedQuery } from './completed.js';

export interface BulkService {
  run(userId: string, body: BulkBody): Promise<BulkResult>;
  /** GET /items/completed: completed items, the latest first (completed.ts). */
  completed(userId: string, query: CompletedQuery): Promise<{ items: ItemView[]; next_cursor: string | null }>;
}

/** Applies the op to all of the user's listed rows at once (in the order listed), inside the call's transaction. */
type Batch = (trx: Executor, rows: readonly ItemRow[]) => Promise<unknown>;

export function createBulkService(deps: {
  db: Db;
  loader: ItemLoader;
  writes: ItemWrites;
  projects: ProjectsService;
  learner: Pick<RoutingLearner, 'learnMoves'>;
  edits: Pick<ItemEdits, 'patch'>;
  dialect: DialectName;
  clock: Clock;
}): BulkService {
  const { writes } = deps;

  /**
   * `update`: each id gets exactly PATCH /items/{id} (its checks, events, recurrence and learning),
   * one after the other, each in its own transaction; an id PATCH refuses fails alone (decision 0078).
   */
  async function update(userId: string, ids: readonly string[], patch: PatchInput): Promise<BulkResult> {
    if (Object.keys(patch).length === 0) throw badRequest('update needs at least one field in payload', 'payload');
    const failures: BulkFailure[] = [];
    for (const id of ids) {
      try {
        await deps.edits.patch(userId, id, patch);
      } catch (error) {
        if (!(error instanceof AppError)) throw error;
        failures.push({ id, error: error.code, message: error.message });
      }
    }
    return { ok: failures.length === 0, updated: ids.length - failures.length, failures };
  }

  /** The op as one batch; checks that need no database run before the transaction opens. */
  function batchFor(userId: string, body: BulkBody): { batch: Batch; projectId?: string } {
    switch (body.op) {
      case 'toggle': {
        const target = body.payload?.is_completed;
        return { batch: (trx, rows) => writes.applyStates(trx, userId, rows, (s) => toggleState(s, target)) };
      }
      case 'archive':
        return { batch: (trx, rows) => writes.applyStates(trx, userId, rows, archiveState) };
      case 'unarchive':
        return { batch: (trx, rows) => writes.applyStates(trx, userId, rows, (s) => unarchiveState(s)) };
      case 'delete':
        return { batch: (trx, rows) => writes.removeWithSubtasks(trx, userId, rows) };
      case 'update':
        throw new Error('unreachable: run() answers update before it asks for a batch');
      case 'move': {
        const projectId = body.payload?.project_id;
        if (projectId === undefined) throw badRequest('move needs payload.project_id', 'payload.project_id');
        const moves = (rows: readonly ItemRow[]) => rows.map((r) => ({ id: r.id, title: r.title, from: r.project_id, to: projectId }));
        // Each moved item teaches the organizer where such items go (issue 37), in this transaction.
        const batch: Batch = async (trx, rows) => {
          await deps.learner.learnMoves(trx, userId, moves(rows));
          return writes.moveToProject(trx, userId, rows, projectId);
        };
        return { projectId, batch };
      }
    }
  }

  return {
    completed: (userId, query) => listCompleted(deps.db, deps.dialect, userId, query, deps.clock.now()),

    async run(userId, body) {
      const ids = [...new Set(body.ids)];
      if (body.op === 'update') {
        const { is_completed: _toggleOnly, ...patch } = body.payload ?? {};
        return update(userId, ids, patch);
      }
      const { batch, projectId } = batchFor(userId, body);
      return deps.db.transaction().execute(async (trx) => {
        // An unknown target project fails the whole call (404) before anything changes.
        if (projectId !== undefined) await deps.projects.requireProject(trx, userId, projectId);
        const rows = new Map((await deps.loader.lockedRows(trx, userId, ids)).map((row) => [row.id, row]));
        const failures: BulkFailure[] = [];
        const found: ItemRow[] = [];
        for (const id of ids) {
          const row = rows.get(id);
          if (row) found.push(row);
          else failures.push({ id, error: 'not_found', message: 'item not found' });
        }
        // Every row that exists counts as updated, also one deleted here as the subtask of another.
        if (found.length > 0) await batch(trx, found);
        return { ok: failures.length === 0, updated: found.length, failures };
      });
    },
  };
}
