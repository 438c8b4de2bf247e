import type { Executor } from '../../db/schema.js';
import type { ItemEventName } from '../events/events.service.js';
import { stateDiff, stateEventNames, stateOf, toggleState, type ItemState } from './item-state.js';
import type { ItemRow } from './item-view.js';
import type { ItemPatch } from './items.repository.js';

/*
 * One row's change as every write path makes it (single-item edits, bulk, the organizer, the
 * dialect stores) and write-changes.ts writes it. Its own file so that the recurring completion,
 * which rewrites changes, and the writer both import it without importing each other.
 */

/** One row's change: the columns to write (besides updated_at) and the events it announces. */
export interface ItemChange {
  row: ItemRow;
  patch: ItemPatch;
  events: ItemEventName[];
  /** The item's tags after the change, when known (read with the locked row, and left alone): saves asking again. */
  tags?: readonly string[];
  /** Set by advanceRecurring: the change completed this occurrence of a recurring item and moved it on. */
  occurrence?: CompletedOccurrence;
}

/** A row as read for a change; rows read by loader.lockedRows() carry their tags. */
export type ReadRow = ItemRow & { tags?: readonly string[] };

export type NextState = (state: ItemState, now: string) => ItemState;

/** The toggle route's change; a store may recognise it and make it its own way (item-store.postgres.ts). */
export const toggleNext: NextState = (state) => toggleState(state);

/** A row's state change at `at`, or undefined when `next` leaves its state as it is. */
export function stateChange(row: ReadRow, next: NextState, at: string): ItemChange | undefined {
  const before = stateOf(row);
  const after = next(before, at);
  const patch = stateDiff(before, after);
  if (Object.keys(patch).length === 0) return undefined;
  // Only unarchive announces itself as an update; toggle and archive have their own events.
  const unarchived = before.status === 'archived' && after.status !== 'archived';
  const events: ItemEventName[] = [...(unarchived ? (['item.updated'] as const) : []), ...stateEventNames(before, after)];
  return { row, patch, events, ...(row.tags ? { tags: row.tags } : {}) };
}

/** The occurrence a change completed, when it moved the item on to the next one. */
export interface CompletedOccurrence {
  due_at: string;
  remind_at: string | null;
  next_due_at: string;
}

/**
 * The recurrence rules' say in a commit (recurrence/recurring-completion.ts): completing an open
 * occurrence of a recurring item records it and moves the item on. A port, because recurrence
 * reads item shapes and sits above the items kernel.
 */
export type AdvanceRecurring = (trx: Executor, userId: string, changes: readonly ItemChange[], at: string) => Promise<ItemChange[]>;
