import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deleteUserAndData } from '../../src/modules/accounts/account-deletion.repository.js';
import { DIALECTS } from '../helpers/dialects.js';
import { actor, capture, ok, type Actor } from '../helpers/items.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';

const CSV = [
  'TYPE,CONTENT,DESCRIPTION,PRIORITY,INDENT,AUTHOR,RESPONSIBLE,DATE,DATE_LANG,TIMEZONE,DURATION,DURATION_UNIT',
  'task,Call the plumber @calls @home,,4,1,Ann (1),,,en,Europe/Berlin,,',
  'task,Call the bank @calls,,4,1,Ann (1),,,en,Europe/Berlin,,',
  '',
].join('\n');

/*
 * Tags keep their item_count on their own row, kept by triggers on item_tags (decision 0113). After
 * every kind of write, GET /tags must answer what a count of the links gives.
 */
describe.each(DIALECTS)('tag counts kept by triggers (%s)', (dialect) => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp(dialect);
  });
  afterAll(async () => {
    await t?.close();
  });

  const kept = async (a: Actor): Promise<Record<string, number>> =>
    Object.fromEntries((ok(await a.c.get('tags')) as unknown as { name: string; item_count: number }[]).map((tag) => [tag.name, tag.item_count]));

  /** The same counts, counted from the links. */
  async function counted(a: Actor): Promise<Record<string, number>> {
    const tags = await t.services.db.selectFrom('tags').select(['id', 'name']).where('user_id', '=', a.user.id).execute();
    const links = await t.services.db.selectFrom('item_tags').select('tag_id').where('user_id', '=', a.user.id).execute();
    return Object.fromEntries(tags.map((tag) => [tag.name, links.filter((l) => l.tag_id === tag.id).length]));
  }

  async function expectCounts(a: Actor, expected: Record<string, number>): Promise<void> {
    const got = await kept(a);
    expect(got).toEqual(expected);
    expect(got).toEqual(await counted(a));
  }

  it('follows tagging, retagging, toggles, archives, deletes, bulk deletes and a batch capture', async () => {
    const a = await actor(t);
    const one = await capture(a.c, 'one', { tags: ['calls', 'Work'] });
    const two = await capture(a.c, 'two', { tags: ['calls'] });
    const three = await capture(a.c, 'three');
    await expectCounts(a, { calls: 2, Work: 1 });

    ok(await a.c.patch(`items/${three.id}`, { tags: ['Work', 'home'] }));
    ok(await a.c.patch(`items/${one.id}`, { tags: ['home'] }));
    await expectCounts(a, { calls: 1, home: 2, Work: 1 });

    // Done and archived items keep their tags, so they stay counted.
    ok(await a.c.post(`items/${two.id}/toggle`));
    ok(await a.c.post(`items/${three.id}/archive`));
    await expectCounts(a, { calls: 1, home: 2, Work: 1 });

    expect((await a.c.delete(`items/${two.id}`)).status).toBe(204);
    ok(await a.c.post('items/bulk', { op: 'delete', ids: [one.id] }));
    await expectCounts(a, { calls: 0, home: 1, Work: 1 });

    ok(await a.c.post('capture/batch', { text: 'four\nfive @new', tags: ['calls'] }), 201);
    await expectCounts(a, { calls: 2, home: 1, new: 1, Work: 1 });
  });

  it('counts what an import links, and the counts of one user never move another', async () => {
    const a = await actor(t);
    const b = await actor(t);
    await capture(b.c, 'b keeps this', { tags: ['calls'] });
    ok(await a.c.post('import', CSV, { 'content-type': 'text/csv' }));
    await expectCounts(a, { calls: 2, home: 1 });
    await expectCounts(b, { calls: 1 });
  });

  it.runIf(dialect === 'postgres')(
    "never writes the tag's row in a writer's transaction on PostgreSQL, so concurrent captures with one tag do not queue on its lock",
    async () => {
      const a = await actor(t);
      const first = await capture(a.c, 'first', { tags: ['calls'] });
      await expectCounts(a, { calls: 1 });
      const version = () =>
        sql<{ xmin: string }>`select xmin::text as xmin from tags where user_id = ${a.user.id}`.execute(t.services.db).then((r) => r.rows[0]!.xmin);
      const before = await version();
      await Promise.all([capture(a.c, 'one', { tags: ['calls'] }), capture(a.c, 'two', { tags: ['calls'] }), capture(a.c, 'three', { tags: ['calls'] })]);
      expect((await a.c.delete(`items/${first.id}`)).status).toBe(204);
      expect(await version()).toBe(before);
      // The next read folds the changes in, and a second read finds nothing left to fold.
      await expectCounts(a, { calls: 3 });
      const left = await t.services.db.selectFrom('tag_count_deltas').select('user_id').where('user_id', '=', a.user.id).execute();
      expect(left).toEqual([]);
    },
  );

  it('leaves no pending count changes behind when the account is deleted', async () => {
    const a = await actor(t);
    await capture(a.c, 'one', { tags: ['calls'] });
    await t.services.db.transaction().execute((trx) => deleteUserAndData(trx, a.user.id));
    const left = await t.services.db.selectFrom('tag_count_deltas').select('user_id').where('user_id', '=', a.user.id).execute();
    expect(left).toEqual([]);
    expect(await t.services.db.selectFrom('tags').select('id').where('user_id', '=', a.user.id).execute()).toEqual([]);
  });
});
