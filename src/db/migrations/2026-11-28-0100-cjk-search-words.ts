import { SqliteAdapter, sql, type Kysely } from 'kysely';
import { SLOT_SHIFT } from './2026-11-24-0001-search-key-counter.js';

/*
 * Search finds Chinese and Japanese words inside a run of text ("準備" in "会議の準備"). The
 * tokenizers of both databases end a word only at a character that is not a letter or digit, so a
 * whole run was one word. items.search_text holds title and content_md with spaces at ICU's word
 * breaks (src/modules/search/word-breaks.ts), written by the application with every new item and
 * every change of title or content_md; it is null for text without such scripts, so Latin items
 * cost nothing more. The index reads search_text when it still matches the row's text once spaces
 * are ignored (it only adds spaces), and title and content_md otherwise: a write that changes the
 * text without it (an old binary, a hand-written UPDATE) is indexed as written, never stale.
 *
 * Existing items get search_text here (the segmenter runs in this process), and their index
 * entries are rewritten: SQLite rewrites their FTS rows and the triggers read search_text from now
 * on; PostgreSQL recomputes the generated search_vector with the new expression. The word
 * breaking below is a copy of word-breaks.ts as it was when this migration was written, on
 * purpose: a migration must do the same thing whenever it runs, whatever later becomes of the code.
 */
// A migration is written against the tables as they were when it ran, not today's schema type (src/db/schema.ts).
type AnyDb = Kysely<any>;

const isSqlite = (db: AnyDb): boolean => db.getExecutor().adapter instanceof SqliteAdapter;

/** Whether row `r`'s search_text is its text with spaces added (SQL, both dialects); `r` '' for the row itself. */
const textValid = (r: string) =>
  `(${r}search_text is not null and replace(${r}search_text, ' ', '') = replace(coalesce(${r}title, '') || ' ' || coalesce(${r}content_md, ''), ' ', ''))`;

/** SQLite: the FTS columns of row `r`. With search_text, all of it in the title column. */
const ftsTitle = (r: string) => `case when ${textValid(r)} then ${r}search_text else ${r}title end`;
const ftsContent = (r: string) => `case when ${textValid(r)} then null else ${r}content_md end`;

const PUNCTUATION = `'[\\x01-\\x2f\\x3a-\\x40\\x5b-\\x60\\x7b-\\x7f]+'`;

/** PostgreSQL: the search migration's vector, of search_text when it is valid. */
const VECTOR_WITH_WORDS = `to_tsvector('simple'::regconfig, regexp_replace(
    case when ${textValid('')} then search_text else coalesce(title, '') || ' ' || coalesce(content_md, '') end,
    ${PUNCTUATION}, ' ', 'g'))`;
const VECTOR_BEFORE = `to_tsvector('simple'::regconfig, regexp_replace(coalesce(title, '') || ' ' || coalesce(content_md, ''), ${PUNCTUATION}, ' ', 'g'))`;

const BATCH = 500;

/*
 * Frozen copy of src/modules/search/word-breaks.ts at the time of this migration: which scripts
 * are broken into words and how search_text is written.
 */
/** A character of a script whose words ICU finds by dictionary. */
const UNSPACED = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Thai}\p{Script=Lao}\p{Script=Khmer}\p{Script=Myanmar}]/u;
const STARTS_WORD = /^[\p{L}\p{M}\p{Nd}]/u;
const ENDS_WORD = /[\p{L}\p{M}\p{Nd}]$/u;

/**
 * Characters of one text that are divided into words; the rest keeps whole runs (found by their
 * start). ICU's iterator costs one to a few microseconds per character, so a 100,000-character
 * note would hold a request for a tenth of a second or more.
 */
const MAX_SEGMENTED = 20_000;

/**
 * The iterator runs over pieces of about this many UTF-16 units: over a whole long text its cost
 * grew faster than the text (20,000 characters took ten times as long as 5,000), while a piece
 * costs in proportion to its length. Pieces end after a character that is not a letter or digit
 * when there is one in their second half, so a word is rarely cut.
 */
const PIECE = 512;
const NOT_WORD = /[^\p{L}\p{M}\p{Nd}]/u;

const isHighSurrogate = (code: number): boolean => code >= 0xd800 && code <= 0xdbff;

/** Where the piece from `start` ends: after a separator in its second half, never inside a surrogate pair. */
function pieceEnd(text: string, start: number, limit: number): number {
  const end = Math.min(start + PIECE, limit);
  if (end >= limit) return limit;
  for (let i = end; i > start + PIECE / 2; i -= 1) {
    const code = text.charCodeAt(i - 1);
    if (!isHighSurrogate(code) && NOT_WORD.test(text[i - 1]!)) return i;
  }
  return isHighSurrogate(text.charCodeAt(end - 1)) ? end - 1 : end;
}

const segmenter = new Intl.Segmenter('und', { granularity: 'word' });

/** One piece with a space at each of ICU's breaks between two letters or digits next to an unspaced character. */
function spacePiece(piece: string): string {
  if (!UNSPACED.test(piece)) return piece;
  let out = '';
  let previous = '';
  for (const { segment } of segmenter.segment(piece)) {
    if (ENDS_WORD.test(previous) && STARTS_WORD.test(segment) && (UNSPACED.test(previous) || UNSPACED.test(segment))) out += ' ';
    out += segment;
    previous = segment;
  }
  return out;
}

