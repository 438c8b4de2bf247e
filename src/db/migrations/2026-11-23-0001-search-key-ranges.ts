import { SqliteIntrospector, sql, type Kysely } from 'kysely';
import { FTS_TABLE_OPTIONS, assignMsKeys, nextMsKey, ownerToken } from './2026-11-22-0001-search.js';

/*
 * SQLite: one range of FTS rowids per user, instead of an owner token in every document.
 *
 * The search migration restricted a search to the user's documents with an `owner` token AND-ed to
 * every query. That token's posting list holds every document of the user, so each query merged the
 * words against a list as long as the user's whole inbox: at 100k items a two-word search spent
 * most of its time there. Now the rowid itself says whose item it is:
 *
 *   search_key = search_slot << 42 | unix seconds of created_at << 10 | n
 *
 * where search_slot is a small number per user (users.search_slot, up to 2^21 - 1) and n counts the
 * user's items created within that second (up to 1023, far beyond what the rate limits allow). A
 * search hands FTS5 the user's rowid range, which it seeks to directly, and walks it newest first
 * as before; a page that ends inside a second shared with the next hit reads that second exactly.
 * On the bench database (100k items for the user, 300k in all) that halved the FTS work of two-word
 * searches.
 *
 * PostgreSQL searches through its GIN index and needs none of this.
 */
type AnyDb = Kysely<any>;

export const isSqlite = (db: AnyDb): boolean => db.introspection instanceof SqliteIntrospector;

export const SLOT_SHIFT = 42;
export const SECOND_SHIFT = 10;
export const MAX_SEARCH_SLOT = 2 ** 21 - 1;
export const PER_SECOND = 2 ** SECOND_SHIFT;
/** The message of the trigger that refuses an item when its second has no key left. */
export const SECOND_FULL_MESSAGE = `more than ${PER_SECOND} items of one user created within one second`;

/** The first key of a user's second, in SQL: `slot` and `createdAt` are SQL expressions. */
const secondBase = (slot: string, createdAt: string) => `((${slot}) << ${SLOT_SHIFT}) + (cast(unixepoch(${createdAt}) as integer) << ${SECOND_SHIFT})`;

const slotOf = (userId: string) => `(select search_slot from users where id = ${userId})`;

/** The next free key in the second of `createdAt` for the user; keys of one second follow insertion. */
const nextKey = (userId: string, createdAt: string) => {
  const base = secondBase(slotOf(userId), createdAt);
  return `coalesce((select max(search_key) + 1 from items where search_key >= ${base} and search_key < ${base} + ${PER_SECOND}), ${base})`;
};

async function dropSearchTriggers(db: AnyDb): Promise<void> {
  for (const trigger of ['items_search_insert', 'items_search_update', 'items_search_delete']) {
    await sql.raw(`drop trigger if exists ${trigger}`).execute(db);
  }
}

/** Triggers that keep the FTS table in step with items; `key` computes a new item's search_key. */
async function createSearchTriggers(db: AnyDb, key: string, ownerColumn: boolean): Promise<void> {
  const owner = (userId: string) => (ownerColumn ? `${ownerToken(userId)}, ` : '');
  const columns = ownerColumn ? 'owner, title, content_md' : 'title, content_md';
  await sql
    .raw(
      `
    create trigger items_search_insert after insert on items begin
      update items set search_key = ${key} where rowid = new.rowid;
      insert into items_fts (rowid, ${columns})
        select search_key, ${owner('new.user_id')}new.title, new.content_md from items where rowid = new.rowid;
    end`,
    )
    .execute(db);
  await sql
    .raw(
      `
    create trigger items_search_update after update of title, content_md on items begin
      delete from items_fts where rowid = old.search_key;
      insert into items_fts (rowid, ${columns}) values (new.search_key, ${owner('new.user_id')}new.title, new.content_md);
    end`,
    )
    .execute(db);
  await sql
    .raw(
      `
    create trigger items_search_delete after delete on items begin
      delete from items_fts where rowid = old.search_key;
    end`,
    )
    .execute(db);
}

/** Rebuilds items_fts (with or without the owner column) from items, whose keys are already set. */
async function rebuildFts(db: AnyDb, ownerColumn: boolean): Promise<void> {
  await sql`drop table items_fts`.execute(db);
  await sql.raw(`create virtual table items_fts using fts5(${ownerColumn ? 'owner, ' : ''}title, content_md, ${FTS_TABLE_OPTIONS})`).execute(db);
  await sql
    .raw(
      `
    insert into items_fts (rowid, ${ownerColumn ? 'owner, ' : ''}title, content_md)
    select search_key, ${ownerColumn ? `${ownerToken('user_id')}, ` : ''}title, content_md from items order by search_key`,
    )
    .execute(db);
}

export async function up(db: AnyDb): Promise<void> {
  if (!isSqlite(db)) return;
  await sql`alter table users add column search_slot integer`.execute(db);
  await sql`
    update users set search_slot = numbered.n
    from (select rowid as r, row_number() over (order by created_at, id) as n from users) as numbered
    where users.rowid = numbered.r`.execute(db);
  await sql`create unique index users_search_slot_uq on users (search_slot)`.execute(db);
  await sql
    .raw(
      `
    create trigger users_search_slot after insert on users begin
      select raise(abort, 'no search slot left for another user') where (select max(search_slot) from users) >= ${MAX_SEARCH_SLOT};
      update users set search_slot = coalesce((select max(search_slot) from users), 0) + 1 where rowid = new.rowid;
    end`,
    )
    .execute(db);

  await createSecondKeyLayout(db);
}

/** Keys by second for every item, the FTS table rebuilt under them, and the triggers of this layout. */
export async function createSecondKeyLayout(db: AnyDb): Promise<void> {
  // New keys for every item: the unique index would trip over old and new values mid-update.
  await dropSearchTriggers(db);
  await sql`drop index items_search_key_uq`.execute(db);
  await sql
    .raw(
      `
    update items set search_key = numbered.k
    from (select items.rowid as r,
                 ${secondBase('users.search_slot', 'items.created_at')}
                   + row_number() over (partition by items.user_id, cast(unixepoch(items.created_at) as integer)
                                        order by items.created_at, items.id) - 1 as k
          from items join users on users.id = items.user_id) as numbered
    where items.rowid = numbered.r`,
    )
    .execute(db);
  await sql`create unique index items_search_key_uq on items (search_key)`.execute(db);
  await rebuildFts(db, false);
  await createSearchTriggers(db, nextKey('new.user_id', 'new.created_at'), false);
  // A 1025th item of one user within one second would take the next second's first key.
  await sql
    .raw(
      `
    create trigger items_search_key_full before insert on items begin
      select raise(abort, '${SECOND_FULL_MESSAGE}')
      where ${nextKey('new.user_id', 'new.created_at')} >= ${secondBase(slotOf('new.user_id'), 'new.created_at')} + ${PER_SECOND};
    end`,
    )
    .execute(db);
}

export async function down(db: AnyDb): Promise<void> {
  if (!isSqlite(db)) return;
  await sql`drop trigger items_search_key_full`.execute(db);
  await dropSearchTriggers(db);
  await sql`drop index items_search_key_uq`.execute(db);
  await assignMsKeys(db);
  await sql`create unique index items_search_key_uq on items (search_key)`.execute(db);
  await rebuildFts(db, true);
  await createSearchTriggers(db, nextMsKey('new.created_at'), true);
  await sql`drop trigger users_search_slot`.execute(db);
  await sql`drop index users_search_slot_uq`.execute(db);
  await sql`alter table users drop column search_slot`.execute(db);
}
