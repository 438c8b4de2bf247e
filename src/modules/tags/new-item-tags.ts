import type { Executor } from '../../db/schema.js';
import { compareTagNames } from '../../lib/tag-order.js';
import { toTimestamp } from '../../lib/timestamps.js';
import { findTagsByKeys, insertItemTagLinks, insertTagsIgnoringExisting, type TagRow } from './tags.repository.js';

/** Keys asked for, tags created and links written per statement (3 to 5 parameters each: far under both dialects' limits). */
const KEYS_AT_ONCE = 500;
const LINKS_AT_ONCE = 1000;

/** An item just inserted and its tag names, already normalized (normalizeTagNames). */
export interface NewItemTags {
  itemId: string;
  names: readonly string[];
}

async function tagsByKeys(trx: Executor, userId: string, keys: readonly string[]): Promise<TagRow[]> {
  const found: TagRow[] = [];
  for (let i = 0; i < keys.length; i += KEYS_AT_ONCE) found.push(...(await findTagsByKeys(trx, userId, keys.slice(i, i + KEYS_AT_ONCE))));
  return found;
}

/**
 * The user's tags for these names (normalized), made where missing with the first spelling given:
 * each key looked up once, the missing created, then read back, since a concurrent writer may
 * have created one first, whose row (and spelling) wins. Keyed by name key.
 */
export async function ensureTags(
  trx: Executor,
  deps: { now: Date; newId: () => string; keyOf: (name: string) => string },
  userId: string,
  names: Iterable<string>,
): Promise<Map<string, TagRow>> {
  const spelling = new Map<string, string>();
  for (const name of names) if (!spelling.has(deps.keyOf(name))) spelling.set(deps.keyOf(name), name);
  if (spelling.size === 0) return new Map();
  const tags = new Map((await tagsByKeys(trx, userId, [...spelling.keys()])).map((t) => [t.name_key, t]));
  const createdAt = toTimestamp(deps.now);
  const missing = [...spelling]
    .filter(([key]) => !tags.has(key))
    .map(([key, name]) => ({ id: deps.newId(), user_id: userId, name, name_key: key, created_at: createdAt }));
  if (missing.length > 0) {
    for (let i = 0; i < missing.length; i += KEYS_AT_ONCE) await insertTagsIgnoringExisting(trx, missing.slice(i, i + KEYS_AT_ONCE));
    for (const tag of await tagsByKeys(
      trx,
      userId,
      missing.map((m) => m.name_key),
    ))
      tags.set(tag.name_key, tag);
  }
  return tags;
}

/**
 * What setItemTags does item by item, for items that have no tags yet (an import's batch, a brain
 * dump), in a few statements whatever their number: every name is looked up once, a missing one is
 * created with the spelling of the first item that uses it, and every link goes in one insert.
 * Answers each item's stored spellings, sorted as setItemTags sorts them.
 */
export async function tagNewItems(
  trx: Executor,
  deps: { now: Date; newId: () => string; keyOf: (name: string) => string },
  userId: string,
  items: readonly NewItemTags[],
): Promise<Map<string, string[]>> {
  const out = new Map<string, string[]>();
  const tags = await ensureTags(
    trx,
    deps,
    userId,
    items.flatMap((i) => i.names),
  );
  if (tags.size === 0) return out;
  const links: { user_id: string; item_id: string; tag_id: string }[] = [];
  for (const { itemId, names } of items) {
    if (names.length === 0) continue;
    const own = names.map((name) => tags.get(deps.keyOf(name))!);
    for (const tag of own) links.push({ user_id: userId, item_id: itemId, tag_id: tag.id });
    out.set(itemId, own.map((t) => t.name).sort(compareTagNames));
  }
  for (let i = 0; i < links.length; i += LINKS_AT_ONCE) await insertItemTagLinks(trx, links.slice(i, i + LINKS_AT_ONCE));
  return out;
}