/**
 * The text with a space at each word break that ICU finds between two letters or digits next to a
 * character of an unspaced script ("会議のmemo準備" → "会議 の memo 準備"); nothing else changes, so
 * spaced text minus its added spaces is the text.
 */
function spaceWords(text: string): string {
  if (!UNSPACED.test(text)) return text;
  const limit = Math.min(text.length, MAX_SEGMENTED);
  let out = '';
  for (let start = 0; start < limit;) {
    const end = pieceEnd(text, start, limit);
    out += spacePiece(text.slice(start, end));
    start = end;
  }
  return out + text.slice(limit);
}

/**
 * What the search index reads instead of title and content_md: both, joined by a space, with word
 * breaks as spaces. Null when neither holds an unspaced script, so Latin text costs a regex test
 * and no segmenter. It differs from title + ' ' + content_md only by the spaces it adds, which lets
 * the index check that it still belongs to the row (a write that changed the text without it is
 * indexed as written).
 */
function searchText(title: string | null, content: string | null): string | null {
  const t = title ?? '';
  const c = content ?? '';
  if (!UNSPACED.test(t) && !UNSPACED.test(c)) return null;
  return `${spaceWords(t)} ${spaceWords(c)}`;
}

/** Fills search_text for every item whose text holds an unspaced script; answers the ids written. */
async function fillSearchText(db: AnyDb): Promise<string[]> {
  const written: string[] = [];
  let after = '';
  for (;;) {
    const rows = await sql<{ id: string; title: string | null; content_md: string | null }>`
      select id, title, content_md from items where id > ${after} order by id limit ${BATCH}`.execute(db);
    for (const row of rows.rows) {
      const text = searchText(row.title, row.content_md);
      if (text === null) continue;
      await sql`update items set search_text = ${text} where id = ${row.id}`.execute(db);
      written.push(row.id);
    }
    if (rows.rows.length < BATCH) return written;
    after = rows.rows[rows.rows.length - 1]!.id;
  }
}

/** The search-key-counter migration's next key, frozen: a new item without a key gets the next of its user. */
const rangeStart = (userId: string) => `((select search_slot from users where id = ${userId}) << ${SLOT_SHIFT})`;
const nextKeySql = (userId: string) =>
  `(coalesce((select max(search_key) from items where search_key > ${rangeStart(userId)} and search_key < ${rangeStart(userId)} + (1 << ${SLOT_SHIFT})), ${rangeStart(userId)}) + 1)`;

/** The search-key-counter migration's triggers, with the FTS text given by `title` and `content` of `new`. */
async function createSqliteTriggers(db: AnyDb, withWords: boolean): Promise<void> {
  for (const trigger of ['items_search_insert', 'items_search_update']) await sql.raw(`drop trigger if exists ${trigger}`).execute(db);
  const title = withWords ? ftsTitle('new.') : 'new.title';
  const content = withWords ? ftsContent('new.') : 'new.content_md';
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
        select 'i', search_key, ${title}, ${content} from items where rowid = new.rowid;
    end`,
    )
    .execute(db);
  await sql
    .raw(
      `
    create trigger items_search_update after update of title, content_md${withWords ? ', search_text' : ''} on items begin
      insert into items_fts_pending (op, search_key) values ('d', old.search_key);
      insert into items_fts_pending (op, search_key, title, content_md) values ('i', new.search_key, ${title}, ${content});
    end`,
    )
    .execute(db);
}

/** Rewrites the FTS rows of these items from what the index now reads. */
async function reindexSqlite(db: AnyDb, ids: readonly string[], withWords: boolean): Promise<void> {
  const title = sql.raw(withWords ? ftsTitle('') : 'title');
  const content = sql.raw(withWords ? ftsContent('') : 'content_md');
  for (const id of ids) {
    await sql`delete from items_fts where rowid = (select search_key from items where id = ${id})`.execute(db);
    await sql`insert into items_fts (rowid, title, content_md) select search_key, ${title}, ${content} from items where id = ${id}`.execute(db);
  }
}

async function setVector(db: AnyDb, expression: string): Promise<void> {
  await sql`drop index items_search_idx`.execute(db);
  await sql`alter table items drop column search_vector`.execute(db);
  await sql.raw(`alter table items add column search_vector tsvector generated always as (${expression}) stored`).execute(db);
  await sql`create index items_search_idx on items using gin (search_vector)`.execute(db);
}

export async function up(db: AnyDb): Promise<void> {
  await sql`alter table items add column search_text text`.execute(db);
  const ids = await fillSearchText(db);
  if (isSqlite(db)) {
    await createSqliteTriggers(db, true);
    await reindexSqlite(db, ids, true);
  } else {
    await setVector(db, VECTOR_WITH_WORDS);
  }
}

export async function down(db: AnyDb): Promise<void> {
  if (isSqlite(db)) {
    await createSqliteTriggers(db, false);
    const rows = await sql<{ id: string }>`select id from items where search_text is not null`.execute(db);
    await sql`update items set search_text = null`.execute(db);
    await reindexSqlite(
      db,
      rows.rows.map((r) => r.id),
      false,
    );
  } else {
    await setVector(db, VECTOR_BEFORE);
  }
  await sql`alter table items drop column search_text`.execute(db);
}
