import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashPassword, legacyScryptHash, needsRehash, verifyPassword } from '../../src/lib/passwords.js';
import { DIALECTS } from '../helpers/dialects.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { newEmail, signedInBrowser, webClient } from '../helpers/web-client.js';

const CURRENT = /^\$argon2id\$v=19\$m=19456,t=2,p=1\$[A-Za-z0-9+/]{22}\$[A-Za-z0-9+/]{43}$/;

describe('password hashes', () => {
  it('are Argon2id at 19 MiB, 2 passes, 1 lane; other schemes and parameters need a re-hash', async () => {
    const hash = await hashPassword('correct horse battery');
    expect(hash).toMatch(CURRENT);
    expect(needsRehash(hash)).toBe(false);
    expect(await verifyPassword('correct horse battery', hash)).toBe(true);
    expect(await verifyPassword('correct horse batterY', hash)).toBe(false);
    expect(needsRehash(await legacyScryptHash('x'))).toBe(true);
    expect(needsRehash(hash.replace('m=19456,t=2', 'm=4096,t=3'))).toBe(true);
    expect(await verifyPassword('x', '$argon2id$v=19$m=19456,t=2,p=1$broken')).toBe(false);
  });
});

describe.each(DIALECTS)('password hashing at sign-up and sign-in (%s)', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(dialect);
  });
  afterAll(async () => t?.close());

  const storedHash = async (userId: string) =>
    (await t.services.db.selectFrom('users').select('password_hash').where('id', '=', userId).executeTakeFirstOrThrow()).password_hash;

  it('a sign-up stores an Argon2id hash', async () => {
    const { userId } = await signedInBrowser(t);
    expect(await storedHash(userId)).toMatch(CURRENT);
  });

  it('a scrypt hash of an earlier version still signs in, and is replaced by Argon2id on that sign-in', async () => {
    const email = newEmail();
    await webClient(t.app).signUp(email);
    const user = await t.services.users.requireByEmail(email);
    const legacy = await legacyScryptHash('correct horse battery');
    await t.services.db.updateTable('users').set({ password_hash: legacy }).where('id', '=', user.id).execute();

    expect((await webClient(t.app).signIn(email, 'wrong password!')).status).toBe(401);
    expect(await storedHash(user.id)).toBe(legacy);

    expect((await webClient(t.app).signIn(email)).status).toBe(303);
    const upgraded = await storedHash(user.id);
    expect(upgraded).toMatch(CURRENT);
    expect((await webClient(t.app).signIn(email)).status).toBe(303);
    expect(await storedHash(user.id)).toBe(upgraded);
  });
});
