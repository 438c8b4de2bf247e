import type { Db, Executor } from '../../db/schema.js';
import { badRequest } from '../../errors.js';
import { unlinkDisallowedMarkdown } from '../../lib/link-schemes.js';
import { noteBulkRows } from '../../lib/gc-requests.js';
import type { ImportedItem } from '../items/imported-items.js';
import type { ItemsService } from '../items/items.service.js';
import type { NewItemRow } from '../items/items.repository.js';
import { newItemRow } from '../items/new-item.js';
import type { SearchService } from '../search/search.service.js';
import type { RecurrenceService } from '../recurrence/recurrence.service.js';
import type { ProjectsService } from '../projects/projects.service.js';
import { tagKey, type TagsService } from '../tags/tags.service.js';
import type { ImportPlan, ImportStep, PlannedFilter, PlannedItem, PlannedProject } from './import-plan.js';
import type { ImportResult } from './transfer.schemas.js';

/** Items checked and written together: one INSERT of items, a few for their tags, three of events (decision 0101). */
const ITEMS_PER_BATCH = 500;

export interface ImportService {
  /** All or nothing: a fault anywhere (the plan, a parent, a name) rolls the whole import back. */
  apply(userId: string, plan: ImportPlan): Promise<ImportResult>;
  /**
   * A plan read as it streams (Todoist's CSV), written ITEMS_PER_BATCH items at a time in one
   * transaction: all or nothing as apply(), while memory holds a batch, not the plan.
   */
  applySteps(userId: string, steps: AsyncIterable<ImportStep>): Promise<ImportResult>;
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

interface Tally {
  projects: number;
  items: number;
  /** Keys of the tags the created items bring that the user did not have before. */
  newTags: Set<string>;
  skipped: ImportResult['skipped'];
}

type ImportDeps = Parameters<typeof createImportService>[0];

/**
 * Writes projects as they come and items in batches, inside the import's transaction. An item whose
 * parent is not in its batch needs the parent in the account: held before, or written by an earlier
 * batch (the steps give a parent before its subtasks), so the check costs one query a batch.
 */
function createWriter(deps: ImportDeps, trx: Executor, userId: string, tagsBefore: ReadonlySet<string>, onCreated?: (item: PlannedItem) => void) {
  const { imports } = deps.items;
  const tally: Tally = { projects: 0, items: 0, newTags: new Set(), skipped: [] };
  const projectIds = new Map<string, string>();
  let batch: PlannedItem[] = [];
  /**
   * The planner is shown this import's rows when they have doubled since it last was: a few
   * ANALYZEs an import, and its estimates never more than twice off (decision 0108).
   */
  let refreshAt = ITEMS_PER_BATCH;

  async function flush(): Promise<void> {
    const items = batch;
    batch = [];
    if (items.length === 0) return;
    const ids = items.map((i) => i.id);
    const held = await imports.heldIds(trx, userId, ids);
    const here = new Set(ids);
    const outside = [...new Set(items.flatMap((i) => (i.parent_id !== null && !here.has(i.parent_id) ? [i.parent_id] : [])))];
    const parents = await imports.heldIds(trx, userId, outside);
    const rows: ImportedItem[] = [];
    for (const item of items) {
      if (held.has(item.id)) {
        tally.skipped.push({ line_or_index: item.position, reason: 'exists' });
        continue;
      }
      if (item.parent_id !== null && !here.has(item.parent_id) && !parents.has(item.parent_id)) {
        throw badRequest(`item ${item.position}: parent_id ${item.parent_id} is neither in the document nor in the account`, 'items');
      }
      rows.push({ row: toRow(userId, projectIds.get(item.project_ref)!, item), tags: item.tags });
      for (const key of item.tags.map(tagKey)) if (!tagsBefore.has(key)) tally.newTags.add(key);
      onCreated?.(item);
    }
    tally.items += rows.length;
    if (rows.length > 0) await imports.insert(trx, userId, rows);
    noteBulkRows(items.length);
    if (tally.items >= refreshAt) {
      await imports.refreshPlans(trx);
      refreshAt = tally.items * 2;
    }
  }

  return {
    async project(project: PlannedProject): Promise<void> {
      if (projectIds.has(project.ref)) return;
      if (project.is_default) {
        projectIds.set(project.ref, (await deps.projects.requireInbox(trx, userId)).id);
        return;
      }
      const found = await deps.projects.findOrCreateIn(trx, userId, project.name);
      if (found.created) tally.projects += 1;
      projectIds.set(project.ref, found.id);
    },
    async item(item: PlannedItem): Promise<void> {
      batch.push(item);
      if (batch.length >= ITEMS_PER_BATCH) await flush();
    },
    async finish(): Promise<Tally> {
      await flush();
      return tally;
    },
  };
}

function resultOf(tally: Tally, filters?: { planned: number; created: number }): ImportResult {
  const imported = {
    projects: tally.projects,
    items: tally.items,
    tags: tally.newTags.size,
    ...(filters && filters.planned > 0 ? { filters: filters.created } : {}),
  };
  return { imported, skipped: tally.skipped.sort((a, b) => a.line_or_index - b.line_or_index) };
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
  const tagKeysOf = async (userId: string) => new Set((await deps.tags.list(userId)).map((t) => tagKey(t.name)));
  return {
    async apply(userId, plan) {
      const tagsBefore = await tagKeysOf(userId);
      const created = new Set<string>();
      let filtersCreated = 0;
      const tally = await db.transaction().execute(async (trx) => {
        const writer = createWriter(deps, trx, userId, tagsBefore, (item) => created.add(item.id));
        for (const project of plan.projects) await writer.project(project);
        for (const item of plan.items) await writer.item(item);
        const written = await writer.finish();
        // Completions come with the items they belong to; an item skipped as existing keeps its own.
        await deps.recurrence.recordCompletions(
          trx,
          userId,
          (plan.completions ?? []).filter((c) => created.has(c.item_id)),
        );
        if (plan.filters) filtersCreated = await deps.importFilters(trx, userId, plan.filters);
        // Imported items keep their (older) created_at: put the user's search keys back in order.
        await deps.search.restoreOrder(trx, userId);
        return written;
      });
      return resultOf(tally, { planned: plan.filters?.length ?? 0, created: filtersCreated });
    },

    async applySteps(userId, steps) {
      const tagsBefore = await tagKeysOf(userId);
      const tally = await db.transaction().execute(async (trx) => {
        const writer = createWriter(deps, trx, userId, tagsBefore);
        for await (const step of steps) {
          if ('project' in step) await writer.project(step.project);
          else await writer.item(step.item);
        }
        const written = await writer.finish();
        await deps.search.restoreOrder(trx, userId);
        return written;
      });
      return resultOf(tally);
    },
  };
}
