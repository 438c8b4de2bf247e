import type { Db, Executor, Plan } from '../../db/schema.js';
import { isUniqueViolation } from '../../db/errors.js';
import { AppError, badRequest, notFound } from '../../errors.js';
import type { Clock } from '../../lib/clock.js';
import type { IdGenerator } from '../../lib/ids.js';
import { hashPassword, needsRehash } from '../../lib/passwords.js';
import { toTimestamp } from '../../lib/timestamps.js';
import type { ProjectsService } from '../projects/projects.service.js';
import { canonicalTimeZone } from './timezones.js';
import { findFirstUserId, findUserByEmailKey, findUserById, insertUser, listUsers, replacePasswordHash, updateUser, type UserRow } from './users.repository.js';

export interface UserView {
  id: string;
  email: string;
  plan: Plan;
}

export interface MeView {
  id: string;
  email: string;
  is_pro: boolean;
  plan: Plan;
  timezone: string;
  /** Minutes before due_at that a reminder is set when none is given, or null (contract "Reminders"). */
  reminder_default: number | null;
  created_at: string;
}

/** A line of `admin user list` and a row of the admin page. */
export interface UserListEntry extends UserView {
  created_at: string;
  /** The first user of the server: sees the admin page. */
  owner: boolean;
}

export interface CreateUserInput {
  email: string;
  password?: string;
  plan?: Plan;
  timezone?: string;
}

export interface UsersService {
  create(input: CreateUserInput): Promise<UserView>;
  setPlan(email: string, plan: Plan): Promise<UserView>;
  setPlanById(id: string, plan: Plan): Promise<UserView>;
  /** Stores an already hashed password (the accounts service checks and hashes it). */
  setPasswordHash(id: string, passwordHash: string): Promise<void>;
  list(): Promise<UserListEntry[]>;
  isOwner(userId: string): Promise<boolean>;
  requireByEmail(email: string): Promise<UserRow>;
  me(userId: string): Promise<MeView>;
  updateMe(userId: string, input: { timezone?: string; reminder_default?: number | null }): Promise<MeView>;
  /**
   * After a successful sign-in: re-hashes the password when its stored hash is of an older scheme
   * or weaker parameters (the only moment the password is known).
   */
  upgradePasswordHash(userId: string, storedHash: string, password: string): Promise<void>;
}

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
export const emailKey = (email: string): string => email.trim().toLowerCase();

const toUserView = (row: UserRow): UserView => ({ id: row.id, email: row.email, plan: row.plan });
const toMeView = (row: UserRow): MeView => ({
  id: row.id,
  email: row.email,
  is_pro: row.plan === 'pro',
  plan: row.plan,
  timezone: row.timezone,
  reminder_default: row.reminder_default,
  created_at: row.created_at,
});

function requireTimeZone(name: string): string {
  const zone = canonicalTimeZone(name);
  if (!zone) throw badRequest(`timezone "${name}" is not an IANA time zone name such as Europe/Berlin`, 'timezone');
  return zone;
}

/** The items' side of a timezone change: all-day items keep their calendar day (contract "All-day dates"). */
export interface AllDayItemsPort {
  moveAllDay(trx: Executor, userId: string, from: string, to: string): Promise<void>;
}

export function createUsersService(deps: { db: Db; clock: Clock; newId: IdGenerator; projects: ProjectsService; allDayItems: AllDayItemsPort }): UsersService {
  const { db } = deps;

  async function requireById(id: string): Promise<UserRow> {
    const row = await findUserById(db, id);
    if (!row) throw notFound('user');
    return row;
  }

  async function requireByEmail(email: string): Promise<UserRow> {
    const row = await findUserByEmailKey(db, emailKey(email));
    if (!row) throw notFound(`user ${email}`);
    return row;
  }

  return {
    async create(input) {
      const email = input.email.trim();
      if (!EMAIL.test(email) || email.length > 254) throw badRequest('email is not a valid address', 'email');
      const now = toTimestamp(deps.clock.now());
      const row: UserRow = {
        id: deps.newId(),
        email,
        email_key: emailKey(email),
        plan: input.plan ?? 'free',
        timezone: input.timezone ? requireTimeZone(input.timezone) : 'UTC',
        password_hash: input.password ? await hashPassword(input.password) : null,
        reminder_default: null,
        created_at: now,
        updated_at: now,
      };
      try {
        // The Inbox is created with the user, so no user ever exists without one.
        await db.transaction().execute(async (trx) => {
          // reminder_default is left to its column default (null): a user is made with the core
          // columns only, which search-migration.test relies on after rolling the schema back.
          const { reminder_default: _none, ...stored } = row;
          await insertUser(trx, stored);
          await deps.projects.createInbox(trx, row.id);
        });
      } catch (error) {
        if (isUniqueViolation(error)) throw new AppError('conflict', `a user with email ${email} already exists`);
        throw error;
      }
      return toUserView(row);
    },

    async setPlan(email, plan) {
      const row = await requireByEmail(email);
      await updateUser(db, row.id, { plan, updated_at: toTimestamp(deps.clock.now()) });
      return toUserView({ ...row, plan });
    },

    async setPlanById(id, plan) {
      const row = await requireById(id);
      await updateUser(db, row.id, { plan, updated_at: toTimestamp(deps.clock.now()) });
      return toUserView({ ...row, plan });
    },

    async setPasswordHash(id, passwordHash) {
      await updateUser(db, id, { password_hash: passwordHash, updated_at: toTimestamp(deps.clock.now()) });
    },

    async list() {
      const rows = await listUsers(db);
      return rows.map((row, i) => ({ id: row.id, email: row.email, plan: row.plan, created_at: row.created_at, owner: i === 0 }));
    },

    async isOwner(userId) {
      return (await findFirstUserId(db)) === userId;
    },

    requireByEmail,

    async me(userId) {
      return toMeView(await requireById(userId));
    },

    async updateMe(userId, input) {
      const row = await requireById(userId);
      const timezone = input.timezone === undefined ? row.timezone : requireTimeZone(input.timezone);
      const reminderDefault = input.reminder_default === undefined ? row.reminder_default : input.reminder_default;
      if (timezone === row.timezone && reminderDefault === row.reminder_default) return toMeView(row);
      // One transaction: the new zone and the all-day items moved to their same days in it.
      await db.transaction().execute(async (trx) => {
        await updateUser(trx, userId, { timezone, reminder_default: reminderDefault, updated_at: toTimestamp(deps.clock.now()) });
        if (timezone !== row.timezone) await deps.allDayItems.moveAllDay(trx, userId, row.timezone, timezone);
      });
      return toMeView({ ...row, timezone, reminder_default: reminderDefault });
    },

    async upgradePasswordHash(userId, storedHash, password) {
      if (!needsRehash(storedHash)) return;
      await replacePasswordHash(db, userId, storedHash, await hashPassword(password));
    },
  };
}
