import { SqliteIntrospector, sql, type Kysely } from 'kysely';

/*
 * Full-text search and the indexes behind the search filters.
 *
 * A word is a run of letters, combining marks and decimal digits; everything else separates words
 * (SQLite's tokenizer also keeps private-use characters, for the owner token below). Matching is by
 * word prefix, case-insensitive, with diacritics significant ("caf" finds "café", "cafe" does not).
 * The search service extracts the words of `q` with the same rule.
 *
 * SQLite: an FTS5 index whose rowid is `items.search_key`, a key that orders like created_at:
 * (created_at in epoch milliseconds << 20) + a slot unique within that millisecond. Walking the index
 * by rowid descending therefore walks matches newest first, so a page stops after `limit` hits
 * instead of collecting and sorting every match. An `owner` column holds one token per user, so the
 * walk only visits the user's own documents; it starts with a private-use character (U+E000), which
 * no query word can contain, so no search term can match it. The table is contentless (the text
 * lives in `items` only) with contentless_delete, so triggers remove entries by rowid without
 * repeating old values. detail=full keeps positions: a query word the tokenizer splits in two
 * becomes a phrase, never an error. Prefix indexes for 1 to 16 characters let a prefix term read
 * one posting list lazily, newest first; without them FTS5 merges the postings of every word that
 * starts with the prefix, for all users, before returning the first row. Each length only costs
 * entries for words at least that long, so the index grows by about a third over lengths 1 to 4.
 *
 * PostgreSQL: a generated tsvector with the `simple` configuration (lowercase, no stemming, no stop
 * words) and a GIN index. ASCII punctuation is turned into spaces first, so the parser cannot glue
 * words into host names, e-mail addresses, paths or version numbers ("docs.python.org" is three
 * words, as in SQLite). Case folding of non-ASCII letters follows the database's LC_CTYPE, which must
 * be a UTF-8 locale (the default of initdb and of the official images).
 */
type AnyDb = Kysely<any>;

const isSqlite = (db: AnyDb): boolean => db.introspection instanceof SqliteIntrospector;

/** Epoch milliseconds of a stored timestamp (UTC ISO 8601 with milliseconds). */
const msOf = (column: string) => `cast(round(unixepoch(${column}, 'subsec') * 1000) as integer)`;

/** The next free search_key in the millisecond of `created_at`; keys of one millisecond follow insertion. */
export const nextMsKey = (createdAt: string) => `coalesce(
      (select max(search_key) + 1 from items
        where search_key >= (${msOf(createdAt)} << 20) and search_key < ((${msOf(createdAt)} + 1) << 20)),
      ${msOf(createdAt)} << 20)`;

/** The owner token of search-words.ts: U+E000, then the user id's hex digits. */
export const ownerToken = (userId: string) => `char(57344) || replace(${userId}, '-', '')`;

const PREFIXES = Array.from({ length: 16 }, (_, i) => i + 1).join(' ');

/** The FTS table's options after its columns (the search-key-ranges migration rebuilds it with them). */
export const FTS_TABLE_OPTIONS = `content='', contentless_delete=1, detail=full, prefix='${PREFIXES}',
      tokenize="unicode61 remove_diacritics 0 categories 'L* M* Nd Co'"`;

/** Keys for existing rows: slots within a millisecond follow (user_id, id), which is the result order. */
export async function assignMsKeys(db: AnyDb): Promise<void> {
  await sql
    .raw(
      `
    update items set search_key = numbered.k
    from (select rowid as r, (${msOf('created_at')} << 20) + row_number() over (partition by created_at order by user_id, id) - 1 as k
          from items) as numbered
    where items.rowid = numbered.r`,
    )
    .execute(db);
}

async function upSqlite(db: AnyDb): Promise<void> {
  await sql`alter table items add column search_key integer`.execute(db);
  await assignMsKeys(db);
  await sql`create unique index items_search_key_uq on items (search_key)`.execute(db);
  await sql
    .raw(
      `
    create virtual table items_fts using fts5(
      owner, title, content_md,
      ${FTS_TABLE_OPTIONS}
    )`,
    )
    .execute(db);
  await sql
    .raw(
      `
    insert into items_fts (rowid, owner, title, content_md)
    select search_key, ${ownerToken('user_id')}, title, content_md from items`,
    )
    .execute(db);

  // created_at and user_id never change, so neither does an item's key or owner token.
  await sql
    .raw(
      `
    create trigger items_search_insert after insert on items begin
      update items set search_key = ${nextMsKey('new.created_at')} where rowid = new.rowid;
      insert into items_fts (rowid, owner, title, content_md)
        select search_key, ${ownerToken('new.user_id')}, new.title, new.content_md from items where rowid = new.rowid;
    end`,
    )
    .execute(db);
  await sql
    .raw(
      `
    create trigger items_search_update after update of title, content_md on items begin
      delete from items_fts where rowid = old.search_key;
      insert into items_fts (rowid, owner, title, content_md)
        values (new.search_key, ${ownerToken('new.user_id')}, new.title, new.content_md);
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

async function upPostgres(db: AnyDb): Promise<void> {
  await sql`
    alter table items add column search_vector tsvector generated always as (
      to_tsvector('simple'::regconfig, regexp_replace(
        coalesce(title, '') || ' ' || coalesce(content_md, ''),
        '[\\x01-\\x2f\\x3a-\\x40\\x5b-\\x60\\x7b-\\x7f]+', ' ', 'g'))
    ) stored`.execute(db);
  await sql`create index items_search_idx on items using gin (search_vector)`.execute(db);
}

export async function up(db: AnyDb): Promise<void> {
  if (isSqlite(db)) await upSqlite(db);
  else await upPostgres(db);

  // Filters without q walk one of these newest first and stop after a page.
  const filterIndexes: Array<[string, string]> = [
    ['items_status_idx', 'status'],
    ['items_type_idx', 'type'],
    ['items_completed_idx', 'is_completed'],
  ];
  for (const [name, column] of filterIndexes) {
    await db.schema.createIndex(name).on('items').columns(['user_id', column, 'created_at', 'id']).execute();
  }
  await db.schema.createIndex('items_due_idx').on('items').columns(['user_id', 'due_at']).execute();
  // The tag filter reads item ids by tag; with item_id in the index it never touches the table.
  await db.schema.dropIndex('item_tags_tag_idx').execute();
  await db.schema.createIndex('item_tags_tag_item_idx').on('item_tags').columns(['user_id', 'tag_id', 'item_id']).execute();
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.dropIndex('item_tags_tag_item_idx').execute();
  await db.schema.createIndex('item_tags_tag_idx').on('item_tags').columns(['user_id', 'tag_id']).execute();
  for (const name of ['items_due_idx', 'items_completed_idx', 'items_type_idx', 'items_status_idx']) {
    await db.schema.dropIndex(name).execute();
  }
  if (isSqlite(db)) {
    for (const trigger of ['items_search_delete', 'items_search_update', 'items_search_insert']) {
      await sql`drop trigger ${sql.raw(trigger)}`.execute(db);
    }
    await sql`drop table items_fts`.execute(db);
    await sql`drop index items_search_key_uq`.execute(db);
    await sql`alter table items drop column search_key`.execute(db);
  } else {
    await sql`drop index items_search_idx`.execute(db);
    await sql`alter table items drop column search_vector`.execute(db);
  }
}
