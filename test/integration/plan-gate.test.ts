import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../helpers/dialects.js';
import { client, createTestApp, createUser, type TestApp } from '../helpers/test-app.js';

describe.each(DIALECTS)('Pro gating (%s)', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(dialect);
  });
  afterAll(async () => {
    await t.close();
  });

  const itemCount = async (userId: string) =>
    Number(
      (
        await t.services.db
          .selectFrom('items')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .where('user_id', '=', userId)
          .executeTakeFirstOrThrow()
      ).n,
    );

  describe('POST /api/v1/capture with organize: true', () => {
    it('answers 402 pro_required to a free user, saying Pro is required, and creates nothing', async () => {
      const user = await createUser(t, 'free');
      const res = await client(t.app, user.token).post('capture', { text: 'call mom tomorrow', organize: true });
      expect(res.status).toBe(402);
      expect(res.body).toEqual({ error: 'pro_required', message: expect.stringMatching(/Pro plan/) });
      expect(await itemCount(user.id)).toBe(0);
    });

    it('gates before validation: a free user learns about Pro even with an invalid body', async () => {
      const user = await createUser(t, 'free');
      const res = await client(t.app, user.token).post('capture', { text: '', organize: true });
      expect(res.status).toBe(402);
    });

    it('authenticates first: no key is 401, not 402', async () => {
      const res = await client(t.app).post('capture', { text: 'x', organize: true });
      expect(res.status).toBe(401);
    });

    it('lets a Pro user through to the organizer', async () => {
      const user = await createUser(t, 'pro');
      const res = await client(t.app, user.token).post('capture', { text: 'x', organize: true });
      expect(res.status).toBe(201);
      expect(res.body.ai).toMatchObject({ engine: 'local' });
    });
  });

  describe('POST /api/v1/capture without organize', () => {
    it('works on the free plan, with organize false or a non-boolean left to validation', async () => {
      const user = await createUser(t, 'free');
      const api = client(t.app, user.token);
      expect((await api.post('capture', { text: 'plain' })).status).toBe(201);
      expect((await api.post('capture', { text: 'plain', organize: false })).status).toBe(201);
      expect((await api.post('capture', { text: 'plain', organize: 'true' })).status).toBe(400);
    });
  });

  it('a plan change takes effect on the next request', async () => {
    const user = await createUser(t, 'free');
    const api = client(t.app, user.token);
    expect((await api.post('capture', { text: 'x', organize: true })).status).toBe(402);
    await t.services.users.setPlan(user.email, 'pro');
    expect((await api.post('capture', { text: 'x', organize: true })).status).toBe(201);
  });
});
