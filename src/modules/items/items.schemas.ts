import { Type, type Static } from 'typebox';
import { DateTime, Nullable, StringEnum, UtcTimestamp, Uuid, ref } from '../../schemas/common.js';
import { AiSchema } from '../organizer/organizer.schemas.js';

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
const RecurrenceBody = Type.Object(recurrenceFields, { description: 'a repeating schedule; needs a due_at' });

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
  },
  { $id: 'Item', title: 'Item' },
);

export const CapturedItemSchema = Type.Object(
  {
    ...ItemSchema.properties,
    ai: Type.Union([ref(AiSchema), Type.Null()], { description: 'what the AI organizer decided; null when it did not run' }),
  },
  { $id: 'CapturedItem', title: 'CapturedItem' },
);

export const ItemPageSchema = Type.Object(
  {
    items: Type.Array(ref(ItemSchema)),
    next_cursor: Nullable(Type.String({ description: 'pass as cursor for the next page; null on the last page' })),
  },
  { $id: 'ItemPage', title: 'ItemPage' },
);

export const ItemArray = Type.Array(ref(ItemSchema), {
  description: 'newest first; when more remain, the X-Next-Cursor response header holds the cursor of the next page',
  // @fastify/swagger turns this into the response's documented headers.
  headers: { 'X-Next-Cursor': Type.String({ description: 'pass as cursor for the next page; absent on the last page' }) },
});

export const CaptureBody = Type.Object({
  // The 100000 limit applies after trim (checked by the service), so padding around a full text is fine.
  text: Type.String({ minLength: 1, pattern: '\\S', description: '1..100000 characters after trim; the first line becomes the title, the rest content_md' }),
  project_id: Type.Optional(Uuid),
  type: Type.Optional(ItemTypeSchema),
  organize: Type.Optional(Type.Boolean({ default: false, description: 'run the AI organizer (Pro)' })),
  client_id: Type.Optional(Type.String({ format: 'uuid', description: 'idempotency key: repeating it returns the first item with 200' })),
  due_at: Type.Optional(DateTime),
  recurrence: Type.Optional(Type.Union([RecurrenceBody, Type.Null()], { description: 'a repeating schedule; needs a due_at' })),
  remind_at: Type.Optional(Nullable(DateTime)),
  tags: Type.Optional(
    Type.Array(Type.String({ minLength: 1, pattern: '^[^,]*$', description: 'tag name: 1..50 characters after trim, no comma' }), {
      maxItems: 20,
      description: 'tag names, as PATCH takes them; unknown names are created. Given, they win over tags quick add reads',
    }),
  ),
  parse: Type.Optional(
    Type.Boolean({
      default: false,
      description:
        'read the first line with quick add (POST /parse: #Project, @tag, dates, every …) and store what it understands; project_id, due_at, type and tags given here win',
    }),
  ),
});
export type CaptureBody = Static<typeof CaptureBody>;

export const ItemsQuery = Type.Object({
  since: Type.Optional(Type.String({ format: 'date-time', description: 'sync feed: items with updated_at >= since, oldest first' })),
  limit: Type.Optional(Type.Integer({ minimum: 1, description: 'default 50, at most 200 (larger values are clamped)' })),
  cursor: Type.Optional(Type.String({ minLength: 1, maxLength: 512 })),
});

export const PatchItemBody = Type.Object({
  title: Type.Optional(Nullable(Type.String({ maxLength: 500 }))),
  content_md: Type.Optional(Nullable(Type.String({ maxLength: 100000 }))),
  due_at: Type.Optional(Nullable(DateTime)),
  recurrence: Type.Optional(Type.Union([RecurrenceBody, Type.Null()], { description: 'a repeating schedule (needs a due_at); null ends it' })),
  remind_at: Type.Optional(Nullable(DateTime)),
  project_id: Type.Optional(Uuid),
  status: Type.Optional(ItemStatusSchema),
  parent_id: Type.Optional(Nullable(Uuid)),
  tags: Type.Optional(
    Type.Array(Type.String({ minLength: 1, pattern: '^[^,]*$', description: 'tag name: 1..50 characters after trim, no comma' }), {
      maxItems: 20,
      description: 'replaces the whole set; unknown names are created',
    }),
  ),
  type: Type.Optional(ItemTypeSchema),
});
