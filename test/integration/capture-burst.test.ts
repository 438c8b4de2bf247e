import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PER_SECOND } from '../../src/db/migrations/2026-11-23-0001-search-key-ranges.js';
import { newId } from '../../src/lib/ids.js';
import { insertItem } from '../../src/modules/items/items.repository.js';
import { client, createTestApp, createUser, type TestApp, type TestUser } from '../helpers/test-app.js';

/*
 * SQLite keys a user's items by creation second, PER_SECOND keys per second (the search-key-ranges
 * migration). A capture that finds its second full waits for the next second and is stamped then;
 * when the seconds stay full it answers 429 and stores nothing. PostgreSQL has no such bound.
 */
describe('capture when the second has no search key left (sqlite)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp('sqlite');
  });
  afterAll(async () => {
    await t?.close();
  });

  /** Fills the user's second of `at` with PER_SECOND items, straight into the table. */
  async function fillSecond(user: TestUser, at: string): Promise<void> {
    await t.db.handle.db.transaction().execute(async (trx) => {
      for (let n = 0; n < PER_SECOND; n += 1) {
        await insertItem(trx, {
          id: newId(), user_id: user.id, project_id: user.inboxId, parent_id: null, type: 'note', title: `filler ${n}`,
          content_md: null, is_completed: 0, status: 'backlog', status_before_archive: null, due_at: null, archived_at: null,
          client_id: null, created_at: at, updated_at: at,
        });
      }
    });
  }

  const countItems = async (user: TestUser) =>
    Number((await t.db.handle.db.selectFrom('items').select((eb) => eb.fn.countAll().as('n')).where('user_id', '=', user.id).executeTakeFirstOrThrow()).n);

  it('waits for the next second and stamps the item then', async () => {
    const user = await createUser(t, 'pro');
    t.clock.set('2026-11-21T10:00:00.900Z');
    await fillSecond(user, '2026-11-21T10:00:00.100Z');
    const answer = client(t.app, user.token).post<{ created_at: string; title: string }>('capture', { text: 'one more' });
    // The capture sleeps about 100 ms (to the next second of the clock); the clock gets there meanwhile.
    const moved = new Promise<void>((resolve) => setTimeout(() => resolve(t.clock.set('2026-11-21T10:00:01.020Z')), 20));
    const [res] = await Promise.all([answer, moved]);
    expect(res.status).toBe(201);
    expect(res.body.created_at).toBe('2026-11-21T10:00:01.020Z');
    expect(await countItems(user)).toBe(PER_SECOND + 1);
    const search = await client(t.app, user.token).get<{ items: { title: string }[] }>('items/search?q=more');
    expect(search.body.items.map((i) => i.title)).toEqual(['one more']);
  });

  it('answers 429 with Retry-After when the second stays full, and stores nothing', async () => {
    const user = await createUser(t, 'pro');
    t.clock.set('2026-11-21T11:00:00.950Z');
    await fillSecond(user, '2026-11-21T11:00:00.000Z');
    const res = await client(t.app, user.token).post('capture', { text: 'refused' });
    expect(res.status).toBe(429);
    expect(res.headers['retry-after']).toBe('1');
    expect(res.body).toMatchObject({ error: 'rate_limited', scope: 'second', retry_after: 1, limit_per_second: PER_SECOND });
    expect(await countItems(user)).toBe(PER_SECOND);
  });
});
