import { Migrator, sql, type SqlBool } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Services } from '../../src/container.js';
import { migrateToLatest } from '../../src/db/migrate.js';
import { migrations } from '../../src/db/migrations/index.js';
import { insertItem } from '../../src/modules/items/items.repository.js';
import { ftsWordsCondition, renumberSearchKeys } from '../../src/modules/search/search-index.sqlite.js';
import { searchWords, tsQuery } from '../../src/modules/search/search-words.js';
import { DIALECTS } from '../helpers/dialects.js';
import { actor, capture, ok, type Actor } from '../helpers/items.js';
import { createTestDb, whileOthersDropSchemas, type TestDb } from '../helpers/test-db.js';
import { createTestApp, defaultServices, type JsonBody, type TestApp } from '../helpers/test-app.js';

/*
 * Chinese and Japanese are written without spaces: a run of text holds many words, which search
 * finds by ICU's dictionary word breaks. A word of q still has to match the start of a word, so a
 * run that starts inside a dictionary word is not found. Korean separates words with spaces.
 */

const TEXTS = [
  '会議の準備',
  '明日のミーティングの資料を準備する',
  '我们明天开会准备材料',
  '회의 준비를 하다',
  'Buy milk\n牛乳を買う',
  'Plain Latin preparation',
] as const;

describe.each(DIALECTS)('search in Chinese, Japanese and Korean text (%s)', (dialect) => {
  let t: TestApp;
  let a: Actor;
  let ids: string[];

  beforeAll(async () => {
    t = await createTestApp(dialect);
    a = await actor(t);
    ids = [];
    for (const text of TEXTS) {
      t.clock.advance(1000);
      ids.push((await capture(a.c, text)).id);
    }
  });
  afterAll(async () => t?.close());

  /** The TEXTS indexes q finds, newest first. */
  async function found(q: string): Promise<number[]> {
    const body = ok(await a.c.get(`items/search?q=${encodeURIComponent(q)}`));
    return body.items.map((item: JsonBody) => ids.indexOf(item.id));
  }

  it.each([
    ['準備', [1, 0]],
    ['会議', [0]],
    ['資料', [1]],
    ['ミーティング', [1]],
    ['ミーテ', [1]],
    ['会議の準備', [0]],
    ['会議の準', [0]],
    ['資料を準備', [1]],
    ['牛乳', [4]],
    ['買う milk', [4]],
  ])('Japanese: finds a word anywhere in a run, and a run as words in order: %s', async (q, expected) => {
    expect(await found(q)).toEqual(expected);
  });

  it.each([
    ['准备', [2]],
    ['开会', [2]],
    ['材料', [2]],
    ['明天开会', [2]],
  ])('Chinese: finds a word anywhere in a run: %s', async (q, expected) => {
    expect(await found(q)).toEqual(expected);
  });

  it.each([
    ['준비', [3]],
    ['하다', [3]],
    ['회의 준비', [3]],
  ])('Korean: finds a word by its start, as in spaced text: %s', async (q, expected) => {
    expect(await found(q)).toEqual(expected);
  });

  it.each([
    // 議 and 备 are the second characters of 会議 and 准备: no word starts there.
    ['議の準備', []],
    ['備', []],
    ['会准', []],
    ['비를', []],
    // The words must follow each other: 準備 then 会議 is not in 会議の準備.
    ['準備の会議', []],
  ])('does not match from inside a dictionary word: %s', async (q, expected) => {
    expect(await found(q)).toEqual(expected);
  });

  it('follows changes of title and notes', async () => {
    const b = await actor(t);
    const item = await capture(b.c, 'Groceries');
    const search = async (q: string) => ok(await b.c.get(`items/search?q=${encodeURIComponent(q)}`)).items.map((i: JsonBody) => i.id);
    expect(await search('準備')).toEqual([]);
    ok(await b.c.patch(`items/${item.id}`, { content_md: '週末の旅行の準備' }));
    expect(await search('旅行')).toEqual([item.id]);
    expect(await search('groceries 準備')).toEqual([item.id]);
    ok(await b.c.patch(`items/${item.id}`, { title: '出張の計画' }));
    expect(await search('計画')).toEqual([item.id]);
    expect(await search('旅行')).toEqual([item.id]);
    expect(await search('groceries')).toEqual([]);
    ok(await b.c.patch(`items/${item.id}`, { content_md: 'plain notes' }));
    expect(await search('旅行')).toEqual([]);
    expect(await search('計画 plain')).toEqual([item.id]);
  });

  it('indexes text written without search_text as written, never the words of the text before', async () => {
    const b = await actor(t);
    const item = await capture(b.c, '会議の準備');
    // A write that changes the text and leaves search_text behind (an older binary, a hand-written UPDATE).
    await sql`update items set title = ${'新しい計画'} where id = ${item.id}`.execute(t.db.handle.db);
    const search = async (q: string) => ok(await b.c.get(`items/search?q=${encodeURIComponent(q)}`)).items.map((i: JsonBody) => i.id);
    expect(await search('準備')).toEqual([]);
    // The run's start still matches, as before word breaks.
    expect(await search('新しい')).toEqual([item.id]);
  });

  it.runIf(dialect === 'sqlite')('keeps the words when SQLite renumbers the search keys', async () => {
    await t.db.handle.db.transaction().execute((trx) => renumberSearchKeys(trx, a.user.id));
    expect(await found('準備')).toEqual([1, 0]);
    expect(await found('准备')).toEqual([2]);
    expect(await found('preparation')).toEqual([5]);
  });
});

