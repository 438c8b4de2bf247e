import { clampLimit, cutPage, decodeCursor } from '../../lib/cursor.js';
import { parseTimestamp } from '../../lib/timestamps.js';
import type { Db } from '../../db/schema.js';
import type { ImportedItems } from './imported-items.js';
import type { ItemLoader } from './item-loader.js';
import type { ProjectCheck } from './item-ports.js';
import { taggedItemView, type ItemView } from './item-view.js';
import type { ItemPageQuery } from './items.repository.js';
import type { ItemEdits } from './single-item-edits.js';

export interface Page<T> {
  items: T[];
  next_cursor: string | null;
}

export interface ListQuery {
  since?: string;
  limit?: number;
  cursor?: string;
}

/** Every operation the API and the web app offer on items once they exist (new ones come from capture/). */
export interface ItemsService extends ItemEdits {
  get(userId: string, id: string): Promise<ItemView>;
  list(userId: string, query: ListQuery): Promise<Page<ItemView>>;
  children(userId: string, id: string, query: ListQuery): Promise<Page<ItemView>>;
  inProject(userId: string, projectId: string, query: ListQuery): Promise<Page<ItemView>>;
  /** Open items due before `dueBefore` (and from `dueFrom`), soonest first: the web's Today and Upcoming. */
  agenda(userId: string, query: { dueFrom?: string; dueBefore: string; limit?: number }): Promise<ItemView[]>;
  /** Completed, unarchived items last changed at or after `since`, latest first. */
  doneSince(userId: string, since: string, limit?: number): Promise<ItemView[]>;
  /** Open top-level items, newest first, in one project or all. */
  open(userId: string, query: { projectId?: string; limit?: number; cursor?: string }): Promise<Page<ItemView>>;
  /** The unarchived subtasks of these items, each list in the order they were added. */
  childrenOf(userId: string, parentIds: readonly string[]): Promise<Map<string, ItemView[]>>;
  /** The items' side of an import, in the import's transaction. */
  imports: ImportedItems;
}

export function createItemsService(deps: {
  db: Db;
  loader: ItemLoader;
  projects: ProjectCheck;
  /** The single-item changes, built first: the organizer's "organize a stored item" saves through them too. */
  edits: ItemEdits;
  imports: ImportedItems;
}): ItemsService {
  const { db, loader } = deps;

  async function page(userId: string, q: Omit<ItemPageQuery, 'after'>, cursor: string | undefined): Promise<Page<ItemView>> {
    const ordering = [q.order, q.projectId ?? '', q.parentId ?? ''].join(':');
    const after = cursor === undefined ? undefined : decodeCursor(ordering, cursor);
    const rows = await loader.page(db, userId, { ...q, ...(after ? { after } : {}) });
    const page = cutPage(rows, q.limit, ordering, (row) => (q.order === 'created' ? row.created_at : row.updated_at));
    return { items: page.rows.map(taggedItemView), next_cursor: page.next_cursor };
  }

  return {
    ...deps.edits,
    imports: deps.imports,

    async get(userId, id) {
      return loader.requireView(db, userId, id);
    },

    async list(userId, query) {
      const since = query.since === undefined ? undefined : parseTimestamp(query.since, 'since');
      const order = since === undefined ? 'created' : 'updated';
      return page(userId, { order, ...(since ? { since } : {}), limit: clampLimit(query.limit, 50, 200) }, query.cursor);
    },

    async children(userId, id, query) {
      const parent = await loader.requireRow(db, userId, id);
      return page(userId, { order: 'created', parentId: parent.id, limit: clampLimit(query.limit, 200, 1000) }, query.cursor);
    },

    async agenda(userId, query) {
      const dueBefore = parseTimestamp(query.dueBefore, 'due_before');
      const dueFrom = query.dueFrom === undefined ? undefined : parseTimestamp(query.dueFrom, 'due_after');
      const rows = await loader.agenda(db, userId, { dueBefore, ...(dueFrom ? { dueFrom } : {}), limit: clampLimit(query.limit, 200, 500) });
      return rows.map(taggedItemView);
    },

    async doneSince(userId, since, limit) {
      const rows = await loader.doneSince(db, userId, parseTimestamp(since, 'since'), clampLimit(limit, 100, 500));
      return rows.map(taggedItemView);
    },

    async open(userId, query) {
      const projectId = query.projectId === undefined ? undefined : (await deps.projects.requireProject(db, userId, query.projectId)).id;
      const ordering = `open:${projectId ?? ''}`;
      const after = query.cursor === undefined ? undefined : decodeCursor(ordering, query.cursor);
      const limit = clampLimit(query.limit, 50, 200);
      const rows = await loader.open(db, userId, { ...(projectId ? { projectId } : {}), topLevel: true, limit, ...(after ? { after } : {}) });
      const cut = cutPage(rows, limit, ordering, (row) => row.created_at);
      return { items: cut.rows.map(taggedItemView), next_cursor: cut.next_cursor };
    },

    async childrenOf(userId, parentIds) {
      const rows = await loader.childrenOf(db, userId, parentIds);
      const byParent = new Map<string, ItemView[]>();
      for (const row of rows) {
        const list = byParent.get(row.parent_id!) ?? [];
        list.push(taggedItemView(row));
        byParent.set(row.parent_id!, list);
      }
      return byParent;
    },

    async inProject(userId, projectId, query) {
      const project = await deps.projects.requireProject(db, userId, projectId);
      return page(userId, { order: 'created', projectId: project.id, limit: clampLimit(query.limit, 200, 1000) }, query.cursor);
    },
  };
}
