import { Migrator } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrateToLatest } from '../../src/db/migrate.js';
import { migrations } from '../../src/db/migrations/index.js';
import { MAX_PENDING, PENDING_PRUNE_TO } from '../../src/modules/organizer/learning/routing-model.js';
import { DIALECTS } from '../helpers/dialects.js';
import { actor, capture, ok, type Actor } from '../helpers/items.js';
import { createTestDb, whileOthersDropSchemas, type TestDb } from '../helpers/test-db.js';
import { UNLIMITED, client, createTestApp, type JsonBody, type TestApp } from '../helpers/test-app.js';

/*
 * Decision 0114: the organizer's filings awaiting confirmation are rows of their own, and a model's
 * revision says when a process must read it again. A filing no longer rewrites the model.
 */
describe.each(DIALECTS)('organizer filings (%s)', (dialect) => {
  let t: TestApp;
  let other: TestApp;
  beforeAll(async () => {
    t = await createTestApp(dialect, { limits: UNLIMITED });
    // A second process on the same database: its learning must reach the first's decisions.
    other = await createTestApp(dialect, { db: t.db, limits: UNLIMITED, clock: t.clock });
  });
  afterAll(async () => {
    await other?.close();
    await t?.close();
  });

  async function setup(): Promise<{ a: Actor; work: string }> {
    const a = await actor(t, 'pro');
    const { id: work } = ok(await a.c.post('projects', { name: 'Work' }));
    for (const title of ['prepare the sprint demo slides', 'review PR for the billing service', 'quarterly planning notes']) {
      await capture(a.c, title, { project_id: work });
    }
    return { a, work: work as string };
  }
  const organize = async (a: Actor, text: string): Promise<JsonBody> => ok(await a.c.post('capture', { text, organize: true }), 201);
  const stored = (userId: string) =>
    t.services.db.selectFrom('organizer_models').select(['model', 'revision', 'updated_at']).where('user_id', '=', userId).executeTakeFirstOrThrow();
  const filings = (userId: string) =>
    t.services.db
      .selectFrom('organizer_filings')
      .select(['item_id', 'project_id'])
      .where('user_id', '=', userId)
      .orderBy('filed_at')
      .orderBy('item_id')
      .execute();

  it('records a filing as one row and leaves the model as it was', async () => {
    const { a, work } = await setup();
    const first = await organize(a, 'review PR for the search service');
    expect(first.project_id).toBe(work);
    const before = await stored(a.user.id);
    expect(before.revision).toMatch(/^[0-9a-f-]{36}$/);

    t.clock.advance(1000);
    const second = await organize(a, 'review PR for the login service');
    expect(second.project_id).toBe(work);
    expect(await stored(a.user.id)).toEqual(before);
    expect(await filings(a.user.id)).toEqual([
      { item_id: first.id, project_id: work },
      { item_id: second.id, project_id: work },
    ]);
    // The export still carries them, oldest first, as it did when they lived in the model.
    const exported = ok(await a.c.get('export')).organizer_model;
    expect(exported.pending.map(([id]: [string]) => id)).toEqual([first.id, second.id]);
  });

  it('reads a model another process rewrote, by its revision', async () => {
    const { a, work } = await setup();
    const unsure = await organize(a, 'zine pages for Marisol');
    expect(unsure.ai.project_id).toBeNull();
    const revision = (await stored(a.user.id)).revision;
    // The move is learned by the other process: a new revision this process has not parsed.
    ok(await client(other.app, a.user.token).patch(`items/${unsure.id}`, { project_id: work }));
    expect((await stored(a.user.id)).revision).not.toBe(revision);
    const next = await organize(a, 'print the zine for Marisol');
    expect(next.ai.project_id).toBe(work);
  });

  it(`forgets the oldest filings past ${MAX_PENDING}, down to ${PENDING_PRUNE_TO}, unlearned`, async () => {
    const { a, work } = await setup();
    await organize(a, 'review PR for the search service');
    const start = t.clock.now().getTime();
    const many = Array.from({ length: MAX_PENDING }, (_, i) => ({
      user_id: a.user.id,
      item_id: `00000000-0000-7000-8000-${String(i).padStart(12, '0')}`,
      project_id: work,
      filed_at: new Date(start + 1 + i).toISOString(),
    }));
    for (let i = 0; i < many.length; i += 50)
      await t.services.db
        .insertInto('organizer_filings')
        .values(many.slice(i, i + 50))
        .execute();
    t.clock.advance(1000);
    const revision = (await stored(a.user.id)).revision;
    // 201 with the first: this decision cuts them to 150, then its own filing is the 151st.
    const filed = await organize(a, 'review PR for the login service');
    const left = await filings(a.user.id);
    expect(left).toHaveLength(PENDING_PRUNE_TO + 1);
    expect(left.at(-1)!.item_id).toBe(filed.id);
    expect(left[0]!.item_id).toBe(many[MAX_PENDING - PENDING_PRUNE_TO]!.item_id);
    // Forgotten, not learned: the model was not rewritten for them.
    expect((await stored(a.user.id)).revision).toBe(revision);
  });
});

