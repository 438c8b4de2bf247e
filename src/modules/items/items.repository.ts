import { sql, type Updateable } from 'kysely';
import type { DialectName } from '../../db/create-db.js';
import { afterKeyset } from '../../db/keyset.js';
import { preparedQuery, type PreparedParams } from '../../db/prepared-query.js';
import type { Executor, ItemsTable } from '../../db/schema.js';
import type { CursorKey } from '../../lib/cursor.js';
import { ITEM_COLUMNS, ITEM_VIEW_COLUMNS, parseTagNames, tagNamesJson, type ItemRow, type TaggedViewRow } from './item-view.js';

/** Recurrence and reminder columns may be left out (they default to null), as rows written before them do; all_day defaults to false. */
export type NewItemRow = Omit<ItemRow, 'is_completed' | 'all_day' | 'recurrence_rule' | 'recurrence_from' | 'remind_at' | 'attachments_json'> & {
  is_completed: number;
  all_day?: number;
} & Partial<Pick<ItemRow, 'recurrence_rule' | 'recurrence_from' | 'remind_at'>> & { search_text?: string | null };
export type ItemPatch = Omit<Updateable<ItemsTable>, 'id' | 'user_id' | 'created_at'>;

export async function insertItem(db: Executor, row: NewItemRow): Promise<void> {
  await db.insertInto('items').values(row).execute();
}

/** Compiled once: GET /items/{id} and every change of one item start here. */
const itemById = preparedQuery((db, p: { userId: string; id: string }) =>
  db.selectFrom('items').select(ITEM_COLUMNS).where('user_id', '=', p.userId).where('id', '=', p.id),
);

/** A row read for a change, with the item's tag names: a change that leaves tags alone answers without asking for them again. */
export type ItemRowWithTags = ItemRow & { tags: string[] };

/**
 * The item with its tag names (a JSON array, in no order) in one query: GET /items/{id} is the
 * busiest single-item read, and a second round trip for the tags was a third of its database time.
 */
const itemWithTagsById = preparedQuery((db, p: { userId: string; id: string }, dialect) =>
  db
    .selectFrom('items')
    .select([...ITEM_COLUMNS, tagNamesJson(dialect).as('tag_names')])
    .where('user_id', '=', p.userId)
    .where('id', '=', p.id),
);

export async function findItemWithTagsById(
  db: Executor,
  dialect: DialectName,
  userId: string,
  id: string,
): Promise<{ row: ItemRow; tags: string[] } | undefined> {
  const [found] = await itemWithTagsById(db, { userId, id }, dialect);
  if (!found) return undefined;
  const { tag_names, ...row } = found;
  return { row, tags: parseTagNames(tag_names) };
}

export async function findItemById(db: Executor, userId: string, id: string): Promise<ItemRow | undefined> {
  const [row] = await itemById(db, { userId, id });
  return row;
}

export async function findItemsByIds(db: Executor, userId: string, ids: readonly string[]): Promise<ItemRow[]> {
  if (ids.length === 0) return [];
  return db.selectFrom('items').select(ITEM_COLUMNS).where('user_id', '=', userId).where('id', 'in', ids).execute();
}

/**
 * The user's rows among `ids`, locked until the transaction ends, in id order. PostgreSQL runs write
 * transactions side by side: a change must hold the rows it read before it decides their new state,
 * and taking the locks in one order keeps two overlapping changes from deadlocking. SQLite runs one
 * writer at a time (BEGIN IMMEDIATE), so a plain read is already stable there.
 */
export async function lockItemsByIds(db: Executor, dialect: DialectName, userId: string, ids: readonly string[]): Promise<ItemRowWithTags[]> {
  if (ids.length === 0) return [];
  const rows = await itemsLocked(db, { userId, ids }, dialect);
  return rows.map(({ tag_names, ...row }) => ({ ...row, tags: parseTagNames(tag_names) }));
}

// FOR UPDATE locks the items rows only; the tag subquery reads under the same lock (tags of an item
// change only in a change that holds it).
const itemsLocked = preparedQuery((db, p: { userId: string; ids: readonly string[] }, dialect) => {
  const query = db
    .selectFrom('items')
    .select([...ITEM_COLUMNS, tagNamesJson(dialect).as('tag_names')])
    .where('user_id', '=', p.userId)
    .where('id', 'in', p.ids);
  return dialect === 'postgres' ? query.orderBy('id').forUpdate() : query;
});

/** SQLite's synchronous units (item-store.sqlite.ts): the locked read of one item, compiled with its values. */
export const lockedItemQuery = (db: Executor, userId: string, id: string) => itemsLocked.compile(db, { userId, ids: [id] }, 'sqlite');

export async function findItemByClientId(db: Executor, userId: string, clientId: string): Promise<ItemRow | undefined> {
  return db.selectFrom('items').select(ITEM_COLUMNS).where('user_id', '=', userId).where('client_id', '=', clientId).executeTakeFirst();
}

export interface ItemPageQuery {
  /** `created`: newest created_at first. `updated`: oldest updated_at first (the sync feed). */
  order: 'created' | 'updated';
  since?: string;
  projectId?: string;
  parentId?: string;
  after?: CursorKey;
  limit: number;
}

interface PageParams extends PreparedParams {
  userId: string;
  projectId: string | undefined;
  parentId: string | undefined;
  since: string | undefined;
  afterKey: string | undefined;
  afterId: string | undefined;
  take: number;
}

