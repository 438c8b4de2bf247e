import type { ItemStatus, ItemType } from '../../src/db/schema.js';
import { newId } from '../../src/lib/ids.js';
import { insertItem } from '../../src/modules/items/items.repository.js';
import { newItemRow } from '../../src/modules/items/new-item.js';
import type { TestApp } from './test-app.js';

export interface SeedItem {
  title: string;
  content_md: string | null;
  type: ItemType;
  status: ItemStatus;
  is_completed: boolean;
  project_id: string;
  due_at: string | null;
  created_at: string;
  tags: string[];
  /** A fresh UUIDv7 unless given. */
  id?: string;
}

export type SeededItem = SeedItem & { id: string };

/**
 * Inserts many items in one transaction through the same repository call a capture uses, so the
 * search index is filled exactly as production writes fill it (SQLite triggers, the PostgreSQL
 * generated column). Far faster than one HTTP capture per item; writes no events.
 */
export async function seedItems(t: TestApp, userId: string, specs: readonly SeedItem[]): Promise<SeededItem[]> {
  const seeded = specs.map((spec) => ({ ...spec, id: spec.id ?? newId() }));
  await t.services.db.transaction().execute(async (trx) => {
    for (const item of seeded) {
      await insertItem(
        trx,
        newItemRow({
          id: item.id,
          user_id: userId,
          project_id: item.project_id,
          type: item.type,
          title: item.title,
          content_md: item.content_md,
          due_at: item.due_at,
          created_at: item.created_at,
          state: {
            is_completed: item.is_completed,
            status: item.status,
            status_before_archive: null,
            archived_at: item.status === 'archived' ? item.created_at : null,
          },
        }),
      );
      if (item.tags.length > 0) await t.services.tags.setItemTags(trx, userId, item.id, item.tags);
    }
  });
  return seeded;
}

/** Newest created first, ties by id descending: the order of every newest-first listing. */
export { newestFirst } from '../../src/lib/cursor.js';
