import type { Services } from '../container.js';
import type { Plan } from '../db/schema.js';

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

/** Each command returns the one JSON value it prints; operations.md fixes the names and shapes. */
export const COMMANDS: Record<string, (services: Services, flags: Flags) => Promise<unknown>> = {
  'user create': (s, f) =>
    s.users.create({ email: need(f, 'email'), ...(f.password ? { password: f.password } : {}), plan: plan(f.plan) ?? 'free' }),
  'user set-plan': (s, f) => s.users.setPlan(need(f, 'email'), plan(need(f, 'plan')) as Plan),
  'key create': async (s, f) => {
    const user = await s.users.requireByEmail(need(f, 'email'));
    return s.keys.mint(user.id, f.label ?? 'admin CLI');
  },
  'key revoke': async (s, f) => {
    const keyId = need(f, 'key-id');
    await s.keys.revoke(keyId);
    return { key_id: keyId, revoked: true };
  },
};
