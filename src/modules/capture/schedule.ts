import type { Executor } from '../../db/schema.js';
import type { ItemSchedule } from '../items/item-ports.js';
import { checkRecurrence, defaultRemindAt, type RecurrenceService } from '../recurrence/recurrence.service.js';

/**
 * The schedule of an item, the one place its rules are applied: a recurrence must be of the
 * subset, and a due date without an explicit remind_at gets the user's default reminder. Capture
 * uses it for new items; the items kernel gets it as its ItemSchedule port for PATCH.
 */
export function createSchedule(deps: { recurrence: Pick<RecurrenceService, 'prefs'> }): ItemSchedule {
  return {
    checkRecurrence,
    async defaultRemindAt(db: Executor, userId: string, dueAt: string) {
      return defaultRemindAt(dueAt, (await deps.recurrence.prefs(db, userId)).reminder_default);
    },
  };
}
