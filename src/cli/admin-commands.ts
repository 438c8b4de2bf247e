import type { Services } from '../container.js';
import type { Plan } from '../db/schema.js';
import { parseScopeList } from '../modules/keys/scopes.js';

export class UsageError extends Error {
  override readonly name = 'UsageError';
}

export type Flags = Record<string, string | undefined>;

const need = (flags: Flags, name: string): string => {
  const value = flags[name];
  if (value === undefined || value === '') throw new UsageError(`--${name} is required`);
  return value;
};

function plan(value: string | undefined): Plan | undefined {
  if (value === undefined) return undefined;
  if (value !== 'free' && value !== 'pro') throw new UsageError('--plan must be free or pro');
  return value;
}

function scopeList(value: string): ReturnType<typeof parseScopeList> {
  try {
    return parseScopeList(value);
  } catch (error) {
    throw new UsageError(`--scopes: ${(error as Error).message}`);
  }
}

function expiryDays(value: string): number {
  if (!/^[1-9][0-9]{0,3}$/.test(value)) throw new UsageError('--expires-in-days must be a whole number of days from 1 to 3650');
  return Number(value);
}

/** Each command returns the one JSON value it prints; operations.md fixes the names and shapes. */
export const COMMANDS: Record<string, (services: Services, flags: Flags) => Promise<unknown>> = {
  'user create': (s, f) =>
    s.users.create({ email: need(f, 'email'), ...(f.password ? { password: f.password } : {}), plan: plan(f.plan) ?? 'free' }),
  'user set-plan': (s, f) => s.users.setPlan(need(f, 'email'), plan(need(f, 'plan')) as Plan),
  'key create': async (s, f) => {
    const scopes = f.scopes === undefined ? undefined : scopeList(f.scopes);
    const days = f['expires-in-days'] === undefined ? undefined : expiryDays(f['expires-in-days']);
    const user = await s.users.requireByEmail(need(f, 'email'));
    const key = await s.keys.mint(user.id, f.label ?? 'admin CLI', { ...(scopes ? { scopes } : {}), ...(days !== undefined ? { expiresInDays: days } : {}) });
    // operations.md fixes key_id and token; scopes and expires_at are added beside them.
    return { key_id: key.key_id, token: key.token, scopes: key.scopes, expires_at: key.expires_at };
  },
  'key revoke': async (s, f) => {
    const keyId = need(f, 'key-id');
    await s.keys.revoke(keyId);
    return { key_id: keyId, revoked: true };
  },
};
