import type { DialectName } from '../../db/create-db.js';
import type { Executor } from '../../db/schema.js';
import { notFound } from '../../errors.js';
import { isUuid } from '../../lib/ids.js';
import type { TagsService } from '../tags/tags.service.js';
import { findAgendaItems, findChildrenOf, findDoneSince, findOpenItems, type AgendaQuery, type OpenQuery } from './items-lists.repository.js';
import {
  findItemById,
  findItemPage,
  findItemWithTagsById,
  findItemsByIds,
  lockItemsByIds,
  type ItemPageQuery,
  type ItemRowWithTags,
} from './items.repository.js';
import { toItemView, type ItemRow, type ItemView, type ItemViewRow, type TaggedViewRow } from './item-view.js';

export interface ItemLoader {
  /** The row, or 404 when the id is malformed, unknown or another user's. */
  requireRow(db: Executor, userId: string, id: string): Promise<ItemRow>;
  /** The item's view, or 404 like requireRow(): one query, tags included. */
  requireView(db: Executor, userId: string, id: string): Promise<ItemView>;
  /** The user's rows among `ids`, in no particular order; ids that are not theirs are left out. */
  rows(db: Executor, userId: string, ids: readonly string[]): Promise<ItemRow[]>;
  /** Like rows(), locked for the rest of the transaction: for changes that decide from what they read. */
  lockedRows(trx: Executor, userId: string, ids: readonly string[]): Promise<ItemRowWithTags[]>;
  /** Like requireRow(), locked for the rest of the transaction. */
  requireLockedRow(trx: Executor, userId: string, id: string): Promise<ItemRowWithTags>;
  /** Views for many rows with one tag query, whatever the number of rows. */
  views(db: Executor, userId: string, rows: readonly ItemViewRow[]): Promise<ItemView[]>;
  view(db: Executor, userId: string, row: ItemViewRow): Promise<ItemView>;
  /** One page of a listing plus one row (so the caller knows whether another page exists), with tag names. */
  page(db: Executor, userId: string, q: ItemPageQuery): Promise<TaggedViewRow[]>;
  /** The web's lists by due date, done today, open items and subtasks (items-lists.repository.ts says which rows). */
  agenda(db: Executor, userId: string, q: AgendaQuery): Promise<TaggedViewRow[]>;
  doneSince(db: Executor, userId: string, since: string, limit: number): Promise<TaggedViewRow[]>;
  open(db: Executor, userId: string, q: OpenQuery): Promise<TaggedViewRow[]>;
  childrenOf(db: Executor, userId: string, parentIds: readonly string[]): Promise<TaggedViewRow[]>;
}

export function createItemLoader(tags: TagsService, dialect: DialectName): ItemLoader {
  const views: ItemLoader['views'] = async (db, userId, rows) => {
    const names = await tags.namesForItems(
      db,
      userId,
      rows.map((r) => r.id),
    );
    return rows.map((row) => toItemView(row, names.get(row.id) ?? []));
  };
  return {
    async requireRow(db, userId, id) {
      const row = isUuid(id) ? await findItemById(db, userId, id) : undefined;
      if (!row) throw notFound('item');
      return row;
    },
    async requireView(db, userId, id) {
      const found = isUuid(id) ? await findItemWithTagsById(db, dialect, userId, id) : undefined;
      if (!found) throw notFound('item');
      return toItemView(found.row, found.tags);
    },
    rows: (db, userId, ids) => findItemsByIds(db, userId, ids),
    lockedRows: (trx, userId, ids) => lockItemsByIds(trx, dialect, userId, ids),
    async requireLockedRow(trx, userId, id) {
      const [row] = isUuid(id) ? await lockItemsByIds(trx, dialect, userId, [id]) : [];
      if (!row) throw notFound('item');
      return row;
    },
    views,
    page: (db, userId, q) => findItemPage(db, dialect, userId, q),
    agenda: (db, userId, q) => findAgendaItems(db, dialect, userId, q),
    doneSince: (db, userId, since, limit) => findDoneSince(db, dialect, userId, since, limit),
    open: (db, userId, q) => findOpenItems(db, dialect, userId, q),
    childrenOf: (db, userId, parentIds) => findChildrenOf(db, dialect, userId, parentIds),
    async view(db, userId, row) {
      const [view] = await views(db, userId, [row]);
      return view!;
    },
  };
}
