import { sql, type Kysely } from 'kysely';
import { FTS_TABLE_OPTIONS } from './2026-11-22-0001-search.js';
import { createSecondKeyLayout, isSqlite } from './2026-11-23-0001-search-key-ranges.js';

/*
 * SQLite: number a user's items by a counter, not by their creation second, and index them for
 * search once per commit.
 *
 *   search_key = search_slot << 42 | n,   n = 1, 2, 3, … per user, in insertion order
 *
 * The key-ranges layout (slot << 42 | second << 10 | n) allowed 1,024 items per user per second and
 * made a capture past that wait for the next second. A counter has no such bound. A search walks
 * the user's key range newest first and relies on keys never going back in created_at: captures are
 * stamped inside their write transaction, which SQLite serializes, so new keys follow created_at
 * (items of one millisecond are put in id order by the search itself). An insert older than the
 * item before it (an import of older items, a clock set back) sets users.search_unordered, and
 * that user's searches sort every hit exactly until renumbering (renumberSearchKeys) puts the keys
 * back in order.
 *
 * The triggers no longer write the FTS index: they queue changes in items_fts_pending, and the
 * driver applies the queue just before each commit (src/db/sqlite/search-index-queue.ts). FTS5 writes
 * a segment whenever its pending terms are flushed, at a commit and at every savepoint; the group
 * commit runs each request in a savepoint of its own, so writing FTS from the triggers would still
 * write one segment per request. Applied at commit, one segment holds the whole batch.
 */
type AnyDb = Kysely<any>;

export const SLOT_SHIFT = 42;

/** The user's first key, in SQL. */
const rangeStart = (userId: string) => `((select search_slot from users where id = ${userId}) << ${SLOT_SHIFT})`;

/** The next key of the user (the counter), in SQL. */
const nextKeySql = (userId: string) =>
  `(coalesce((select max(search_key) from items where search_key > ${rangeStart(userId)} and search_key < ${rangeStart(userId)} + (1 << ${SLOT_SHIFT})), ${rangeStart(userId)}) + 1)`;

async function dropTriggers(db: AnyDb): Promise<void> {
  for (const trigger of ['items_search_key_full', 'items_search_insert', 'items_search_update', 'items_search_delete']) {
    await sql.raw(`drop trigger if exists ${trigger}`).execute(db);
  }
}

/** Keys 1, 2, 3… per user in (created_at, id) order; every item and FTS entry is rewritten. */
async function numberAllItems(db: AnyDb): Promise<void> {
  await sql`drop index items_search_key_uq`.execute(db);
  await sql
    .raw(
      `
    update items set search_key = numbered.k
    from (select items.rowid as r,
                 (users.search_slot << ${SLOT_SHIFT}) + row_number() over (partition by items.user_id order by items.created_at, items.id) as k
          from items join users on users.id = items.user_id) as numbered
    where items.rowid = numbered.r`,
    )
    .execute(db);
  await sql`create unique index items_search_key_uq on items (search_key)`.execute(db);
  await sql`drop table items_fts`.execute(db);
  await sql.raw(`create virtual table items_fts using fts5(title, content_md, ${FTS_TABLE_OPTIONS})`).execute(db);
  await sql`insert into items_fts (rowid, title, content_md) select search_key, title, content_md from items order by search_key`.execute(db);
}

export async function up(db: AnyDb): Promise<void> {
  if (!isSqlite(db)) return;
  await dropTriggers(db);
  await sql`alter table users add column search_unordered integer not null default 0`.execute(db);
  await numberAllItems(db);
  await sql`
    create table items_fts_pending (
      seq integer primary key,
      op text not null check (op in ('i', 'd')),
      search_key integer not null,
      title text,
      content_md text
    )`.execute(db);
  // An insert without a key gets the next one (a capture supplies it: one write instead of two).
  // When the item before it in key order is newer, the user's keys no longer follow created_at.
  await sql
    .raw(
      `
    create trigger items_search_insert after insert on items begin
      update items set search_key = ${nextKeySql('new.user_id')} where rowid = new.rowid and search_key is null;
      update users set search_unordered = 1
        where id = new.user_id and search_unordered = 0 and exists (
          select 1 from items as before_it
          where before_it.search_key = (
              select max(search_key) from items
              where search_key > ${rangeStart('new.user_id')} and search_key < (select search_key from items where rowid = new.rowid))
            and before_it.created_at > new.created_at);
      insert into items_fts_pending (op, search_key, title, content_md)
        select 'i', search_key, new.title, new.content_md from items where rowid = new.rowid;
    end`,
    )
    .execute(db);
  await sql`
    create trigger items_search_update after update of title, content_md on items begin
      insert into items_fts_pending (op, search_key) values ('d', old.search_key);
      insert into items_fts_pending (op, search_key, title, content_md) values ('i', new.search_key, new.title, new.content_md);
    end`.execute(db);
  await sql`
    create trigger items_search_delete after delete on items begin
      insert into items_fts_pending (op, search_key) values ('d', old.search_key);
    end`.execute(db);
}

export async function down(db: AnyDb): Promise<void> {
  if (!isSqlite(db)) return;
  await dropTriggers(db);
  await sql`drop table items_fts_pending`.execute(db);
  await sql`alter table users drop column search_unordered`.execute(db);
  await createSecondKeyLayout(db);
}