describe.each(DIALECTS)('the CJK word-break migration on existing items (%s)', (dialect) => {
  let db: TestDb;
  let services: Services | undefined;

  beforeAll(async () => {
    db = await createTestDb(dialect);
  });
  afterAll(async () => {
    await services?.close();
    await db?.destroy();
  });

  it('finds words inside the runs of items written before it, and rolls back', async () => {
    const migrator = new Migrator({
      db: db.handle.db,
      provider: { getMigrations: async () => migrations },
      ...(db.searchPath ? { migrationTableSchema: db.searchPath } : {}),
    });
    const before = '2026-11-27-0501-live-changes';
    expect((await whileOthersDropSchemas(() => migrator.migrateTo(before))).error).toBeUndefined();
    services = defaultServices(db.handle);
    const user = await services.users.create({ email: 'cjk@example.test' });
    const inbox = await services.projects.requireInbox(db.handle.db, user.id);
    const rows = [
      ['0190f5e2-0000-7000-8000-0000000000a1', '会議の準備', null, '2026-01-01T00:00:00.000Z'],
      ['0190f5e2-0000-7000-8000-0000000000a2', 'Latin only', '我们明天开会准备材料', '2026-01-02T00:00:00.000Z'],
      ['0190f5e2-0000-7000-8000-0000000000a3', 'Latin preparation', null, '2026-01-03T00:00:00.000Z'],
    ] as const;
    for (const [id, title, content, created] of rows) {
      await insertItem(db.handle.db, {
        id,
        user_id: user.id,
        project_id: inbox.id,
        parent_id: null,
        type: 'note',
        title,
        content_md: content,
        is_completed: 0,
        status: 'backlog',
        status_before_archive: null,
        due_at: null,
        archived_at: null,
        client_id: null,
        created_at: created,
        updated_at: created,
      });
    }
    // The index itself, newest first: the search service reads today's columns (all_day, …), which a
    // schema rolled back to before this migration does not have.
    const search = async (q: string): Promise<string[]> => {
      const words = searchWords(q);
      const hit = dialect === 'sqlite' ? ftsWordsCondition(user.id, words) : sql<SqlBool>`items.search_vector @@ to_tsquery('simple', ${tsQuery(words)})`;
      const rows = await db.handle.db.selectFrom('items').select('id').where('user_id', '=', user.id).where(hit).orderBy('created_at', 'desc').execute();
      return rows.map((row) => row.id);
    };
    expect(await search('準備')).toEqual([]);

    await whileOthersDropSchemas(() => migrateToLatest(db.handle.db));
    expect(await search('準備')).toEqual([rows[0][0]]);
    expect(await search('准备')).toEqual([rows[1][0]]);
    expect(await search('latin')).toEqual([rows[2][0], rows[1][0]]);
    const latin = await sql<{ n: number }>`select count(*) as n from items where search_text is null`.execute(db.handle.db);
    expect(Number(latin.rows[0]!.n)).toBe(1);

    // Rolled back, the index holds whole runs again; applied again, their words.
    expect((await whileOthersDropSchemas(() => migrator.migrateTo(before))).error).toBeUndefined();
    expect(await search('準備')).toEqual([]);
    expect(await search('latin')).toEqual([rows[2][0], rows[1][0]]);
    await whileOthersDropSchemas(() => migrateToLatest(db.handle.db));
    expect(await search('準備')).toEqual([rows[0][0]]);
  });
});
