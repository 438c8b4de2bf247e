import { Type } from 'typebox';
import type { ItemStatus, ItemType } from '../db/schema.js';
import { Nullable, StringEnum, UtcTimestamp, Uuid, ref } from './common.js';

/*
 * The item as every response and event shows it, as types and as schemas. It sits below the
 * modules: items writes it, events, search, recurrence and the web app read it, and none of them
 * may import the items module back (docs/decisions/0065).
 */

/** The item as every response and event shows it. */
export interface ItemView {
  id: string;
  project_id: string;
  type: ItemType;
  title: string | null;
  content_md: string | null;
  is_completed: boolean;
  status: ItemStatus;
  due_at: string | null;
  parent_id: string | null;
  tags: string[];
  archived_at: string | null;
  created_at: string;
  updated_at: string;
  recurrence: Recurrence | null;
  remind_at: string | null;
  /** Due on a day, not at a time: due_at is 00:00 of that day in the user's zone (contract "All-day dates"). */
  all_day: boolean;
  /** The item's files, oldest first (contract "Attachments"). */
  attachments: AttachmentView[];
}

/** A file on an item as responses show it (the bytes are at GET /attachments/{id}). */
export interface AttachmentView {
  id: string;
  item_id: string;
  filename: string;
  content_type: string;
  size: number;
  sha256: string;
  created_at: string;
}

/** A repeating schedule (contract "Recurrence"): an RRULE of the subset, counted from the due date or the completion. */
export interface Recurrence {
  rule: string;
  from: 'due' | 'completion';
}

export const ItemStatusSchema = StringEnum(['backlog', 'todo', 'doing', 'done', 'archived'], { description: 'backlog | todo | doing | done | archived' });
export const ItemTypeSchema = StringEnum(['note', 'todo']);

const recurrenceFields = {
  rule: Type.String({
    minLength: 1,
    maxLength: 500,
    description: 'RFC 5545 RRULE without the RRULE: prefix: FREQ (DAILY, WEEKLY, MONTHLY, YEARLY), INTERVAL, BYDAY, BYMONTHDAY, COUNT, UNTIL',
  }),
  from: StringEnum(['due', 'completion'], { description: 'due: the next occurrence follows the previous due date; completion: it follows the completion' }),
};
export const RecurrenceSchema = Type.Object(recurrenceFields, { $id: 'Recurrence', title: 'Recurrence', description: 'a repeating schedule; needs a due_at' });
/** Request bodies validate it inline (their validator does not resolve shared $refs). */
export const RecurrenceBody = Type.Object(recurrenceFields, { description: 'a repeating schedule; needs a due_at' });

export const AttachmentSchema = Type.Object(
  {
    id: Uuid,
    item_id: Uuid,
    filename: Type.String({ description: "the upload's base name without control characters, at most 255 characters" }),
    content_type: Type.String({ description: 'the type the bytes show; application/octet-stream when the service does not recognise them' }),
    size: Type.Integer({ minimum: 0, description: 'bytes' }),
    sha256: Type.String({ pattern: '^[0-9a-f]{64}$', description: 'SHA-256 of the content, hex' }),
    created_at: UtcTimestamp,
  },
  { $id: 'Attachment', title: 'Attachment' },
);

export const ItemSchema = Type.Object(
  {
    id: Uuid,
    project_id: Uuid,
    type: ItemTypeSchema,
    title: Nullable(Type.String()),
    content_md: Nullable(Type.String({ description: 'Markdown body' })),
    is_completed: Type.Boolean(),
    status: ItemStatusSchema,
    due_at: Nullable(UtcTimestamp),
    parent_id: Nullable(Uuid),
    tags: Type.Array(Type.String(), { description: 'tag names, sorted case-insensitively' }),
    archived_at: Nullable(UtcTimestamp),
    created_at: UtcTimestamp,
    updated_at: UtcTimestamp,
    recurrence: Type.Union([ref(RecurrenceSchema), Type.Null()], { description: 'the repeating schedule, or null' }),
    remind_at: Nullable(UtcTimestamp),
    all_day: Type.Boolean({
      description: "due on a day, not at a time: due_at is 00:00 of that day in the user's timezone; clients show the date only",
    }),
    attachments: Type.Array(ref(AttachmentSchema), { description: "the item's files, oldest first; the bytes are at GET /attachments/{id}" }),
  },
  { $id: 'Item', title: 'Item' },
);
