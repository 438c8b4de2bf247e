import { sql } from 'kysely';
import { preparedQuery } from '../../db/prepared-query.js';
import type { DialectName } from '../../db/create-db.js';
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

/**
 * The user's tags with their counts, kept on each tag's row by triggers on item_tags (migration
 * 2026-11-30-1400, decision 0113): counting the links at read time cost every web page 20–60 ms at
 * 100,000 items on PostgreSQL. Call foldTagCountDeltas first there (tags.service).
 */
export async function listTagsWithCounts(db: Executor, userId: string): Promise<{ name: string; item_count: number }[]> {
  return db.selectFrom('tags').select(['name', 'item_count']).where('user_id', '=', userId).execute();
}

/** Whether PostgreSQL's triggers left tag count changes for this user that no read has folded yet. */
export async function hasTagCountDeltas(db: Executor, dialect: DialectName, userId: string): Promise<boolean> {
  // SQLite's triggers keep the tag's row itself current: nothing is ever pending, so no query.
  if (dialect === 'sqlite') return false;
  const row = await db.selectFrom('tag_count_deltas').select('user_id').where('user_id', '=', userId).limit(1).executeTakeFirst();
  return row !== undefined;
}

/**
 * Moves the user's pending tag count changes into their tags' rows, inside the caller's
 * transaction, as projects.repository's foldCountDeltas does for projects: DELETE … RETURNING takes
 * exactly the rows it removes, and tags are updated in id order so two folds never wait in a cycle.
 */
export async function foldTagCountDeltas(trx: Executor, userId: string): Promise<void> {
  const taken = await trx.deleteFrom('tag_count_deltas').where('user_id', '=', userId).returning(['tag_id', 'item_delta']).execute();
  const sums = new Map<string, number>();
  for (const d of taken) sums.set(d.tag_id, (sums.get(d.tag_id) ?? 0) + Number(d.item_delta));
  for (const tagId of [...sums.keys()].sort()) {
    const delta = sums.get(tagId)!;
    if (delta !== 0) await sql`update tags set item_count = item_count + ${delta} where user_id = ${userId} and id = ${tagId}`.execute(trx);
  }
}
