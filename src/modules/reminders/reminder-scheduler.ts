import type { Logger } from 'pino';
import type { Db } from '../../db/schema.js';
import type { Clock } from '../../lib/clock.js';
import type { IdGenerator } from '../../lib/ids.js';
import { createPollLoop } from '../../lib/poll-loop.js';
import { toTimestamp } from '../../lib/timestamps.js';
import type { EventsService } from '../events/events.service.js';
import type { ItemView } from '../items/item-view.js';
import { findDueReminders, insertFireOnce, pruneFires, setFireEvent } from './reminders.repository.js';

/*
 * Fires reminders. Every server process runs one; which one fires a reminder does not matter,
 * because firing is one transaction that inserts the (item, remind_at) row of reminder_fires (its
 * unique key lets only one process succeed, across restarts too) together with the item.reminder
 * outbox event. From there the webhooks' machinery (fan-out, leases, three attempts, log) delivers
 * it to the user's channels and subscribed webhooks, at least once (decision 0040).
 */

const DAY_MS = 24 * 3600_000;
/** Later than this after remind_at (the service was down), a reminder is logged as missed instead of sent. */
const MISSED_AFTER_MS = DAY_MS;
/** The log keeps 7 days; the scan looks back as far, so a pruned fire can never fire again. */
const KEEP_MS = 7 * DAY_MS;
const BATCH = 200;
const MAX_BATCHES = 10;
const PRUNE_EVERY_MS = 10 * 60_000;
/** After a failed pass: 5 s, doubling to a minute while the database stays away. */
const ERROR_BACKOFF_MS = [5_000, 60_000] as const;

export interface ReminderScheduler {
  start(): void;
  stop(): Promise<void>;
  /** One pass: fires (or logs as missed) everything due now; answers how many it recorded. */
  tick(): Promise<{ fired: number; missed: number }>;
  readonly started: boolean;
}

export function createReminderScheduler(deps: {
  db: Db;
  clock: Clock;
  newId: IdGenerator;
  logger: Logger;
  events: Pick<EventsService, 'record'>;
  /** The item as events show it (read before the firing transaction: no reads of another module inside it). */
  itemView: (userId: string, id: string) => Promise<ItemView | undefined>;
  /** A reminder was fired: deliver it now rather than at the next poll. */
  onFired: () => void;
  pollMs: number;
}): ReminderScheduler {
  const { db, clock } = deps;
  const log = deps.logger.child({ component: 'reminders' });
  let lastPrune = 0;

  async function tick(): Promise<{ fired: number; missed: number }> {
    let fired = 0;
    let missed = 0;
    const now = clock.now();
    const at = toTimestamp(now);
    for (let batch = 0; batch < MAX_BATCHES; batch += 1) {
      const due = await findDueReminders(db, toTimestamp(new Date(now.getTime() - KEEP_MS)), at, BATCH);
      let recorded = 0;
      for (const reminder of due) {
        const late = now.getTime() - Date.parse(reminder.remind_at) >= MISSED_AFTER_MS;
        const item = late ? undefined : await deps.itemView(reminder.user_id, reminder.id);
        if (!late && !item) continue; // deleted meanwhile
        const fireId = deps.newId();
        const done = await db.transaction().execute(async (trx) => {
          const mine = await insertFireOnce(trx, {
            id: fireId,
            user_id: reminder.user_id,
            item_id: reminder.id,
            remind_at: reminder.remind_at,
            status: late ? 'missed' : 'fired',
            created_at: at,
          });
          if (!mine || !item) return mine;
          const [eventId] = await deps.events.record(trx, reminder.user_id, [{ name: 'item.reminder', item }]);
          await setFireEvent(trx, reminder.user_id, fireId, eventId!);
          return true;
        });
        if (!done) continue;
        recorded += 1;
        if (late) missed += 1;
        else fired += 1;
      }
      if (due.length < BATCH || recorded === 0) break;
    }
    if (fired > 0) deps.onFired();
    if (fired + missed > 0) log.info({ fired, missed }, 'reminders came due');
    if (now.getTime() - lastPrune >= PRUNE_EVERY_MS) {
      lastPrune = now.getTime();
      const cutoff = toTimestamp(new Date(now.getTime() - KEEP_MS - DAY_MS));
      await pruneFires(db, cutoff, cutoff);
    }
    return { fired, missed };
  }

  const loop = createPollLoop({
    pass: async () => {
      await tick();
    },
    intervalMs: deps.pollMs,
    backoffMs: ERROR_BACKOFF_MS,
    onError: (err) => log.error({ err }, 'reminder pass failed; retrying'),
  });

  return {
    get started() {
      return loop.running;
    },
    start: () => loop.start(),
    stop: () => loop.stop(),
    tick,
  };
}
