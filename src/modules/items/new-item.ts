import type { ItemType } from '../../db/schema.js';
import { searchText } from '../../lib/word-breaks.js';
import { freshState, type ItemState } from './item-state.js';
import type { NewItemRow } from './items.repository.js';

export interface NewItem {
  id: string;
  user_id: string;
  project_id: string;
  type: ItemType;
  title: string | null;
  content_md: string | null;
  created_at: string;
  parent_id?: string | null;
  due_at?: string | null;
  client_id?: string | null;
  recurrence?: { rule: string; from: 'due' | 'completion' } | null;
  remind_at?: string | null;
  /** Due on a day (due_at is 00:00 local of it); needs a due_at. */
  all_day?: boolean;
  /** The API key that captured it (capture and brain dump); a capture-scoped key may attach files to it for 10 minutes. */
  captured_by_key?: string | null;
  /** Defaults to created_at. */
  updated_at?: string;
  /** Imported and seeded items arrive done or archived; a capture starts from freshState(type). */
  state?: ItemState;
}

/** The one place a new item's row is built: capture, import, the bench's seed and the tests' seeds. */
export function newItemRow(item: NewItem): NewItemRow {
  const state = item.state ?? freshState(item.type);
  return {
    id: item.id,
    user_id: item.user_id,
    project_id: item.project_id,
    parent_id: item.parent_id ?? null,
    type: item.type,
    title: item.title,
    content_md: item.content_md,
    is_completed: state.is_completed ? 1 : 0,
    status: state.status,
    status_before_archive: state.status_before_archive,
    due_at: item.due_at ?? null,
    archived_at: state.archived_at,
    client_id: item.client_id ?? null,
    created_at: item.created_at,
    updated_at: item.updated_at ?? item.created_at,
    recurrence_rule: item.recurrence?.rule ?? null,
    recurrence_from: item.recurrence?.from ?? null,
    remind_at: item.remind_at ?? null,
    all_day: item.all_day && item.due_at ? 1 : 0,
    captured_by_key: item.captured_by_key ?? null,
    search_text: searchText(item.title, item.content_md),
  };
}
