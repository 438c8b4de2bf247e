import { createHash, randomBytes } from 'node:crypto';
import type { Db, Plan } from '../../db/schema.js';
import { AppError, badRequest } from '../../errors.js';
import type { Clock } from '../../lib/clock.js';
import { hashPassword, verifyPassword } from '../../lib/passwords.js';
import { toTimestamp } from '../../lib/timestamps.js';
import type { LimitsService } from '../limits/limits.service.js';
import { canonicalTimeZone } from '../users/timezones.js';
import { emailKey, type UserView, type UsersService } from '../users/users.service.js';
import type { InstanceService } from '../instance/instance.service.js';
import { deleteSession, deleteSessionsExpiredBy, deleteSessionsOfUser, findLiveSession, insertSession, touchSession } from './sessions.repository.js';

/** A signed-in browser stays signed in this long (signing out ends it at once). */
export const SESSION_TTL_MS = 30 * 24 * 60 * 60_000;
/** ...unless the browser stays away this long: a forgotten session on a shared computer ends by itself. */
export const SESSION_IDLE_MS = 7 * 24 * 60 * 60_000;
/** Recording every request would make each page view a write; a minute's precision is enough. */
const SEEN_PRECISION_MS = 60_000;
export const PASSWORD_MIN = 8;
/** Argon2's cost barely depends on length, but nobody needs more, and bodies stay small. */
export const PASSWORD_MAX = 256;

export interface SessionUser {
  id: string;
  email: string;
  plan: Plan;
  timezone: string;
}

export interface AccountsService {
  /** Creates the user (with their Inbox) and signs them in; answers the session cookie's token. */
  signUp(input: { email: string; password: string; timezone?: string; ip: string }): Promise<{ token: string; user: SessionUser }>;
  signIn(input: { email: string; password: string; ip: string }): Promise<{ token: string; user: SessionUser }>;
  signOut(token: string): Promise<void>;
  /**
   * A user made by the operator (the admin CLI): with no plan given, the server's owner (its first
   * account) is Pro and others get DEFAULT_PLAN, as on sign-up. Without a password the user has
   * only API keys: no web sign-in until one is set.
   */
  createUser(input: { email: string; password?: string; plan?: Plan }): Promise<UserView>;
  /** A new password (the admin CLI's set-password): every web session of the user ends. */
  setPassword(email: string, password: string): Promise<{ id: string; email: string }>;
  /** The user of a live session, or null for an unknown, expired or signed-out token. */
  resolve(token: string): Promise<SessionUser | null>;
}

/** The answer to a sign-up with an email that has an account: it names no account. */
const NEUTRAL_SIGNUP_REFUSAL = 'No account could be created with these details. If you already have an account, sign in instead.';

/** Only the hash of a session token is stored: a copy of the database signs nobody in. */
const hashToken = (token: string): string => createHash('sha256').update(token, 'utf8').digest('hex');
const TOKEN = /^[A-Za-z0-9_-]{43}$/;

function checkPasswordLength(password: string): void {
  const length = Array.from(password).length;
  if (length < PASSWORD_MIN || length > PASSWORD_MAX) {
    throw badRequest(`password must be ${PASSWORD_MIN} to ${PASSWORD_MAX} characters`, 'password');
  }
}

