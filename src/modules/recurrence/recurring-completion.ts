import type { Executor } from '../../db/schema.js';
import type { ItemEventName } from '../events/events.service.js';
import type { CompletedOccurrence, ItemChange } from '../items/item-change.js';
import { nextOccurrence, type RecurrenceService } from './recurrence.service.js';

const after = <K extends 'due_at' | 'remind_at' | 'recurrence_rule' | 'recurrence_from' | 'status'>(change: ItemChange, key: K) =>
  (change.patch[key] !== undefined ? change.patch[key] : change.row[key]) as ItemChange['row'][K];

/** A change that completes an open occurrence of a recurring item (not an archived one: that stays an ordinary completion). */
const completesOccurrence = (c: ItemChange): boolean =>
  c.events.includes('item.completed') && after(c, 'recurrence_rule') !== null && after(c, 'due_at') !== null && after(c, 'status') === 'done';

/**
 * Completing a recurring item completes this occurrence (contract "Recurrence"): the completion is
 * recorded, and the item moves to its next occurrence (open, status todo, due_at the next
 * occurrence, remind_at moved by the same amount) with item.completed (the occurrence as
 * completed, plus next_due_at) then item.updated. When the rule has ended it is an ordinary completion.
 * Every completion path (toggle, PATCH, bulk, MCP) reaches here through ItemWrites.commit (items/write-changes.ts, by its AdvanceRecurring port), inside the
 * change's transaction on the row as read there: a retried or stale request that no longer
 * completes anything (the item is open again with a new ETag) cannot skip a second occurrence.
 */
export async function advanceRecurring(
  trx: Executor,
  userId: string,
  changes: readonly ItemChange[],
  at: string,
  recurrence: RecurrenceService,
): Promise<ItemChange[]> {
  const due = changes.filter(completesOccurrence);
  if (due.length === 0) return [...changes];
  const [prefs, counts] = await Promise.all([
    recurrence.prefs(trx, userId),
    recurrence.completedCounts(
      trx,
      userId,
      due.map((c) => c.row.id),
    ),
  ]);
  await recurrence.recordCompletions(
    trx,
    userId,
    due.map((c) => ({ item_id: c.row.id, due_at: after(c, 'due_at'), completed_at: at })),
  );
  return changes.map((change) => {
    if (!completesOccurrence(change)) return change;
    const dueAt = after(change, 'due_at')!;
    const next = nextOccurrence({
      recurrence: { rule: after(change, 'recurrence_rule')!, from: after(change, 'recurrence_from') ?? 'due' },
      zone: prefs.timezone,
      due: new Date(dueAt),
      completedAt: new Date(at),
      completed: (counts.get(change.row.id) ?? 0) + 1,
    });
    if (!next) return change;
    const shift = next.getTime() - Date.parse(dueAt);
    const remindAt = after(change, 'remind_at');
    const { is_completed: _completed, status: _status, ...rest } = change.patch;
    const patch = {
      ...rest,
      ...(change.row.status !== 'todo' ? { status: 'todo' as const } : {}),
      ...(change.row.is_completed ? { is_completed: 0 } : {}),
      due_at: next.toISOString(),
      ...(remindAt !== null ? { remind_at: new Date(Date.parse(remindAt) + shift).toISOString() } : {}),
    };
    const events: ItemEventName[] = [...change.events.filter((n) => n !== 'item.updated' && n !== 'item.completed'), 'item.completed', 'item.updated'];
    const occurrence: CompletedOccurrence = { due_at: dueAt, remind_at: remindAt, next_due_at: next.toISOString() };
    return { ...change, patch, events, occurrence };
  });
}
