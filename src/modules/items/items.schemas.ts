import { Type } from 'typebox';
import { DateTime, Nullable, Uuid, ref } from '../../schemas/common.js';
import { FilterQueryParam } from '../../schemas/filter.js';
import { ItemSchema, ItemStatusSchema, ItemTypeSchema, RecurrenceBody } from '../../schemas/item.js';
import { CAPTURE_TEXT_MAX } from '../../lib/capture-text.js';

// The item's own schemas sit below the modules (schemas/item.ts); the items routes answer with them.
export { ItemSchema, ItemStatusSchema, ItemTypeSchema, RecurrenceSchema } from '../../schemas/item.js';

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

export const ItemsQuery = Type.Object({
  since: Type.Optional(Type.String({ format: 'date-time', description: 'sync feed: items with updated_at >= since, oldest first' })),
  limit: Type.Optional(Type.Integer({ minimum: 1, description: 'default 50, at most 200 (larger values are clamped)' })),
  cursor: Type.Optional(Type.String({ minLength: 1, maxLength: 512 })),
  filter: Type.Optional(FilterQueryParam),
});

export const PatchItemBody = Type.Object({
  title: Type.Optional(Nullable(Type.String({ maxLength: 500 }))),
  content_md: Type.Optional(Nullable(Type.String({ maxLength: CAPTURE_TEXT_MAX }))),
  due_at: Type.Optional(Nullable(DateTime)),
  all_day: Type.Optional(
    Type.Boolean({
      description:
        "due on a day, not at a time: due_at moves to 00:00 of its date in the user's timezone; true needs a due_at (here or already set). Left out, a new due_at keeps the item's all_day",
    }),
  ),
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