/** Filings that lived in the model's JSON move to their table, and back on the way down. */
describe.each(DIALECTS)('organizer filings migration (%s)', (dialect) => {
  let db: TestDb;
  beforeAll(async () => {
    db = await createTestDb(dialect);
  });
  afterAll(async () => {
    await db?.destroy();
  });
  const migrator = () =>
    new Migrator({ db: db.handle.db, provider: { getMigrations: async () => migrations }, ...(db.searchPath ? { migrationTableSchema: db.searchPath } : {}) });

  it('moves each model’s pending filings into rows, and puts them back when rolled back', async () => {
    const down = await whileOthersDropSchemas(() => migrator().migrateTo('2026-11-30-1400-tag-counts'));
    expect(down.error).toBeUndefined();
    const handle = db.handle.db;
    const userId = '0190f5e2-0000-7000-8000-0000000000aa';
    const at = '2026-11-29T10:00:00.000Z';
    await handle
      .insertInto('users')
      .values({ id: userId, email: 'old@example.test', email_key: 'old@example.test', plan: 'pro', timezone: 'UTC', created_at: at, updated_at: at } as never)
      .execute();
    const pending = [
      ['0190f5e2-0000-7000-8000-000000000001', 'p-work', '2026-11-29T10:00:01.000Z'],
      ['0190f5e2-0000-7000-8000-000000000002', 'p-home', '2026-11-29T10:00:02.000Z'],
    ];
    const model = { v: 1, classes: ['p-work'], docs: [1], mass: [2], features: { 'w:demo': [0, 2] }, recent: [], pending, seeded: true };
    await handle
      .insertInto('organizer_models')
      .values({ user_id: userId, model: JSON.stringify(model), updated_at: at } as never)
      .execute();

    await whileOthersDropSchemas(() => migrateToLatest(handle));
    const row = await handle.selectFrom('organizer_models').select(['model', 'revision']).where('user_id', '=', userId).executeTakeFirstOrThrow();
    const { pending: _, ...rest } = model;
    expect(JSON.parse(row.model)).toEqual(rest);
    expect(row.revision).not.toBe('');
    const rows = await handle.selectFrom('organizer_filings').select(['item_id', 'project_id', 'filed_at']).orderBy('filed_at').execute();
    expect(rows.map((r) => [r.item_id, r.project_id, r.filed_at])).toEqual(pending);

    expect((await whileOthersDropSchemas(() => migrator().migrateTo('2026-11-30-1400-tag-counts'))).error).toBeUndefined();
    const back = await handle.selectFrom('organizer_models').select('model').where('user_id', '=', userId).executeTakeFirstOrThrow();
    expect(JSON.parse(back.model)).toEqual(model);
    await whileOthersDropSchemas(() => migrateToLatest(handle));
  });
});
