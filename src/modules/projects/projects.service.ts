import type { DialectName } from '../../db/create-db.js';
import type { Db, Executor } from '../../db/schema.js';
import { isUniqueViolation } from '../../db/errors.js';
import { AppError, badRequest, notFound } from '../../errors.js';
import type { Clock } from '../../lib/clock.js';
import { isUuid, type IdGenerator } from '../../lib/ids.js';
import { toTimestamp } from '../../lib/timestamps.js';
import {
  deleteProjectById,
  findDefaultProject,
  findProjectById,
  findProjectByKey,
  findProjectsWithCounts,
  foldCountDeltas,
  hasCountDeltas,
  insertProject,
  updateProjectName,
  type ProjectRow,
  type ProjectWithCount,
} from './projects.repository.js';

const INBOX_NAME = 'Inbox';
const NAME_MAX = 100;

export interface ProjectView {
  id: string;
  name: string;
  is_default: boolean;
  item_count: number;
  /** Open, unarchived items: what the web app shows beside a project. Not in the API's shape (its schema leaves it out). */
  open_count: number;
  created_at: string;
  updated_at: string;
}

/** Moves every item of one project to another, with each item's events, inside `trx`. */
export type ProjectItemsMover = (trx: Executor, userId: string, fromProjectId: string, toProjectId: string) => Promise<void>;

export interface ProjectsService {
  createInbox(trx: Executor, userId: string): Promise<void>;
  /** The project, or 404 when the id is malformed, unknown or another user's. */
  requireProject(db: Executor, userId: string, id: string): Promise<ProjectRow>;
  requireInbox(db: Executor, userId: string): Promise<ProjectRow>;
  /** The id of the user's Inbox, remembered: it is made with the user and never changes or goes. */
  inboxId(userId: string): Promise<string>;
  list(userId: string): Promise<ProjectView[]>;
  get(userId: string, id: string): Promise<ProjectView>;
  findOrCreate(userId: string, name: string): Promise<ProjectView>;
  /** Inside the caller's transaction (imports): the project of that name, created when missing. */
  findOrCreateIn(trx: Executor, userId: string, name: string): Promise<{ id: string; created: boolean }>;
  rename(userId: string, id: string, name: string): Promise<ProjectView>;
  remove(userId: string, id: string): Promise<void>;
}

/** Inbox ids remembered by inboxId(): a capture into the Inbox then needs no lookup. */
const INBOX_IDS_KEPT = 10_000;

const nameKey = (name: string): string => name.toLowerCase();

function cleanName(raw: string): string {
  const name = raw.trim();
  const length = Array.from(name).length;
  if (length < 1 || length > NAME_MAX) throw badRequest(`name must be 1 to ${NAME_MAX} characters`, 'name');
  return name;
}

const toView = (row: ProjectWithCount): ProjectView => ({
  id: row.id,
  name: row.name,
  is_default: Boolean(row.is_default),
  item_count: row.item_count,
  open_count: row.open_count,
  created_at: row.created_at,
  updated_at: row.updated_at,
});

function byDefaultThenName(a: ProjectView, b: ProjectView): number {
  if (a.is_default !== b.is_default) return a.is_default ? -1 : 1;
  const [la, lb] = [a.name.toLowerCase(), b.name.toLowerCase()];
  return la < lb ? -1 : la > lb ? 1 : a.created_at.localeCompare(b.created_at);
}

