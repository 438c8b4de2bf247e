import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SCOPES } from '../../src/modules/keys/scopes.js';
import { DIALECTS } from '../helpers/dialects.js';
import { client, createTestApp, createUser, type TestApp } from '../helpers/test-app.js';

describe.each(DIALECTS)('DELETE /api/v1/me/key: a key revokes itself (%s)', (dialect) => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp(dialect);
  });
  afterAll(async () => {
    await t?.close();
  });

  it('revokes the key of the request: it answers 401 from then on, the user’s other keys keep working', async () => {
    const user = await createUser(t);
    const other = await t.services.keys.mint(user.id, 'phone');
    const api = client(t.app, user.token);
    const res = await api.delete('me/key');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ ok: true });
    expect((await api.get('me')).status).toBe(401);
    // A second revocation with the dead key is an ordinary 401, not a 500.
    expect((await api.delete('me/key')).status).toBe(401);
    expect((await client(t.app, other.token).get('me')).status).toBe(200);
    const keys = await t.services.keys.list(user.id);
    expect(keys.find((k) => k.id === user.keyId)?.revoked_at).toBe(t.clock.now().toISOString());
    expect(keys.find((k) => k.id === other.key_id)?.revoked_at).toBeNull();
  });

  it('needs no scope: a key of any single scope can end itself', async () => {
    const user = await createUser(t);
    for (const scope of SCOPES) {
      const key = await t.services.keys.mint(user.id, `only ${scope}`, { scopes: [scope] });
      const api = client(t.app, key.token);
      expect((await api.delete('me/key')).status, scope).toBe(200);
      expect((await api.get('me')).status, scope).toBe(401);
    }
  });

  it('answers 401 without a key, and touches no other user’s keys', async () => {
    const user = await createUser(t);
    expect((await client(t.app).delete('me/key')).status).toBe(401);
    expect((await client(t.app, user.token).get('me')).status).toBe(200);
  });
});
