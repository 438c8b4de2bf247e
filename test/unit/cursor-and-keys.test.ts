import { describe, expect, it } from 'vitest';
import { hashSecret, mintKey, parseToken, secretMatches } from '../../src/lib/api-keys.js';
import { decodeCursor, encodeCursor } from '../../src/lib/cursor.js';
import { hashPassword, verifyPassword } from '../../src/lib/passwords.js';
import { parseTimestamp } from '../../src/lib/timestamps.js';

describe('cursors', () => {
  it('round-trip and refuse another listing or garbage', () => {
    const id = '01a1fde4-9162-773f-9f64-df66d26ccae5';
    const cursor = encodeCursor('created', { k: '2026-11-21T10:00:00.000Z', id });
    expect(decodeCursor('created', cursor)).toEqual({ k: '2026-11-21T10:00:00.000Z', id });
    const forged = (k: string, i: string) => Buffer.from(JSON.stringify(['created', k, i])).toString('base64url');
    expect(() => decodeCursor('created', forged('2026-11-21T10:00:00.000Z\u0000', id))).toThrow(/cursor/);
    expect(() => decodeCursor('created', forged('2026-11-21T10:00:00.000Z', 'abc'))).toThrow(/cursor/);
    expect(() => decodeCursor('updated', cursor)).toThrow(/cursor/);
    for (const bad of ['!!', 'e30', Buffer.from('[1,2,3]').toString('base64url'), 'a'.repeat(10)]) {
      expect(() => decodeCursor('created', bad)).toThrow(/cursor/);
    }
  });
});

describe('API keys', () => {
  it('mints tokens of the contract format whose secret matches only its own hash', () => {
    const key = mintKey();
    expect(key.token).toMatch(/^cin_[a-z0-9]{8}_[A-Za-z0-9]{32,}$/);
    const parsed = parseToken(key.token);
    expect(parsed?.prefix).toBe(key.prefix);
    expect(secretMatches(parsed!.secret, key.secretHash)).toBe(true);
    expect(secretMatches(`${parsed!.secret}x`, key.secretHash)).toBe(false);
    expect(key.secretHash).toBe(hashSecret(parsed!.secret));
    expect(key.token).not.toContain(key.secretHash);
  });

  it('rejects tokens of another shape', () => {
    for (const bad of ['cin_ABCDEFGH_' + 'a'.repeat(32), 'cin_abcdefgh_short', 'xyz_abcdefgh_' + 'a'.repeat(32), '']) {
      expect(parseToken(bad)).toBeNull();
    }
  });
});

describe('passwords', () => {
  it('verify only the password they were made from', async () => {
    const stored = await hashPassword('correct horse');
    expect(stored.startsWith('$argon2id$')).toBe(true);
    expect(await verifyPassword('correct horse', stored)).toBe(true);
    expect(await verifyPassword('wrong horse', stored)).toBe(false);
  });
});

describe('parseTimestamp', () => {
  it('normalises offsets to UTC milliseconds', () => {
    expect(parseTimestamp('2026-11-21T12:00:00+02:00', 'due_at')).toBe('2026-11-21T10:00:00.000Z');
  });
});
