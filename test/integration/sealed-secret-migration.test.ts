import { createHash } from 'node:crypto';
import { Migrator, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrateToLatest } from '../../src/db/migrate.js';
import { migrations } from '../../src/db/migrations/index.js';
import { createSecretBox } from '../../src/lib/secret-box.js';
import { createTargetSecretVault } from '../../src/modules/deliveries/target-secrets.js';
import { DIALECTS } from '../helpers/dialects.js';
import { actor, ok, type Actor } from '../helpers/items.js';
import { createTestApp, TEST_SECRET_KEY, type TestApp } from '../helpers/test-app.js';
import { whileOthersDropSchemas } from '../helpers/test-db.js';

/*
 * webhooks.signing_key is renamed sealed_secret (decisions/0066): what webhooks and channels sealed
 * before the rename is carried over as it is and still opens, and the rename rolls back.
 */
describe.each(DIALECTS)('sealed_secret migration (%s)', (dialect) => {
  let t: TestApp;
  let a: Actor;
  const BEFORE = '2026-11-29-0100-notify-streaming-users';
  const migrator = () =>
    new Migrator({
      db: t.db.handle.db,
      provider: { getMigrations: async () => migrations },
      ...(t.db.searchPath ? { migrationTableSchema: t.db.searchPath } : {}),
    });
  const vault = createTargetSecretVault(TEST_SECRET_KEY);

  beforeAll(async () => {
    t = await createTestApp(dialect);
    a = await actor(t, 'pro');
  });
  afterAll(async () => t?.close());

  it('keeps every sealed value through down and up, and they still open to the signing key and the channel token', async () => {
    const { webhook, secret } = ok(await a.c.post('webhooks', { url: 'https://hooks.example.com/in', events: ['item.created'] }), 201);
    const { channel } = ok(await a.c.post('channels', { kind: 'ntfy', url: 'https://ntfy.example.com/topic', token: 'tk_kept' }), 201);
    const sealedOf = async (column: string) =>
      Object.fromEntries(
        (await sql<{ id: string; v: string }>`select id, ${sql.ref(column)} as v from webhooks order by id`.execute(t.db.handle.db)).rows.map((r) => [
          r.id,
          r.v,
        ]),
      );
    const before = await sealedOf('sealed_secret');
    expect(Object.keys(before).sort()).toEqual([webhook.id, channel.id].sort());

    const down = await whileOthersDropSchemas(() => migrator().migrateTo(BEFORE));
    expect(down.error).toBeUndefined();
    expect(await sealedOf('signing_key')).toEqual(before);

    await whileOthersDropSchemas(() => migrateToLatest(t.db.handle.db));
    const after = await sealedOf('sealed_secret');
    expect(after).toEqual(before);
    expect(vault.open(a.user.id, webhook.id, after[webhook.id]!)).toBe(createHash('sha256').update(secret).digest('hex'));
    expect(JSON.parse(vault.open(a.user.id, channel.id, after[channel.id]!))).toEqual({ token: 'tk_kept' });
    expect(ok(await a.c.get('webhooks')).webhooks.map((w: { id: string }) => w.id)).toEqual([webhook.id]);
    expect(ok(await a.c.get('channels')).channels.map((c: { id: string }) => c.id)).toEqual([channel.id]);
  });

  it('opens values sealed by the webhooks module before the move (same key purpose and context)', () => {
    const old = createSecretBox(TEST_SECRET_KEY, 'webhook signing keys').seal('abc', 'webhook:u1:w1');
    expect(vault.open('u1', 'w1', old)).toBe('abc');
    expect(() => vault.open('u1', 'w2', old)).toThrow();
  });
});
