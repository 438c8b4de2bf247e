import type { DialectName } from '../../db/create-db.js';
import type { Executor } from '../../db/schema.js';
import { sameDayIn } from '../../lib/dates/all-day.js';
import type { ItemChange } from './item-change.js';
import { findAllDayItemIds, lockItemsByIds } from './items.repository.js';
import type { ItemWrites } from './write-changes.js';

/** What the users module calls when a user's timezone changes (a port: users sits apart from items). */
export interface AllDayZoneMove {
  /** Every all-day item keeps its calendar day: due_at moves to 00:00 of the same date in `to`; each change is announced. */
  moveAllDay(trx: Executor, userId: string, from: string, to: string): Promise<void>;
}

/*
 * A timezone change (contract "All-day dates"): an all-day item is due on a date, so it keeps that
 * date in the new zone; a timed item is due at an instant and keeps it (nothing to do). The items
 * are changed through ItemWrites, as a PATCH would change them: item.updated, the sync feed and
 * live clients all hear of it.
 */
export function createAllDayZoneMove(deps: { dialect: DialectName; writes: Pick<ItemWrites, 'commit' | 'now'> }): AllDayZoneMove {
  return {
    async moveAllDay(trx, userId, from, to) {
      if (from === to) return;
      const ids = await findAllDayItemIds(trx, userId);
      const rows = await lockItemsByIds(trx, deps.dialect, userId, ids);
      const changes: ItemChange[] = [];
      for (const row of rows) {
        if (!row.due_at || !row.all_day) continue;
        const due = sameDayIn(from, to, row.due_at);
        if (due !== row.due_at) changes.push({ row, patch: { due_at: due }, events: ['item.updated'], tags: row.tags });
      }
      await deps.writes.commit(trx, userId, changes, deps.writes.now());
    },
  };
}
