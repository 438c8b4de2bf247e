import type { Executor } from '../../db/schema.js';
import type { ItemSchedule } from '../items/item-ports.js';
import { checkRecurrence, defaultRemindAt, type RecurrenceService } from '../recurrence/recurrence.service.js';

/**
 * The schedule of an item, the one place its rules are applied: a recurrence must be of the
 * subset, and a timed due date without an explicit remind_at gets the user's default reminder (an
 * all-day one reminds only at an explicit remind_at, contract "All-day dates"). Capture
 * uses it for new items; the items kernel gets it as its ItemSchedule port for PATCH.
 */
export function createSchedule(deps: { recurrence: Pick<RecurrenceService, 'prefs'> }): ItemSchedule {
  return {
    checkRecurrence,
    async defaultRemindAt(db: Executor, userId: string, dueAt: string) {
      return defaultRemindAt(dueAt, (await deps.recurrence.prefs(db, userId)).reminder_default);
    },
    async timezone(db: Executor, userId: string) {
      return (await deps.recurrence.prefs(db, userId)).timezone;
    },
  };
}
