import type { Db, Executor } from '../../db/schema.js';
import { notFound } from '../../errors.js';
import { clampLimit, decodeCursor, encodeCursor } from '../../lib/cursor.js';
import type { IdGenerator } from '../../lib/ids.js';
import { isUuid } from '../../lib/ids.js';
import { countCompletions, findCompletionsPage, findUserCompletions, findUserTimePrefs, insertCompletions, itemExists } from './recurrence.repository.js';

export { checkRecurrence } from './rrule-subset.js';
export { nextOccurrence } from './next-occurrence.js';

/** The reminder time the user's reminder_default gives a due date (null: no automatic reminder). */
export function defaultRemindAt(dueAt: string, minutesBefore: number | null): string | null {
  return minutesBefore === null ? null : new Date(Date.parse(dueAt) - minutesBefore * 60_000).toISOString();
}

export interface Completion {
  completed_at: string;
  due_at: string | null;
}

export interface RecurrenceService {
  /** The user's zone and default reminder, read in the caller's transaction. */
  prefs(trx: Executor, userId: string): Promise<{ timezone: string; reminder_default: number | null }>;
  completedCounts(trx: Executor, userId: string, itemIds: readonly string[]): Promise<Map<string, number>>;
  recordCompletions(trx: Executor, userId: string, rows: ReadonlyArray<Completion & { item_id: string }>): Promise<void>;
  /** GET /items/{id}/completions: newest first. */
  completions(userId: string, itemId: string, query: { limit?: number; cursor?: string }): Promise<{ completions: Completion[]; next_cursor: string | null }>;
  /** Export: every completion of the user's items. */
  allCompletions(db: Executor, userId: string): Promise<Array<Completion & { item_id: string }>>;
}

const ORDERING = 'completions';

export function createRecurrenceService(deps: { db: Db; newId: IdGenerator }): RecurrenceService {
  return {
    prefs: findUserTimePrefs,
    completedCounts: countCompletions,
    recordCompletions: (trx, userId, rows) =>
      insertCompletions(
        trx,
        rows.map((r) => ({ id: deps.newId(), user_id: userId, item_id: r.item_id, due_at: r.due_at, completed_at: r.completed_at })),
      ),
    async completions(userId, itemId, query) {
      if (!isUuid(itemId) || !(await itemExists(deps.db, userId, itemId))) throw notFound('item');
      const limit = clampLimit(query.limit, 50, 200);
      const after = query.cursor === undefined ? undefined : decodeCursor(ORDERING, query.cursor);
      const rows = await findCompletionsPage(deps.db, userId, itemId, after ? { key: after.k, id: after.id } : undefined, limit);
      const page = rows.slice(0, limit);
      const last = page[page.length - 1];
      return {
        completions: page.map((r) => ({ completed_at: r.completed_at, due_at: r.due_at })),
        next_cursor: rows.length > limit && last ? encodeCursor(ORDERING, { k: last.completed_at, id: last.id }) : null,
      };
    },
    allCompletions: findUserCompletions,
  };
}