export function createProjectsService(deps: { db: Db; dialect: DialectName; clock: Clock; newId: IdGenerator; moveItems: ProjectItemsMover }): ProjectsService {
  const { db } = deps;
  const now = () => toTimestamp(deps.clock.now());
  const inboxIds = new Map<string, string>();

  /** The kept counts, current: PostgreSQL's pending changes folded in first (decision 0096). */
  async function withCounts(userId: string, id?: string) {
    if (await hasCountDeltas(db, deps.dialect, userId)) await db.transaction().execute((trx) => foldCountDeltas(trx, userId));
    return findProjectsWithCounts(db, userId, id);
  }

  async function view(userId: string, id: string): Promise<ProjectView> {
    // A malformed id is a 404 like an unknown one, and never reaches the database (PostgreSQL refuses NUL bytes).
    const [row] = isUuid(id) ? await withCounts(userId, id) : [];
    if (!row) throw notFound('project');
    return toView(row);
  }

  async function requireProject(executor: Executor, userId: string, id: string): Promise<ProjectRow> {
    const row = isUuid(id) ? await findProjectById(executor, userId, id) : undefined;
    if (!row) throw notFound('project');
    return row;
  }

  return {
    async createInbox(trx, userId) {
      const at = now();
      await insertProject(trx, {
        id: deps.newId(),
        user_id: userId,
        name: INBOX_NAME,
        name_key: nameKey(INBOX_NAME),
        is_default: 1,
        created_at: at,
        updated_at: at,
      });
    },

    requireProject,

    async requireInbox(executor, userId) {
      const row = await findDefaultProject(executor, userId);
      if (!row) throw new Error(`user ${userId} has no Inbox project`);
      return row;
    },

    async inboxId(userId) {
      const known = inboxIds.get(userId);
      if (known) return known;
      const row = await findDefaultProject(db, userId);
      if (!row) throw new Error(`user ${userId} has no Inbox project`);
      const { id } = row;
      // Bounded: the oldest entry goes first (a Map keeps insertion order).
      if (inboxIds.size >= INBOX_IDS_KEPT) inboxIds.delete(inboxIds.keys().next().value!);
      inboxIds.set(userId, id);
      return id;
    },

    async list(userId) {
      const rows = await withCounts(userId);
      return rows.map(toView).sort(byDefaultThenName);
    },

    get: view,

    async findOrCreate(userId, rawName) {
      const name = cleanName(rawName);
      const existing = await findProjectByKey(db, userId, nameKey(name));
      if (existing) return view(userId, existing.id);
      const at = now();
      const id = deps.newId();
      const inserted = await insertProject(db, { id, user_id: userId, name, name_key: nameKey(name), is_default: 0, created_at: at, updated_at: at });
      if (inserted) return view(userId, id);
      const winner = await findProjectByKey(db, userId, nameKey(name));
      if (!winner) throw new Error('project vanished after a conflicting insert');
      return view(userId, winner.id);
    },

    async findOrCreateIn(trx, userId, rawName) {
      const name = cleanName(rawName);
      const existing = await findProjectByKey(trx, userId, nameKey(name));
      if (existing) return { id: existing.id, created: false };
      const at = now();
      const id = deps.newId();
      if (await insertProject(trx, { id, user_id: userId, name, name_key: nameKey(name), is_default: 0, created_at: at, updated_at: at })) {
        return { id, created: true };
      }
      const winner = await findProjectByKey(trx, userId, nameKey(name));
      if (!winner) throw new Error('project vanished after a conflicting insert');
      return { id: winner.id, created: false };
    },

    async rename(userId, id, rawName) {
      const name = cleanName(rawName);
      const project = await requireProject(db, userId, id);
      if (project.name === name) return view(userId, id);
      if (project.is_default) throw badRequest(`the ${INBOX_NAME} project cannot be renamed`, 'name');
      const clash = await findProjectByKey(db, userId, nameKey(name));
      if (clash && clash.id !== id) throw new AppError('conflict', `a project named "${clash.name}" already exists`);
      try {
        await updateProjectName(db, userId, id, name, nameKey(name), now());
      } catch (error) {
        if (isUniqueViolation(error)) throw new AppError('conflict', `a project named "${name}" already exists`);
        throw error;
      }
      return view(userId, id);
    },

    async remove(userId, id) {
      const project = await requireProject(db, userId, id);
      if (project.is_default) throw badRequest(`the ${INBOX_NAME} project cannot be deleted`);
      await db.transaction().execute(async (trx) => {
        const inbox = await findDefaultProject(trx, userId);
        if (!inbox) throw new Error(`user ${userId} has no Inbox project`);
        await deps.moveItems(trx, userId, id, inbox.id);
        await deleteProjectById(trx, userId, id);
      });
    },
  };
}
