import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../helpers/dialects.js';
import { client, createTestApp, createUser, type TestApp } from '../helpers/test-app.js';

describe.each(DIALECTS)('GET /api/v1/dates/read (%s)', (dialect) => {
  let t: TestApp;
  let api: ReturnType<typeof client>;

  beforeAll(async () => {
    t = await createTestApp(dialect);
    const user = await createUser(t);
    api = client(t.app, user.token);
    // The manual clock stands at 2026-11-21T10:00Z, a Saturday; Berlin is UTC+1 then.
    expect((await api.patch('me', { timezone: 'Europe/Berlin' })).status).toBe(200);
  });
  afterAll(async () => {
    await t?.close();
  });

  it("reads plain words in the user's zone by the organizer's rules", async () => {
    const res = await api.get(`dates/read?text=${encodeURIComponent('tomorrow 5pm')}`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ text: 'tomorrow 5pm', due_at: '2026-11-22T16:00:00.000Z', all_day: false });
    // A day without a time is all-day: 00:00 local.
    expect((await api.get('dates/read?text=monday')).body).toMatchObject({ due_at: '2026-11-22T23:00:00.000Z', all_day: true });
  });

  it('refuses words that name no date, or only a past one, with 400 bad_request', async () => {
    const none = await api.get('dates/read?text=groceries');
    expect(none.status).toBe(400);
    expect(none.body).toMatchObject({ error: 'bad_request', message: expect.stringContaining('names no date') });
    const blank = await api.get('dates/read?text=%20');
    expect(blank.status).toBe(400);
  });

  it('needs a key with the read scope, like every GET', async () => {
    expect((await client(t.app).get('dates/read?text=tomorrow')).status).toBe(401);
    const owner = (await createUser(t)).id;
    const capture = await t.services.keys.mint(owner, 'capture only', { scopes: ['capture'] });
    expect((await client(t.app, capture.token).get('dates/read?text=tomorrow')).status).toBe(403);
    const read = await t.services.keys.mint(owner, 'reader', { scopes: ['read'] });
    expect((await client(t.app, read.token).get('dates/read?text=tomorrow')).status).toBe(200);
  });
});
