import type { Db, Executor } from '../../db/schema.js';
import { badRequest } from '../../errors.js';
import type { ItemWrites } from '../items/write-changes.js';
import type { ItemLoader } from '../items/item-loader.js';
import { archiveState, toggleState, unarchiveState } from '../items/item-state.js';
import type { ItemRow } from '../items/item-view.js';
import type { RoutingLearner } from '../organizer/learning/routing-learner.js';
import type { ProjectsService } from '../projects/projects.service.js';
import type { BulkBody, BulkFailure, BulkResult } from './bulk.schemas.js';

export interface BulkService {
  run(userId: string, body: BulkBody): Promise<BulkResult>;
}

/** Applies the op to all of the user's listed rows at once (in the order listed), inside the call's transaction. */
type Batch = (trx: Executor, rows: readonly ItemRow[]) => Promise<unknown>;

export function createBulkService(deps: {
  db: Db;
  loader: ItemLoader;
  writes: ItemWrites;
  projects: ProjectsService;
  learner: Pick<RoutingLearner, 'learnMoves'>;
}): BulkService {
  const { writes } = deps;

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
    async run(userId, body) {
      const ids = [...new Set(body.ids)];
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