/** Compiled once per filter combination, order and dialect: list pages are the most frequent request. */
const itemPage = preparedQuery((db, p: PageParams, shape) => {
  const [order, dialect] = shape.split(':') as [ItemPageQuery['order'], DialectName];
  const key = order === 'created' ? 'created_at' : 'updated_at';
  const dir = order === 'created' ? 'desc' : 'asc';
  let query = db
    .selectFrom('items')
    .select([...ITEM_VIEW_COLUMNS, tagNamesJson(dialect).as('tag_names')])
    .where('user_id', '=', p.userId);
  if (p.projectId !== undefined) query = query.where('project_id', '=', p.projectId);
  if (p.parentId !== undefined) query = query.where('parent_id', '=', p.parentId);
  if (p.since !== undefined) query = query.where('updated_at', '>=', p.since);
  const { afterKey: k, afterId: id } = p;
  if (k !== undefined && id !== undefined) query = query.where((eb) => afterKeyset(eb, key, 'id', dir, k, id));
  return query.orderBy(key, dir).orderBy('id', dir).limit(p.take);
});

/** One page plus one row, so the caller knows whether another page exists; each row with its tag names. */
export async function findItemPage(db: Executor, dialect: DialectName, userId: string, q: ItemPageQuery): Promise<TaggedViewRow[]> {
  const params: PageParams = {
    userId,
    projectId: q.projectId || undefined,
    parentId: q.parentId || undefined,
    since: q.since || undefined,
    afterKey: q.after?.k,
    afterId: q.after?.id,
    take: q.limit + 1,
  };
  return itemPage(db, params, `${q.order}:${dialect}`);
}

/**
 * One patch for many items (callers group the items whose change is the same); answers the rows as
 * they now are, so a change needs no second read. Ids that are not the user's (or are gone) are left out.
 */
export async function updateItems(db: Executor, userId: string, ids: readonly string[], patch: ItemPatch): Promise<ItemRow[]> {
  if (ids.length === 0) return [];
  return itemsUpdated(db, { ...patch, userId, ids });
}

/** A patch as prepared-query parameters: each changed column one value (the columns given are the shape). */
export type PatchParams = { [K in keyof ItemPatch]?: Exclude<ItemPatch[K], undefined> & (string | number | null) };

/** The columns a patch sets: those it gives a value, null included. */
export const patchSet = (patch: PatchParams): ItemPatch => Object.fromEntries(Object.entries(patch).filter(([, value]) => value !== undefined));

/** Compiled once per set of changed columns (the columns given are the shape). */
const itemsUpdated = preparedQuery((db, p: PatchParams & { userId: string; ids: readonly string[] }) => {
  const { userId, ids, ...patch } = p;
  return db.updateTable('items').set(patchSet(patch)).where('user_id', '=', userId).where('id', 'in', ids).returning(ITEM_COLUMNS);
});

/** `updateItems` of one item compiled with its values (item-store.sqlite.ts). */
export const updatedItemQuery = (db: Executor, userId: string, id: string, patch: PatchParams) => itemsUpdated.compile(db, { ...patch, userId, ids: [id] });

export async function findItemIdsInProject(db: Executor, userId: string, projectId: string): Promise<string[]> {
  const rows = await db.selectFrom('items').select('id').where('user_id', '=', userId).where('project_id', '=', projectId).execute();
  return rows.map((r) => r.id);
}

export async function moveItemsToProject(db: Executor, userId: string, ids: readonly string[], projectId: string, now: string): Promise<void> {
  if (ids.length === 0) return;
  await db.updateTable('items').set({ project_id: projectId, updated_at: now }).where('user_id', '=', userId).where('id', 'in', ids).execute();
}

/**
 * Each root with itself and all its subtasks at any depth, as (root, id) pairs: an item below two
 * listed roots appears under both. UNION (not ALL) stops on a cycle, should one exist.
 */
export async function findSubtrees(db: Executor, userId: string, rootIds: readonly string[]): Promise<Array<{ root: string; id: string }>> {
  if (rootIds.length === 0) return [];
  const { rows } = await sql<{ root: string; id: string }>`
    with recursive subtree(root, id) as (
      select id, id from items where user_id = ${userId} and id in (${sql.join(rootIds)})
      union
      select subtree.root, items.id from items join subtree on items.parent_id = subtree.id
      where items.user_id = ${userId}
    )
    select root, id from subtree`.execute(db);
  return rows;
}

/** Ids from the item up to its root, itself included. */
export async function findAncestorIds(db: Executor, userId: string, itemId: string): Promise<string[]> {
  const { rows } = await sql<{ id: string }>`
    with recursive chain(id, parent_id) as (
      select id, parent_id from items where user_id = ${userId} and id = ${itemId}
      union
      select items.id, items.parent_id from items join chain on items.id = chain.parent_id
      where items.user_id = ${userId}
    )
    select id from chain`.execute(db);
  return rows.map((r) => r.id);
}

/** The user's all-day items that have a due date (a timezone change moves them to the same day in the new zone). */
export async function findAllDayItemIds(db: Executor, userId: string): Promise<string[]> {
  const rows = await db.selectFrom('items').select('id').where('user_id', '=', userId).where('all_day', '=', 1).where('due_at', 'is not', null).execute();
  return rows.map((r) => r.id);
}

export async function deleteItemsByIds(db: Executor, userId: string, ids: readonly string[]): Promise<void> {
  if (ids.length === 0) return;
  await db.deleteFrom('items').where('user_id', '=', userId).where('id', 'in', ids).execute();
}