export function createAccountsService(deps: { db: Db; clock: Clock; users: UsersService; limits: LimitsService; instance: InstanceService }): AccountsService {
  const { db, clock, users, limits } = deps;
  // Unknown emails still pay for one password hash, so the answer's timing does not tell which exist.
  let decoy: Promise<string> | undefined;

  async function throttle(email: string | null, ip: string): Promise<void> {
    const decision = await limits.checkLoginAttempt(email === null ? null : emailKey(email), ip);
    if (decision.allowed) return;
    const minutes = Math.ceil(decision.retryAfter / 60);
    throw new AppError('rate_limited', `too many attempts; try again in ${minutes} minute${minutes === 1 ? '' : 's'}`, {
      fields: { retry_after: decision.retryAfter },
      headers: { 'retry-after': String(decision.retryAfter) },
    });
  }

  /**
   * The server's owner (its first account) gets Pro whatever DEFAULT_PLAN says: whoever runs a
   * server should not meet its Free limits on their own data. Later accounts follow DEFAULT_PLAN.
   */
  async function ownerIsPro(created: UserView): Promise<UserView> {
    if (created.plan === 'pro' || !(await users.isOwner(created.id))) return created;
    return users.setPlanById(created.id, 'pro');
  }

  async function openSession(user: SessionUser): Promise<{ token: string; user: SessionUser }> {
    const token = randomBytes(32).toString('base64url');
    const at = clock.now();
    await db.transaction().execute(async (trx) => {
      await deleteSessionsExpiredBy(trx, toTimestamp(at));
      await insertSession(trx, {
        id: hashToken(token),
        user_id: user.id,
        created_at: toTimestamp(at),
        expires_at: toTimestamp(new Date(at.getTime() + SESSION_TTL_MS)),
        last_seen_at: toTimestamp(at),
      });
    });
    return { token, user };
  }

  return {
    async signUp({ email, password, timezone, ip }) {
      await throttle(null, ip);
      if (!(await deps.instance.signup()).open) {
        throw new AppError('access_denied', 'sign-up is closed on this server; its owner creates accounts');
      }
      checkPasswordLength(password);
      // The browser's zone is a convenience; one Node does not know is dropped, not an error.
      const zone = timezone ? canonicalTimeZone(timezone) : null;
      const created = await users.create({ email, password, plan: deps.instance.defaultPlan, ...(zone ? { timezone: zone } : {}) }).catch((error: unknown) => {
        // Never "this email already exists": the form must not tell a stranger who has an account.
        if (error instanceof AppError && error.code === 'conflict') throw new AppError('bad_request', NEUTRAL_SIGNUP_REFUSAL);
        throw error;
      });
      await ownerIsPro(created);
      const row = await users.requireByEmail(created.email);
      return openSession({ id: row.id, email: row.email, plan: row.plan, timezone: row.timezone });
    },

    async createUser({ email, password, plan }) {
      if (password !== undefined) checkPasswordLength(password);
      const created = await users.create({ email, ...(password !== undefined ? { password } : {}), plan: plan ?? deps.instance.defaultPlan });
      return plan === undefined ? ownerIsPro(created) : created;
    },

    async signIn({ email, password, ip }) {
      await throttle(email, ip);
      const wrong = new AppError('unauthorized', 'the email or the password is wrong');
      const row = await users.requireByEmail(email).catch((error: unknown) => {
        if (error instanceof AppError && error.code === 'not_found') return undefined;
        throw error;
      });
      if (!row?.password_hash) {
        decoy ??= hashPassword(randomBytes(16).toString('hex'));
        await verifyPassword(password, await decoy);
        throw wrong;
      }
      if (!(await verifyPassword(password, row.password_hash))) throw wrong;
      await users.upgradePasswordHash(row.id, row.password_hash, password);
      return openSession({ id: row.id, email: row.email, plan: row.plan, timezone: row.timezone });
    },

    async setPassword(email, password) {
      checkPasswordLength(password);
      const row = await users.requireByEmail(email);
      await users.setPasswordHash(row.id, await hashPassword(password));
      await deleteSessionsOfUser(db, row.id);
      return { id: row.id, email: row.email };
    },

    async signOut(token) {
      if (TOKEN.test(token)) await deleteSession(db, hashToken(token));
    },

    async resolve(token) {
      if (!TOKEN.test(token)) return null;
      const now = clock.now();
      const id = hashToken(token);
      const found = await findLiveSession(db, id, toTimestamp(now), toTimestamp(new Date(now.getTime() - SESSION_IDLE_MS)));
      if (found && now.getTime() - Date.parse(found.seen_at) >= SEEN_PRECISION_MS) await touchSession(db, id, toTimestamp(now));
      return found ? { id: found.user_id, email: found.email, plan: found.plan, timezone: found.timezone } : null;
    },
  };
}
