import type { DialectName } from '../../db/create-db.js';
import type { Db, Executor } from '../../db/schema.js';
import { badRequest } from '../../errors.js';
import type { Clock } from '../../lib/clock.js';
import type { IdGenerator } from '../../lib/ids.js';
import { compareTagNames } from '../../lib/tag-order.js';
import { ensureTags, tagNewItems, type NewItemTags } from './new-item-tags.js';
import { findTagNamesForItems, foldTagCountDeltas, hasTagCountDeltas, listTagsWithCounts, replaceItemTags } from './tags.repository.js';

const MAX_TAGS_PER_ITEM = 20;
const TAG_NAME_MAX = 50;

export const tagKey = (name: string): string => name.trim().toLowerCase();

export interface TagsService {
  /** Tag names per item id, for a whole page of items in one query. */
  namesForItems(db: Executor, userId: string, itemIds: readonly string[]): Promise<Map<string, string[]>>;
  /** Replaces an item's tag set, creating unknown names; returns the stored spellings. */
  setItemTags(trx: Executor, userId: string, itemId: string, names: readonly string[]): Promise<string[]>;
  /** setItemTags for many items just inserted, in a few statements: each tagged item's stored spellings (new-item-tags.ts). */
  tagNewItems(trx: Executor, userId: string, items: readonly NewItemTags[]): Promise<Map<string, string[]>>;
  list(userId: string): Promise<{ name: string; item_count: number }[]>;
}

/** Trims, checks and de-duplicates (case-insensitively, first spelling wins) a requested tag set. */
export function normalizeTagNames(names: readonly string[]): string[] {
  const byKey = new Map<string, string>();
  for (const raw of names) {
    const name = raw.trim();
    if (name === '' || Array.from(name).length > TAG_NAME_MAX || name.includes(',')) {
      throw badRequest(`tag names must be 1 to ${TAG_NAME_MAX} characters without commas`, 'tags');
    }
    if (!byKey.has(tagKey(name))) byKey.set(tagKey(name), name);
  }
  if (byKey.size > MAX_TAGS_PER_ITEM) throw badRequest(`an item has at most ${MAX_TAGS_PER_ITEM} tags`, 'tags');
  return [...byKey.values()];
}

export function createTagsService(deps: { db: Db; dialect: DialectName; clock: Clock; newId: IdGenerator }): TagsService {
  return {
    async namesForItems(db, userId, itemIds) {
      const rows = await findTagNamesForItems(db, userId, itemIds);
      const out = new Map<string, string[]>();
      for (const row of rows) {
        const list = out.get(row.item_id);
        if (list) list.push(row.name);
        else out.set(row.item_id, [row.name]);
      }
      return out;
    },

    async setItemTags(trx, userId, itemId, names) {
      const wanted = normalizeTagNames(names);
      const tags = [...(await ensureTags(trx, { now: deps.clock.now(), newId: deps.newId, keyOf: tagKey }, userId, wanted)).values()];
      await replaceItemTags(
        trx,
        userId,
        itemId,
        tags.map((t) => t.id),
      );
      return tags.map((t) => t.name).sort(compareTagNames);
    },

    tagNewItems: (trx, userId, items) =>
      tagNewItems(
        trx,
        { now: deps.clock.now(), newId: deps.newId, keyOf: tagKey },
        userId,
        items.map((i) => ({ itemId: i.itemId, names: normalizeTagNames(i.names) })),
      ),

    async list(userId) {
      // The kept counts, current: PostgreSQL's pending changes folded in first (decision 0113).
      if (await hasTagCountDeltas(deps.db, deps.dialect, userId)) await deps.db.transaction().execute((trx) => foldTagCountDeltas(trx, userId));
      const rows = await listTagsWithCounts(deps.db, userId);
      return rows.sort((a, b) => compareTagNames(a.name, b.name));
    },
  };
}
