import type { Db, Executor } from '../../db/schema.js';
import { badRequest } from '../../errors.js';
import type { ItemChangesService } from '../items/item-changes.service.js';
import type { ItemLoader } from '../items/item-loader.js';
import { archiveState, toggleState, unarchiveState } from '../items/item-state.js';
import type { ItemRow } from '../items/item-view.js';
import type { ProjectsService } from '../projects/projects.service.js';
import type { BulkBody, BulkFailure, BulkResult } from './bulk.schemas.js';

export interface BulkService {
  run(userId: string, body: BulkBody): Promise<BulkResult>;
}

/** Applies the op to one of the user's rows inside the call's transaction. */
type Step = (trx: Executor, row: ItemRow) => Promise<unknown>;

export function createBulkService(deps: {
  db: Db;
  loader: ItemLoader;
  itemChanges: ItemChangesService;
  projects: ProjectsService;
}): BulkService {
  const { itemChanges } = deps;

  /** The op as a per-row step; checks that need no database run before the transaction opens. */
  function stepFor(userId: string, body: BulkBody, deleted: Set<string>): { step: Step; projectId?: string } {
    const target = body.payload?.is_completed;
    switch (body.op) {
      case 'toggle':
        return { step: (trx, row) => itemChanges.applyState(trx, userId, row, (s) => toggleState(s, target)) };
      case 'archive':
        return { step: (trx, row) => itemChanges.applyState(trx, userId, row, archiveState) };
      case 'unarchive':
        return { step: (trx, row) => itemChanges.applyState(trx, userId, row, (s) => unarchiveState(s)) };
      case 'delete':
        return {
          step: async (trx, row) => {
            for (const id of await itemChanges.removeWithSubtasks(trx, userId, row)) deleted.add(id);
          },
        };
      case 'move': {
        const projectId = body.payload?.project_id;
        if (projectId === undefined) throw badRequest('move needs payload.project_id', 'payload.project_id');
        return { projectId, step: (trx, row) => itemChanges.moveToProject(trx, userId, row, projectId) };
      }
    }
  }

  return {
    async run(userId, body) {
      const ids = [...new Set(body.ids)];
      // Ids deleted as subtasks of an item deleted earlier in this call: done, not missing.
      const deleted = new Set<string>();
      const { step, projectId } = stepFor(userId, body, deleted);
      return deps.db.transaction().execute(async (trx) => {
        // An unknown target project fails the whole call (404) before anything changes.
        if (projectId !== undefined) await deps.projects.requireProject(trx, userId, projectId);
        const rows = new Map((await deps.loader.rows(trx, userId, ids)).map((row) => [row.id, row]));
        const failures: BulkFailure[] = [];
        let updated = 0;
        for (const id of ids) {
          const row = rows.get(id);
          if (!row) failures.push({ id, error: 'not_found', message: 'item not found' });
          else {
            if (!deleted.has(id)) await step(trx, row);
            updated += 1;
          }
        }
        return { ok: failures.length === 0, updated, failures };
      });
    },
  };
}
