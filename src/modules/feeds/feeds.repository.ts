import type { DialectName } from '../../db/create-db.js';
import type { Executor, FeedsTable } from '../../db/schema.js';

/* All SQL of the feeds module: its own table, and the one read of the user's zone a public feed needs. */

export type FeedRow = FeedsTable;

const COLUMNS = ['id', 'user_id', 'secret', 'project_id', 'filter_id', 'as_kind', 'created_at', 'updated_at'] as const;

export async function findFeeds(db: Executor, userId: string): Promise<FeedRow[]> {
  return db.selectFrom('feeds').select(COLUMNS).where('user_id', '=', userId).orderBy('created_at').orderBy('id').execute();
}

export async function findFeed(db: Executor, userId: string, id: string): Promise<FeedRow | undefined> {
  return db.selectFrom('feeds').select(COLUMNS).where('user_id', '=', userId).where('id', '=', id).executeTakeFirst();
}

/** A feed by its id alone: the public URL names the feed, its secret is then compared in constant time. */
export async function findFeedById(db: Executor, id: string): Promise<FeedRow | undefined> {
  return db.selectFrom('feeds').select(COLUMNS).where('id', '=', id).executeTakeFirst();
}

export async function countFeeds(db: Executor, userId: string): Promise<number> {
  const row = await db
    .selectFrom('feeds')
    .select((eb) => eb.fn.countAll<number | string | bigint>().as('n'))
    .where('user_id', '=', userId)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** Holds the user's row until the transaction ends, so two creates at once cannot both see 19 feeds (PostgreSQL; SQLite serializes writers). */
export async function lockUser(trx: Executor, dialect: DialectName, userId: string): Promise<void> {
  if (dialect === 'postgres') await trx.selectFrom('users').select('id').where('id', '=', userId).forUpdate().execute();
}

export async function insertFeed(db: Executor, row: FeedRow): Promise<void> {
  await db.insertInto('feeds').values(row).execute();
}

export async function updateFeedSecret(db: Executor, userId: string, id: string, secret: string, at: string): Promise<boolean> {
  const result = await db.updateTable('feeds').set({ secret, updated_at: at }).where('user_id', '=', userId).where('id', '=', id).executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

export async function deleteFeed(db: Executor, userId: string, id: string): Promise<boolean> {
  const result = await db.deleteFrom('feeds').where('user_id', '=', userId).where('id', '=', id).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

export async function findUserZone(db: Executor, userId: string): Promise<string | undefined> {
  const row = await db.selectFrom('users').select('timezone').where('id', '=', userId).executeTakeFirst();
  return row?.timezone;
}
