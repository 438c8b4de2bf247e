import { preparedQuery } from '../../db/prepared-query.js';
import type { Executor } from '../../db/schema.js';

export interface TagRow {
  id: string;
  name: string;
  name_key: string;
}

export async function findTagsByKeys(db: Executor, userId: string, keys: readonly string[]): Promise<TagRow[]> {
  if (keys.length === 0) return [];
  return db.selectFrom('tags').select(['id', 'name', 'name_key']).where('user_id', '=', userId).where('name_key', 'in', keys).execute();
}

/** Concurrent writers may create the same tag; the unique key keeps the first spelling. */
export async function insertTagsIgnoringExisting(
  db: Executor,
  rows: { id: string; user_id: string; name: string; name_key: string; created_at: string }[],
): Promise<void> {
  if (rows.length === 0) return;
  await db
    .insertInto('tags')
    .values(rows)
    .onConflict((oc) => oc.columns(['user_id', 'name_key']).doNothing())
    .execute();
}

/** Compiled once per number of items: every page of items asks for its tags. */
const tagNamesForItems = preparedQuery((db, p: { userId: string; itemIds: readonly string[] }) =>
  db
    .selectFrom('item_tags')
    .innerJoin('tags', (join) => join.onRef('tags.user_id', '=', 'item_tags.user_id').onRef('tags.id', '=', 'item_tags.tag_id'))
    .select(['item_tags.item_id', 'tags.name'])
    .where('item_tags.user_id', '=', p.userId)
    .where('item_tags.item_id', 'in', p.itemIds),
);

export async function findTagNamesForItems(db: Executor, userId: string, itemIds: readonly string[]): Promise<{ item_id: string; name: string }[]> {
  if (itemIds.length === 0) return [];
  return tagNamesForItems(db, { userId, itemIds });
}

export async function replaceItemTags(db: Executor, userId: string, itemId: string, tagIds: readonly string[]): Promise<void> {
  await db.deleteFrom('item_tags').where('user_id', '=', userId).where('item_id', '=', itemId).execute();
  if (tagIds.length === 0) return;
  await db
    .insertInto('item_tags')
    .values(tagIds.map((tagId) => ({ user_id: userId, item_id: itemId, tag_id: tagId })))
    .execute();
}

/** Links of items that have none yet (tagNewItems): no delete first. */
export async function insertItemTagLinks(db: Executor, links: readonly { user_id: string; item_id: string; tag_id: string }[]): Promise<void> {
  if (links.length === 0) return;
  await db.insertInto('item_tags').values(links).execute();
}

export async function listTagsWithCounts(db: Executor, userId: string): Promise<{ name: string; item_count: number }[]> {
  const rows = await db
    .selectFrom('tags')
    .leftJoin('item_tags', (join) => join.onRef('item_tags.user_id', '=', 'tags.user_id').onRef('item_tags.tag_id', '=', 'tags.id'))
    .select((eb) => ['tags.name', eb.fn.count<number | string>('item_tags.item_id').as('item_count')])
    .where('tags.user_id', '=', userId)
    .groupBy(['tags.id', 'tags.name'])
    .execute();
  return rows.map((r) => ({ name: r.name, item_count: Number(r.item_count) }));
}
