import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deleteUserAndData } from '../../src/modules/accounts/account-deletion.repository.js';
import { DIALECTS } from '../helpers/dialects.js';
import { actor, capture, ok, type Actor } from '../helpers/items.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';

const CSV = [
  'TYPE,CONTENT,DESCRIPTION,PRIORITY,INDENT,AUTHOR,RESPONSIBLE,DATE,DATE_LANG,TIMEZONE,DURATION,DURATION_UNIT',
  'task,Inbox task,,4,1,Ann (1),,,en,Europe/Berlin,,',
  'task,Its subtask,,4,2,Ann (1),,,en,Europe/Berlin,,',
  'section,Counted,,,,,,,,,,',
  'task,Counted task one,,4,1,Ann (1),,,en,Europe/Berlin,,',
  'task,Counted task two,,4,1,Ann (1),,,en,Europe/Berlin,,',
  '',
].join('\n');

/*
 * Projects keep their item_count and open_count on their own row, kept by triggers on items
 * (decision 0096). After every kind of write, the kept counts must equal a count of the items.
 */
describe.each(DIALECTS)('project counts kept by triggers (%s)', (dialect) => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp(dialect);
  });
  afterAll(async () => {
    await t?.close();
  });

  /** The counts as GET /projects answers them (item_count) and the web app reads them (open_count), by name. */
  async function kept(a: Actor): Promise<Record<string, [number, number]>> {
    const api = ok(await a.c.get('projects')).projects as { id: string; name: string; item_count: number }[];
    const open = new Map((await t.services.projects.list(a.user.id)).map((p) => [p.id, p.open_count]));
    return Object.fromEntries(api.map((p) => [p.name, [p.item_count, open.get(p.id)!]]));
  }

  /** The same counts counted from the items themselves. */
  async function counted(a: Actor): Promise<Record<string, [number, number]>> {
    const projects = await t.services.db.selectFrom('projects').select(['id', 'name']).where('user_id', '=', a.user.id).execute();
    const items = await t.services.db.selectFrom('items').select(['project_id', 'status']).where('user_id', '=', a.user.id).execute();
    const count = (id: string, open: boolean) => items.filter((i) => i.project_id === id && (!open || ['backlog', 'todo', 'doing'].includes(i.status))).length;
    return Object.fromEntries(projects.map((p) => [p.name, [count(p.id, false), count(p.id, true)]]));
  }

  async function expectCounts(a: Actor, expected: Record<string, [number, number]>): Promise<void> {
    const got = await kept(a);
    expect(got).toEqual(expected);
    expect(got).toEqual(await counted(a));
  }

  it('follows captures, toggles, archives, moves, status changes, deletes and bulk operations', async () => {
    const a = await actor(t);
    const work = ok(await a.c.post('projects', { name: 'Work' }));
    const [one, two, three] = [await capture(a.c, 'one'), await capture(a.c, 'two'), await capture(a.c, 'three', { project_id: work.id })];
    const note = await capture(a.c, 'a note', { type: 'note' });
    await expectCounts(a, { Inbox: [3, note.status === 'backlog' || note.status === 'todo' ? 3 : 2], Work: [1, 1] });

    ok(await a.c.post(`items/${one.id}/toggle`));
    ok(await a.c.post(`items/${two.id}/archive`));
    const afterClose = await kept(a);
    expect(afterClose.Inbox![0]).toBe(3);
    expect(afterClose).toEqual(await counted(a));

    ok(await a.c.post(`items/${two.id}/unarchive`));
    ok(await a.c.patch(`items/${one.id}`, { project_id: work.id }));
    ok(await a.c.patch(`items/${three.id}`, { status: 'doing' }));
    ok(await a.c.patch(`items/${three.id}`, { title: 'three, renamed' }));
    expect((await kept(a)).Work![0]).toBe(2);
    expect(await kept(a)).toEqual(await counted(a));

    expect((await a.c.delete(`items/${two.id}`)).status).toBe(204);
    ok(await a.c.post('items/bulk', { op: 'toggle', ids: [three.id, note.id] }));
    ok(await a.c.post('items/bulk', { op: 'archive', ids: [one.id] }));
    expect(await kept(a)).toEqual(await counted(a));
    expect((await kept(a)).Inbox![0]).toBe(1);
  });

  it("moves a deleted project's items and counts to the Inbox", async () => {
    const a = await actor(t);
    const home = ok(await a.c.post('projects', { name: 'Home' }));
    const done = await capture(a.c, 'done one', { project_id: home.id });
    await capture(a.c, 'open one', { project_id: home.id });
    ok(await a.c.post(`items/${done.id}/toggle`));
    await expectCounts(a, { Inbox: [0, 0], Home: [2, 1] });
    ok(await a.c.delete(`projects/${home.id}`));
    await expectCounts(a, { Inbox: [2, 1] });
  });

  it('counts what an import inserts, and the counts of one user never move another', async () => {
    const a = await actor(t);
    const b = await actor(t);
    await capture(b.c, 'b keeps this');
    ok(await a.c.post('import', CSV, { 'content-type': 'text/csv' }));
    await expectCounts(a, { Inbox: [2, 2], Counted: [2, 2] });
    await expectCounts(b, { Inbox: [1, 1] });
  });

  it.runIf(dialect === 'postgres')(
    "never writes the project's row in a writer's transaction on PostgreSQL, so concurrent captures into one Inbox do not queue on its lock",
    async () => {
      const a = await actor(t);
      await expectCounts(a, { Inbox: [0, 0] });
      const version = () =>
        sql<{ xmin: string }>`select xmin::text as xmin from projects where user_id = ${a.user.id} and is_default`
          .execute(t.services.db)
          .then((r) => r.rows[0]!.xmin);
      const before = await version();
      const [one] = await Promise.all([capture(a.c, 'one'), capture(a.c, 'two'), capture(a.c, 'three')]);
      ok(await a.c.post(`items/${one.id}/toggle`));
      expect((await a.c.delete(`items/${one.id}`)).status).toBe(204);
      expect(await version()).toBe(before);
      // The next read folds the changes in, and a second read finds nothing left to fold.
      await expectCounts(a, { Inbox: [2, 2] });
      const left = await t.services.db.selectFrom('project_count_deltas').select('user_id').where('user_id', '=', a.user.id).execute();
      expect(left).toEqual([]);
    },
  );

  it('leaves no pending count changes behind when the account is deleted', async () => {
    const a = await actor(t);
    await capture(a.c, 'one');
    await t.services.db.transaction().execute((trx) => deleteUserAndData(trx, a.user.id));
    const left = await t.services.db.selectFrom('project_count_deltas').select('user_id').where('user_id', '=', a.user.id).execute();
    expect(left).toEqual([]);
  });
});
