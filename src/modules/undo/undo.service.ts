import type { Db } from '../../db/schema.js';
import { AppError } from '../../errors.js';
import type { Clock } from '../../lib/clock.js';
import type { IdGenerator } from '../../lib/ids.js';
import { ifMatchPrecondition, itemEtag } from '../items/item-etag.js';
import type { ItemView } from '../items/item-view.js';
import type { ItemsService } from '../items/items.service.js';
import { inverseOf, parseInverse, type ActionKind, type Inverse } from './inverse.js';
import { deleteCompletion } from '../recurrence/recurrence.repository.js';
import { deleteExpiredUndos, insertUndo, takeUndo } from './undo.repository.js';

/** How long an action stays undoable: far longer than the toast shows, for a slow click or a flaky network. */
const KEPT_MS = 10 * 60_000;

/** An action done, and what undoes it (null: it changed nothing). */
export interface Acted {
  item: ItemView;
  undo: { id: string; kind: ActionKind } | null;
}

/** An undo applied: the item now, what the action had been, and the inverse that was applied. */
export interface Undone {
  item: ItemView;
  inverse: Inverse;
}

/**
 * Undo as a real inverse, kept by the server (issue 47 item 1, decision 0076): `act` runs one
 * action on an item, checked against the item as read just before, and keeps the inverse of what
 * it changed; `undo` applies that inverse once, only to the item as the action left it.
 */
export interface UndoService {
  act(userId: string, itemId: string, action: (precondition: (current: ItemView) => void) => Promise<ItemView>): Promise<Acted>;
  undo(userId: string, undoId: string): Promise<Undone>;
}

export function createUndoService(deps: { db: Db; clock: Clock; newId: IdGenerator; items: ItemsService }): UndoService {
  const { db, clock, items } = deps;

  /** The inverse's steps, each on the version the previous one left: a change by anyone else in between stops it. */
  async function apply(userId: string, itemId: string, etag: string, inverse: Inverse): Promise<ItemView> {
    let version = etag;
    let item: ItemView | null = null;
    if (Object.keys(inverse.patch).length > 0) {
      item = await items.patch(userId, itemId, inverse.patch, ifMatchPrecondition(version));
      version = itemEtag(item);
    }
    if (inverse.state) {
      const p = ifMatchPrecondition(version);
      const step = { reopen: items.toggle, complete: items.toggle, archive: items.archive, unarchive: items.unarchive }[inverse.state];
      item = await step(userId, itemId, p);
    }
    if (inverse.forgetCompletion) {
      await deleteCompletion(db, userId, itemId, inverse.forgetCompletion.due_at, inverse.forgetCompletion.completed_at);
    }
    return item ?? items.get(userId, itemId);
  }

  return {
    async act(userId, itemId, action) {
      const before = await items.get(userId, itemId);
      const beforeEtag = itemEtag(before);
      // Done on the item as read here: what the inverse puts back is what the action replaced.
      const after = await action(ifMatchPrecondition(beforeEtag)!);
      const found = inverseOf(before, after);
      if (!found) return { item: after, undo: null };
      const now = clock.now();
      const id = deps.newId();
      await deleteExpiredUndos(db, userId, now.toISOString());
      await insertUndo(db, {
        id,
        user_id: userId,
        item_id: itemId,
        item_etag: itemEtag(after),
        inverse: JSON.stringify(found.inverse),
        created_at: now.toISOString(),
        expires_at: new Date(now.getTime() + KEPT_MS).toISOString(),
      });
      return { item: after, undo: { id, kind: found.kind } };
    },

    async undo(userId, undoId) {
      const row = await takeUndo(db, userId, undoId);
      if (!row || row.expires_at < clock.now().toISOString()) throw new AppError('not_found', 'nothing to undo: it was undone already or is too old');
      const inverse = parseInverse(row.inverse);
      if (!inverse) throw new AppError('not_found', 'nothing to undo');
      return { item: await apply(userId, row.item_id, row.item_etag, inverse), inverse };
    },
  };
}
