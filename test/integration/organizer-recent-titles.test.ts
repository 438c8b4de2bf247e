import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../helpers/dialects.js';
import { actor, capture, ok, type Actor } from '../helpers/items.js';
import { client, createTestApp, type Client, type TestApp } from '../helpers/test-app.js';

/**
 * The organizer keeps each user's latest titles per process and brings them up to date from the
 * change feed (decision 0103). Every write here goes through another app on the same database (another
 * process, as with WORKERS=2): the organizing app learns of them from the feed alone.
 */
describe.each(DIALECTS)('POST /api/v1/capture with organize: true, history kept up to date (%s)', (dialect) => {
  let writer: TestApp;
  let organizer: TestApp;
  beforeAll(async () => {
    writer = await createTestApp(dialect);
    organizer = await createTestApp(dialect, { db: writer.db, clock: writer.clock });
  });
  afterAll(async () => {
    await organizer?.close();
    await writer?.close();
  });

  async function organize(c: Client, text: string): Promise<{ id: string; project_id: string | null }> {
    const body = ok(await c.post('capture', { text, organize: true }), 201);
    return { id: body.id as string, project_id: body.ai.project_id as string | null };
  }

  async function setUp(): Promise<{ a: Actor; o: Client; alpha: string; beta: string; inBeta: string[] }> {
    const a = await actor(writer, 'pro');
    const o = client(organizer.app, a.user.token);
    const alpha = ok(await a.c.post('projects', { name: 'Alpha' })).id as string;
    const beta = ok(await a.c.post('projects', { name: 'Beta' })).id as string;
    const inBeta = [(await capture(a.c, 'renew the car insurance', { project_id: beta })).id as string];
    inBeta.push((await capture(a.c, 'pay the electricity bill', { project_id: beta })).id as string);
    // The organizer reads the history now, while Alpha has nothing: its titles are kept from here on.
    expect((await organize(o, 'plant tomato seedlings')).project_id).toBeNull();
    return { a, o, alpha, beta, inBeta };
  }

  it('files by titles captured after its last read', async () => {
    const { a, o, alpha } = await setUp();
    for (const title of ['water the tomato plants', 'tie up the tomato vines', 'pick the ripe tomatoes']) await capture(a.c, title, { project_id: alpha });
    expect((await organize(o, 'buy tomato cages')).project_id).toBe(alpha);
  });

  it('forgets the titles of deleted items', async () => {
    const { a, o, alpha } = await setUp();
    const ids: string[] = [];
    for (const title of ['water the tomato plants', 'tie up the tomato vines', 'pick the ripe tomatoes'])
      ids.push((await capture(a.c, title, { project_id: alpha })).id);
    const filed = await organize(o, 'buy tomato cages');
    expect(filed.project_id).toBe(alpha);
    for (const id of [...ids, filed.id]) ok(await a.c.delete(`items/${id}`), 204);
    expect((await organize(o, 'buy tomato cages')).project_id).toBeNull();
  });

  it('reads titles as edited', async () => {
    const { a, o, beta, inBeta } = await setUp();
    // A title edit teaches the model nothing (a move would): only the history can tell.
    ok(await a.c.patch(`items/${inBeta[0]!}`, { title: 'repot the tomato seedlings' }));
    ok(await a.c.patch(`items/${inBeta[1]!}`, { title: 'stake the tomato plants' }));
    expect((await organize(o, 'buy tomato cages')).project_id).toBe(beta);
  });
});
