import type { ItemPrecondition } from './item-etag.js';
import type { ItemView } from './item-view.js';
import type { NextState } from './item-change.js';
import type { NewItemRow } from './items.repository.js';

/**
 * The items' writes that each database makes its own fastest way: one implementation per dialect
 * (item-store.sqlite.ts, item-store.postgres.ts), chosen once in the container, so the services
 * never ask which database they run on. Both must write exactly the rows and events the portable
 * path would (the dialect-loop tests hold them to it). See docs/decisions/0036-storage-ports.md.
 */
export interface ItemStore {
  /**
   * Writes a new item with its tags (normalized names) and its `item.created` event, atomically,
   * and answers its view. `stamp` makes the row; it is called where the row's created_at must be
   * taken (SQLite: inside the write, so that search keys follow created_at).
   */
  insertNew(userId: string, stamp: () => NewItemRow, tags: readonly string[]): Promise<ItemView>;
  /**
   * A state change of one item (toggle, archive, unarchive) made without a transaction where the
   * database has a cheaper way. Answers the item after the change, or undefined when there is no
   * such way or the row changed under it: the caller then makes the change on the locked row.
   * Throws not_found for an unknown item, and what `precondition` throws.
   */
  tryStateChange(userId: string, id: string, next: NextState, precondition?: ItemPrecondition): Promise<ItemView | undefined>;
}
