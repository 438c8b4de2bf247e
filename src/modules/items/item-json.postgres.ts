import { sql, type RawBuilder } from 'kysely';
import type { ItemView } from './item-view.js';

/*
 * PostgreSQL: an item's view as JSON text, built in SQL from the row an UPDATE just wrote, for the
 * one-statement toggle (decisions/0107). Only for a row with no tags, no attachments and no
 * recurrence: those three fields are then constants, and every other field is a column as it is
 * stored. The text must be what JSON.stringify(toItemView(row, [])) writes, byte for byte (webhooks
 * send the payload as stored): the fields in toItemView's order, strings through to_json (which
 * escapes as JSON.stringify does), booleans as true/false. The type below makes a new view field a
 * compile error here; item-json.postgres.test.ts compares the two for awkward rows.
 */

const text = (column: string) => sql<string>`coalesce(to_json(${sql.ref(`items.${column}`)})::text, 'null')`;
const bool = (column: string) => sql<string>`(case when ${sql.ref(`items.${column}`)} then 'true' else 'false' end)`;
const constant = (json: string) => sql<string>`${sql.lit(json)}`;

const PLAIN_ITEM_FIELDS: { [K in keyof ItemView]-?: RawBuilder<string> } = {
  id: text('id'),
  project_id: text('project_id'),
  type: text('type'),
  title: text('title'),
  content_md: text('content_md'),
  is_completed: bool('is_completed'),
  status: text('status'),
  due_at: text('due_at'),
  parent_id: text('parent_id'),
  tags: constant('[]'),
  archived_at: text('archived_at'),
  created_at: text('created_at'),
  updated_at: text('updated_at'),
  recurrence: constant('null'),
  remind_at: text('remind_at'),
  all_day: bool('all_day'),
  attachments: constant('[]'),
};

/** The view of the `items` row in scope (an UPDATE's RETURNING: the new values) as JSON text. */
export const plainItemJson: RawBuilder<string> = sql<string>`(${sql.join(
  Object.entries(PLAIN_ITEM_FIELDS).map(([name, value], i) => sql`${sql.lit(`${i === 0 ? '{' : ','}"${name}":`)} || ${value}`),
  sql` || `,
)} || '}')`;

/** The SQL condition on a row read as `cur` (with its tag_names) under which plainItemJson is its whole view. */
export const isPlainItem = sql<boolean>`cur.tag_names = '[]' and cur.attachments_json = '[]' and cur.recurrence_rule is null`;
