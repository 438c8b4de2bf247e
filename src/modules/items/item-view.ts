import { sql } from 'kysely';
import type { ItemsTable } from '../../db/schema.js';
import { compareTagNames } from '../../lib/tag-order.js';
import type { AttachmentView, ItemView } from '../../schemas/item.js';

export type { ItemView, Recurrence } from '../../schemas/item.js';

export type ItemRow = Omit<ItemsTable, 'is_completed' | 'all_day' | 'search_key' | 'search_text' | 'attachments_json' | 'captured_by_key'> & {
  /** See ItemsTable: the attachments as a JSON array; a row read before it existed shows none. */
  attachments_json?: string;
  captured_by_key?: string | null;
  is_completed: boolean | number;
  all_day: boolean | number;
};

/** The columns a view is made of: list and search pages load only these. */
export const ITEM_VIEW_COLUMNS = [
  'id',
  'project_id',
  'parent_id',
  'type',
  'title',
  'content_md',
  'is_completed',
  'status',
  'due_at',
  'archived_at',
  'created_at',
  'updated_at',
  'recurrence_rule',
  'recurrence_from',
  'remind_at',
  'all_day',
  'attachments_json',
] as const;

/** The columns of an ItemRow; every query that loads items for a change selects exactly these. */
export const ITEM_COLUMNS = [...ITEM_VIEW_COLUMNS, 'user_id', 'status_before_archive', 'client_id', 'captured_by_key'] as const;

type LaterColumns = 'recurrence_rule' | 'recurrence_from' | 'remind_at' | 'all_day' | 'attachments_json';
/** A row with the view's columns; a new row may leave out the recurrence and reminder ones (null) and all_day (false). */
export type ItemViewRow = Omit<Pick<ItemRow, (typeof ITEM_VIEW_COLUMNS)[number]>, LaterColumns> & Partial<Pick<ItemRow, LaterColumns>>;

/**
 * An item's tag names as a JSON array text (in no order), for a query that selects from `items`.
 * Pages of items read them this way too: one statement per page instead of a second query for
 * the page's tags, a round trip that on PostgreSQL cost as much as the page itself.
 */
export function tagNamesJson(dialect: string) {
  return dialect === 'postgres'
    ? sql<string>`(select coalesce(json_agg(t.name), '[]'::json)::text from item_tags it join tags t on t.user_id = it.user_id and t.id = it.tag_id where it.user_id = items.user_id and it.item_id = items.id)`
    : sql<string>`(select json_group_array(t.name) from item_tags it join tags t on t.user_id = it.user_id and t.id = it.tag_id where it.user_id = items.user_id and it.item_id = items.id)`;
}

/** A view row that brought its tag names along (a JSON array, in no order): list and search pages. */
export type TaggedViewRow = ItemViewRow & { tag_names: string };

export function toItemView(row: ItemViewRow, tags: readonly string[]): ItemView {
  return {
    id: row.id,
    project_id: row.project_id,
    type: row.type,
    title: row.title,
    content_md: row.content_md,
    is_completed: Boolean(row.is_completed),
    status: row.status,
    due_at: row.due_at,
    parent_id: row.parent_id,
    tags: [...tags].sort(compareTagNames),
    archived_at: row.archived_at,
    created_at: row.created_at,
    updated_at: row.updated_at,
    recurrence: row.recurrence_rule ? { rule: row.recurrence_rule, from: row.recurrence_from ?? 'due' } : null,
    remind_at: row.remind_at ?? null,
    all_day: Boolean(row.all_day),
    attachments: row.attachments_json ? (JSON.parse(row.attachments_json) as AttachmentView[]) : [],
  };
}

/** The names of a `tag_names` column (see tagNamesJson). */
export const parseTagNames = (json: string): string[] => JSON.parse(json) as string[];

/** The view of a row that carries its tag names: no query for the tags. */
export const taggedItemView = (row: TaggedViewRow): ItemView => toItemView(row, parseTagNames(row.tag_names));
