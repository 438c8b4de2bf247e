import { sql } from 'kysely';
import type { DialectName } from '../../db/create-db.js';
import { afterKeyset } from '../../db/keyset.js';
import type { Executor } from '../../db/schema.js';
import type { CursorKey } from '../../lib/cursor.js';
import { ITEM_VIEW_COLUMNS, tagNamesJson, type TaggedViewRow } from './item-view.js';

/*
 * The list pages' reads (web Today, Upcoming, Inbox, a project, subtasks under their parents): each
 * a page of a user's items in the order the page shows them, with their tag names. Decisions 0109
 * (done today) and 0111 (SQLite without statistics) say why some are written as they are.
 */

/** Open means neither done nor archived; outside `archived`, status is `done` exactly when the item is completed. */
const OPEN_STATUSES = ['backlog', 'todo', 'doing'] as const;
/** The same, as literals in the SQL: the partial indexes' own condition (see agendaQuery). */
const OPEN_STATUS_LITERALS = OPEN_STATUSES.map((s) => sql.lit(s));

export interface AgendaQuery {
  /** Due at or after this instant; absent: everything due before `dueBefore`, overdue included. */
  dueFrom?: string;
  dueBefore: string;
  limit: number;
}

/**
 * Open items due in a window, soonest first (overdue first): the web's Today and Upcoming. The open
 * statuses are literals, the condition of the partial index of open items by due date (migration
 * 2026-11-30-0600): PostgreSQL's generic plan cannot prove it from bound values (decision 0109) and
 * took the index of every item by due date, whose overdue range holds every done item ever due.
 */
export function agendaQuery(db: Executor, dialect: DialectName, userId: string, q: AgendaQuery) {
  let query = db
    .selectFrom('items')
    .select([...ITEM_VIEW_COLUMNS, tagNamesJson(dialect).as('tag_names')])
    .where('user_id', '=', userId)
    .where('status', 'in', OPEN_STATUS_LITERALS)
    .where('due_at', 'is not', null)
    .where('due_at', '<', q.dueBefore);
  if (q.dueFrom !== undefined) query = query.where('due_at', '>=', q.dueFrom);
  return query.orderBy('due_at', 'asc').orderBy('id', 'asc').limit(q.limit);
}

export async function findAgendaItems(db: Executor, dialect: DialectName, userId: string, q: AgendaQuery): Promise<TaggedViewRow[]> {
  return agendaQuery(db, dialect, userId, q).execute();
}

/** "Done today": done items changed at or after `since`, latest first; `'done'` a literal, the partial index's own condition (migration 2026-11-30-1300). */
export function doneSinceQuery(db: Executor, dialect: DialectName, userId: string, since: string, limit: number) {
  return db
    .selectFrom('items')
    .select([...ITEM_VIEW_COLUMNS, tagNamesJson(dialect).as('tag_names')])
    .where('user_id', '=', userId)
    .where('status', '=', sql.lit('done'))
    .where('updated_at', '>=', since)
    .orderBy('updated_at', 'desc')
    .orderBy('id', 'desc')
    .limit(limit);
}

export async function findDoneSince(db: Executor, dialect: DialectName, userId: string, since: string, limit: number): Promise<TaggedViewRow[]> {
  return doneSinceQuery(db, dialect, userId, since, limit).execute();
}

export interface OpenQuery {
  projectId?: string;
  /** Only items that are nobody's subtask (their subtasks are read with findOpenChildren). */
  topLevel: boolean;
  /** Keyset: created_at and id of the last row of the previous page. */
  after?: CursorKey;
  limit: number;
}

/** Open items, newest first: a project's list and the Inbox's triage queue. One row more than asked. */
export function openItemsQuery(db: Executor, dialect: DialectName, userId: string, q: OpenQuery) {
  let query = db
    .selectFrom('items')
    .select([...ITEM_VIEW_COLUMNS, tagNamesJson(dialect).as('tag_names')])
    .where('user_id', '=', userId)
    .where('status', 'in', OPEN_STATUSES);
  if (q.projectId !== undefined) query = query.where('project_id', '=', q.projectId);
  if (q.topLevel) {
    // SQLite plans without statistics (decision 0111): `parent_id is null` looks as selective as the
    // project, and its index (user, parent, created) walks every top-level item of the account to
    // fill one project's page. `+` keeps the term off the indexes; the project's index does the walk.
    query = query.where(dialect === 'sqlite' && q.projectId !== undefined ? sql<string | null>`+parent_id` : 'parent_id', 'is', null);
  }
  const after = q.after;
  if (after) query = query.where((eb) => afterKeyset(eb, 'created_at', 'id', 'desc', after.k, after.id));
  return query
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(q.limit + 1);
}

export async function findOpenItems(db: Executor, dialect: DialectName, userId: string, q: OpenQuery): Promise<TaggedViewRow[]> {
  return openItemsQuery(db, dialect, userId, q).execute();
}

/** The subtasks of many items (at least one id), not archived, oldest first (the order they were added in). */
export function childrenOfQuery(db: Executor, dialect: DialectName, userId: string, parentIds: readonly string[]) {
  return (
    db
      .selectFrom('items')
      .select([...ITEM_VIEW_COLUMNS, tagNamesJson(dialect).as('tag_names')])
      .where('user_id', '=', userId)
      .where('parent_id', 'in', parentIds)
      .where('status', '<>', 'archived')
      // SQLite plans without statistics (decision 0111) and would walk every item of the user in
      // creation order to skip a sort of a few dozen; `+` leaves the order to a sort after the lookup.
      .orderBy(dialect === 'sqlite' ? sql`+created_at` : sql.ref('created_at'), 'asc')
      .orderBy('id', 'asc')
      .limit(1000)
  );
}

export async function findChildrenOf(db: Executor, dialect: DialectName, userId: string, parentIds: readonly string[]): Promise<TaggedViewRow[]> {
  return parentIds.length === 0 ? [] : childrenOfQuery(db, dialect, userId, parentIds).execute();
}
