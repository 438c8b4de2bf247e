import type { Db, Executor } from '../../db/schema.js';
import { badRequest } from '../../errors.js';
import { unlinkDisallowedMarkdown } from '../../lib/link-schemes.js';
import type { ImportedItem } from '../items/imported-items.js';
import type { ItemsService } from '../items/items.service.js';
import type { NewItemRow } from '../items/items.repository.js';
import { newItemRow } from '../items/new-item.js';
import type { SearchService } from '../search/search.service.js';
import type { RecurrenceService } from '../recurrence/recurrence.service.js';
import type { ProjectsService } from '../projects/projects.service.js';
import { tagKey, type TagsService } from '../tags/tags.service.js';
import type { ImportPlan, PlannedFilter, PlannedItem } from './import-plan.js';
import type { ImportResult } from './transfer.schemas.js';

export interface ImportService {
  /** All or nothing: a fault anywhere (the plan, a parent, a name) rolls the whole import back. */
  apply(userId: string, plan: ImportPlan): Promise<ImportResult>;
}

function toRow(userId: string, projectId: string, item: PlannedItem): NewItemRow {
  const archived = item.status === 'archived';
  return newItemRow({
    id: item.id,
    user_id: userId,
    project_id: projectId,
    parent_id: item.parent_id,
    type: item.type,
    title: item.title,
    // Notes from another system: a link we do not keep (javascript:, data:, …) is stored as its text.
    content_md: item.content_md === null ? null : unlinkDisallowedMarkdown(item.content_md),
    due_at: item.due_at,
    all_day: item.all_day ?? false,
    recurrence: item.recurrence ?? null,
    remind_at: item.remind_at ?? null,
    created_at: item.created_at,
    updated_at: item.updated_at,
    state: {
      is_completed: item.is_completed,
      status: item.status,
      // What unarchive goes back to (item-state.ts); the export does not carry it.
      status_before_archive: archived ? (item.is_completed ? 'done' : item.type === 'todo' ? 'todo' : 'backlog') : null,
      archived_at: item.archived_at,
    },
  });
}

/**
 * Writes an import plan through the items service, so an imported item is stored, indexed for
 * search and announced (`item.created`) like any other.
 */
export function createImportService(deps: {
  db: Db;
  items: Pick<ItemsService, 'imports'>;
  projects: ProjectsService;
  tags: TagsService;
  search: Pick<SearchService, 'restoreOrder'>;
  recurrence: Pick<RecurrenceService, 'recordCompletions'>;
  /** Saved filters, in the import's transaction: ids the user holds are skipped; answers how many were added. */
  importFilters: (trx: Executor, userId: string, filters: readonly PlannedFilter[]) => Promise<number>;
}): ImportService {
  const { db } = deps;
  const { imports } = deps.items;
  return {
    async apply(userId, plan) {
      const tagsBefore = new Set((await deps.tags.list(userId)).map((t) => tagKey(t.name)));
      const skipped: ImportResult['skipped'] = [];
      let projectsCreated = 0;
      const created: PlannedItem[] = [];
      let filtersCreated = 0;
      await db.transaction().execute(async (trx) => {
        const projectIds = new Map<string, string>();
        for (const project of plan.projects) {
          if (project.is_default) {
            projectIds.set(project.ref, (await deps.projects.requireInbox(trx, userId)).id);
            continue;
          }
          const found = await deps.projects.findOrCreateIn(trx, userId, project.name);
          if (found.created) projectsCreated += 1;
          projectIds.set(project.ref, found.id);
        }
        const inPlan = new Set(plan.items.map((i) => i.id));
        const held = await imports.heldIds(trx, userId, [...inPlan]);
        const outsideParents = [...new Set(plan.items.flatMap((i) => (i.parent_id && !inPlan.has(i.parent_id) ? [i.parent_id] : [])))];
        const heldParents = await imports.heldIds(trx, userId, outsideParents);
        const rows: ImportedItem[] = [];
        for (const item of plan.items) {
          if (held.has(item.id)) {
            skipped.push({ line_or_index: item.position, reason: 'exists' });
            continue;
          }
          if (item.parent_id && !inPlan.has(item.parent_id) && !heldParents.has(item.parent_id)) {
            throw badRequest(`item ${item.position}: parent_id ${item.parent_id} is neither in the document nor in the account`, 'items');
          }
          rows.push({ row: toRow(userId, projectIds.get(item.project_ref)!, item), tags: item.tags });
          created.push(item);
        }
        await imports.insert(trx, userId, rows);
        // Completions come with the items they belong to; an item skipped as existing keeps its own.
        const createdIds = new Set(created.map((i) => i.id));
        await deps.recurrence.recordCompletions(
          trx,
          userId,
          (plan.completions ?? []).filter((c) => createdIds.has(c.item_id)),
        );
        if (plan.filters) filtersCreated = await deps.importFilters(trx, userId, plan.filters);
        // Imported items keep their (older) created_at: put the user's search keys back in order.
        await deps.search.restoreOrder(trx, userId);
      });
      const newTags = new Set(created.flatMap((i) => i.tags.map(tagKey)).filter((k) => !tagsBefore.has(k)));
      skipped.sort((a, b) => a.line_or_index - b.line_or_index);
      const imported = { projects: projectsCreated, items: created.length, tags: newTags.size, ...(plan.filters?.length ? { filters: filtersCreated } : {}) };
      return { imported, skipped };
    },
  };
}
