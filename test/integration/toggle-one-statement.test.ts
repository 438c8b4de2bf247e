import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import type { ItemStatus } from '../../src/db/schema.js';
import { toggleNext } from '../../src/modules/items/item-change.js';
import { createPostgresItemStore } from '../../src/modules/items/item-store.postgres.js';
import { stateEventNames, toggleState, type ItemState } from '../../src/modules/items/item-state.js';
import { toItemView } from '../../src/modules/items/item-view.js';
import { DIALECTS } from '../helpers/dialects.js';
import { actor, capture, ok, type Actor } from '../helpers/items.js';
import { createTestApp, type JsonBody, type TestApp } from '../helpers/test-app.js';

/*
 * POST /items/{id}/toggle of an item without tags, files or recurrence is, on PostgreSQL, one
 * statement that flips the row in SQL and builds its event's item view in SQL (decisions/0107).
 * These hold that statement to the TypeScript it stands in for: toggleState's table, and the event
 * body as JSON.stringify writes it, byte for byte (webhooks send the stored text). Both dialects
 * run them: SQLite's path is the TypeScript itself, the reference.
 */

/** The view's fields in toItemView's order: the order JSON.stringify writes an event's item in. */
const VIEW_KEYS = Object.keys(
  toItemView(
    {
      id: '',
      project_id: '',
      parent_id: null,
      type: 'todo',
      title: null,
      content_md: null,
      is_completed: 0,
      status: 'todo',
      due_at: null,
      archived_at: null,
      created_at: '',
      updated_at: '',
    },
    [],
  ),
);

const inOrder = (item: JsonBody): Record<string, unknown> => Object.fromEntries(VIEW_KEYS.map((k) => [k, item[k]]));

const STATUSES: ItemStatus[] = ['backlog', 'todo', 'doing', 'done', 'archived'];

describe.each(DIALECTS)('POST /api/v1/items/{id}/toggle, its event as stored (%s)', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(dialect);
  });
  afterAll(async () => t?.close());

  /** A boolean column's value as each driver binds it. */
  const flag = (value: boolean) => sql<number>`${dialect === 'postgres' ? value : Number(value)}`;

  async function storedPayloads(a: Actor): Promise<string[]> {
    const rows = await t.services.db.selectFrom('outbox_events').select('payload').where('user_id', '=', a.user.id).orderBy('id').execute();
    return rows.map((r) => r.payload);
  }

  /** Toggles through the API; checks the one new event's stored text against the answer; answers the answer and the event's name. */
  async function toggleAndCheck(a: Actor, id: string): Promise<{ item: JsonBody; event: string }> {
    const before = (await storedPayloads(a)).length;
    const item = ok(await a.c.post(`items/${id}/toggle`));
    const fresh = (await storedPayloads(a)).slice(before);
    expect(fresh).toHaveLength(1);
    const body = JSON.parse(fresh[0]!) as { id: string; event: string; created_at: string };
    expect(fresh[0]).toBe(JSON.stringify({ id: body.id, event: body.event, created_at: body.created_at, data: { item: inOrder(item) } }));
    return { item, event: body.event };
  }

  it('flips every status as toggleState does and announces what stateEventNames names', async () => {
    const a = await actor(t);
    const { id } = await capture(a.c, 'a state to flip');
    for (const status of STATUSES) {
      for (const completed of [false, true]) {
        const state: ItemState = {
          is_completed: completed,
          status,
          status_before_archive: status === 'archived' ? 'doing' : null,
          archived_at: status === 'archived' ? '2026-01-02T03:04:05.000Z' : null,
        };
        await t.services.db
          .updateTable('items')
          .set({ ...state, is_completed: flag(completed) })
          .where('id', '=', id as string)
          .execute();
        const expected = toggleState(state);
        const { item, event } = await toggleAndCheck(a, id as string);
        expect([item.status, item.is_completed, item.archived_at], `from ${status}, completed ${completed}`).toEqual([
          expected.status,
          expected.is_completed,
          expected.archived_at,
        ]);
        expect([event]).toEqual(stateEventNames(state, expected));
      }
    }
  });

  it('stores the event as JSON.stringify writes it, for awkward text and every optional field set', async () => {
    const a = await actor(t);
    const parent = await capture(a.c, 'a parent');
    const { id } = await capture(a.c, 'awkward');
    const controls = Array.from({ length: 31 }, (_, i) => String.fromCharCode(i + 1)).join('');
    await t.services.db
      .updateTable('items')
      .set({
        title: `"quoted" \\ back/slash ${controls} \u007f é 中文 😀 \u2028\u2029 </script>`,
        content_md: '**bold**\n\n- a list\n\ttabbed\r\n',
        due_at: '2026-12-01T00:00:00.000Z',
        all_day: flag(true),
        remind_at: '2026-11-30T09:00:00.000Z',
        parent_id: parent.id as string,
      })
      .where('id', '=', id as string)
      .execute();
    const { item } = await toggleAndCheck(a, id as string);
    expect([item.is_completed, item.all_day, item.parent_id]).toEqual([true, true, parent.id]);
    await toggleAndCheck(a, id as string);
  });

  it('stores the event the same way for an item with tags, which the statement leaves to the read-then-write path', async () => {
    const a = await actor(t);
    const { id } = await capture(a.c, 'tagged', { tags: ['Zeta', 'alpha', 'Beta'] });
    const { item } = await toggleAndCheck(a, id as string);
    expect(item.tags).toEqual(['alpha', 'Beta', 'Zeta']);
  });

  it.runIf(dialect === 'postgres')('writes nothing when another change of the row commits while the statement waits for it', async () => {
    const a = await actor(t);
    const { id } = await capture(a.c, 'raced');
    await a.events.take();
    const store = createPostgresItemStore({ db: t.services.db, events: t.services.events, tags: t.services.tags, now: () => '2030-01-01T00:00:00.000Z' });
    let toggled: Promise<unknown> | undefined;
    await t.services.db.transaction().execute(async (trx) => {
      await trx
        .updateTable('items')
        .set({ title: 'moved on' })
        .where('id', '=', id as string)
        .execute();
      // The toggle reads the row as it was and waits on the row's lock; then this commits.
      toggled = store.tryStateChange(a.user.id, id as string, toggleNext);
      await new Promise((resolve) => setTimeout(resolve, 200));
    });
    expect(await toggled).toBeUndefined();
    expect(await a.events.names()).toEqual([]);
    const now = ok(await a.c.get(`items/${id as string}`));
    expect([now.title, now.is_completed]).toEqual(['moved on', false]);
  });
});
