import type { Db } from '../../db/schema.js';
import { badRequest } from '../../errors.js';
import type { Clock } from '../../lib/clock.js';
import { clampLimit, decodeCursor, encodeCursor } from '../../lib/cursor.js';
import { parseTimestamp } from '../../lib/timestamps.js';
import type { ItemPrecondition } from '../items/item-etag.js';
import type { ItemView } from '../items/item-view.js';
import type { ItemsService } from '../items/items.service.js';
import { findReminderLogPage, type ReminderLogRow } from './reminders.repository.js';

export interface SnoozeInput {
  minutes?: number;
  until?: string;
}

export interface RemindersService {
  /** Sets remind_at to now + minutes, or to `until`; answers the item (a new remind_at fires once more). */
  snooze(userId: string, itemId: string, input: SnoozeInput, precondition?: ItemPrecondition): Promise<ItemView>;
  log(userId: string, query: { limit?: number; cursor?: string }): Promise<{ deliveries: ReminderLogRow[]; next_cursor: string | null }>;
}

const ORDERING = 'reminders-log';

export function createRemindersService(deps: { db: Db; clock: Clock; items: Pick<ItemsService, 'patch'> }): RemindersService {
  return {
    async snooze(userId, itemId, input, precondition) {
      if ((input.minutes === undefined) === (input.until === undefined)) throw badRequest('give exactly one of minutes (1..10080) or until (a date-time)');
      const remindAt =
        input.minutes !== undefined ? new Date(deps.clock.now().getTime() + input.minutes * 60_000).toISOString() : parseTimestamp(input.until!, 'until');
      return deps.items.patch(userId, itemId, { remind_at: remindAt }, precondition);
    },

    async log(userId, query) {
      const limit = clampLimit(query.limit, 50, 200);
      const after = query.cursor === undefined ? undefined : decodeCursor(ORDERING, query.cursor);
      const rows = await findReminderLogPage(deps.db, userId, after ? { key: after.k, id: after.id } : undefined, limit);
      const page = rows
        .slice(0, limit)
        .map((r) => ({ ...r, attempts: Number(r.attempts), last_status: r.last_status === null ? null : Number(r.last_status) }));
      const last = page[page.length - 1];
      return { deliveries: page, next_cursor: rows.length > limit && last ? encodeCursor(ORDERING, { k: last.created_at, id: last.id }) : null };
    },
  };
}
