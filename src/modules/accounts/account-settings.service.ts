import { createHash } from 'node:crypto';
import type { Db } from '../../db/schema.js';
import { AppError, badRequest, notFound } from '../../errors.js';
import type { Clock } from '../../lib/clock.js';
import { hashPassword, verifyPassword } from '../../lib/passwords.js';
import { toTimestamp } from '../../lib/timestamps.js';
import type { EventsService } from '../events/events.service.js';
import type { LimitsService } from '../limits/limits.service.js';
import { emailKey, type UsersService } from '../users/users.service.js';
import { deleteUserAndData } from './account-deletion.repository.js';
import { PASSWORD_MAX, PASSWORD_MIN, SESSION_IDLE_MS } from './accounts.service.js';
import { deleteOtherSessions, deleteSessionOfUser, findSessionsOfUser } from './sessions.repository.js';

export interface SessionSummary {
  /** The stored id (the SHA-256 of the cookie's token): it signs nobody in. */
  id: string;
  created_at: string;
  last_seen_at: string;
  current: boolean;
}

/** What a signed-in user changes about their own account from the account page. */
export interface AccountSettingsService {
  /** Needs the current password; every other session of the user ends, this one stays. */
  changePassword(input: { userId: string; email: string; sessionToken: string; current: string; next: string; ip: string }): Promise<void>;
  sessions(userId: string, sessionToken: string): Promise<SessionSummary[]>;
  endSession(userId: string, sessionId: string): Promise<void>;
  /**
   * Deletes the user and everything of theirs in one transaction: items, projects, tags, keys
   * (refused from the next request on), webhooks, sessions. `confirmation` must be their email.
   */
  deleteAccount(input: { userId: string; email: string; confirmation: string }): Promise<void>;
}

const hashToken = (token: string): string => createHash('sha256').update(token, 'utf8').digest('hex');

export function createAccountSettingsService(deps: {
  db: Db;
  clock: Clock;
  users: UsersService;
  limits: LimitsService;
  events: Pick<EventsService, 'forgetUser'>;
}): AccountSettingsService {
  const { db, clock, users } = deps;
  return {
    async changePassword({ userId, email, sessionToken, current, next, ip }) {
      // Guessing the current password from a stolen session is throttled like signing in.
      const decision = await deps.limits.checkLoginAttempt(emailKey(email), ip);
      if (!decision.allowed)
        throw new AppError('rate_limited', `too many attempts; try again in ${Math.ceil(decision.retryAfter / 60)} minutes`, {
          headers: { 'retry-after': String(decision.retryAfter) },
        });
      const row = await users.requireByEmail(email);
      if (row.id !== userId || !row.password_hash || !(await verifyPassword(current, row.password_hash))) {
        throw badRequest('the current password is wrong', 'current_password');
      }
      const length = Array.from(next).length;
      if (length < PASSWORD_MIN || length > PASSWORD_MAX)
        throw badRequest(`the new password must be ${PASSWORD_MIN} to ${PASSWORD_MAX} characters`, 'new_password');
      await users.setPasswordHash(userId, await hashPassword(next));
      await deleteOtherSessions(db, userId, hashToken(sessionToken));
    },

    async sessions(userId, sessionToken) {
      const now = clock.now();
      const idleSince = now.getTime() - SESSION_IDLE_MS;
      const current = hashToken(sessionToken);
      const rows = await findSessionsOfUser(db, userId, toTimestamp(now));
      return rows
        .map((r) => ({ id: r.id, created_at: r.created_at, last_seen_at: r.last_seen_at ?? r.created_at, current: r.id === current }))
        .filter((s) => Date.parse(s.last_seen_at) > idleSince);
    },

    async endSession(userId, sessionId) {
      if (!/^[0-9a-f]{64}$/.test(sessionId) || (await deleteSessionOfUser(db, userId, sessionId)) === 0) throw notFound('session');
    },

    async deleteAccount({ userId, email, confirmation }) {
      if (emailKey(confirmation) !== emailKey(email)) throw badRequest('type your email address exactly to confirm', 'confirmation');
      if (await users.isOwner(userId)) {
        throw new AppError('access_denied', "the server's owner cannot delete their account here: the next oldest account would become the owner");
      }
      await db.transaction().execute(async (trx) => {
        await deps.events.forgetUser(trx, userId);
        await deleteUserAndData(trx, userId);
      });
    },
  };
}
