import { Type, type Static } from 'typebox';
import { DateTime, Nullable, ref, Uuid } from '../../schemas/common.js';
import { ItemSchema, ItemTypeSchema, RecurrenceBody } from '../../schemas/item.js';
import { CAPTURE_TEXT_MAX } from '../../lib/capture-text.js';
import { SPLIT_ITEMS_MAX } from '../quick-add/split-lines.js';

const TagNames = (description: string) =>
  Type.Array(Type.String({ minLength: 1, pattern: '^[^,]*$', description: 'tag name: 1..50 characters after trim, no comma' }), {
    maxItems: 20,
    description,
  });

export const CaptureBody = Type.Object({
  // The limit applies after trim (checked by the service), so padding around a full text is fine.
  text: Type.String({
    minLength: 1,
    pattern: '\\S',
    description: `1..${CAPTURE_TEXT_MAX} characters after trim; the first line becomes the title, the rest content_md`,
  }),
  project_id: Type.Optional(Uuid),
  type: Type.Optional(ItemTypeSchema),
  organize: Type.Optional(Type.Boolean({ default: false, description: 'run the AI organizer (Pro)' })),
  client_id: Type.Optional(Type.String({ format: 'uuid', description: 'idempotency key: repeating it returns the first item with 200' })),
  due_at: Type.Optional(DateTime),
  all_day: Type.Optional(
    Type.Boolean({
      description:
        "due on a day, not at a time: due_at is stored at 00:00 of its date in the user's timezone; true needs a due_at (given, or read by parse or the organizer)",
    }),
  ),
  recurrence: Type.Optional(Type.Union([RecurrenceBody, Type.Null()], { description: 'a repeating schedule; needs a due_at' })),
  remind_at: Type.Optional(Nullable(DateTime)),
  tags: Type.Optional(TagNames('tag names, as PATCH takes them; unknown names are created. Given, they win over tags quick add reads')),
  parse: Type.Optional(
    Type.Boolean({
      default: false,
      description:
        'read the first line with quick add (POST /parse: #Project, @tag, dates, every …) and store what it understands; project_id, due_at, type and tags given here win',
    }),
  ),
});
export type CaptureBody = Static<typeof CaptureBody>;

export const BatchCaptureBody = Type.Object({
  text: Type.String({
    minLength: 1,
    pattern: '\\S',
    description: `1..${CAPTURE_TEXT_MAX} characters after trim, split into at most ${SPLIT_ITEMS_MAX} items as POST /parse with split previews it`,
  }),
  parse: Type.Optional(Type.Boolean({ default: true, description: 'read each item with quick add; false stores each line as typed' })),
  organize: Type.Optional(
    Type.Boolean({
      default: false,
      description:
        'on a server whose organizer is an OpenAI-compatible model, prose the rules leave one item may be split by the model, as POST /parse with split and organize previewed it; Pro',
    }),
  ),
  project_id: Type.Optional(Type.String({ format: 'uuid', description: 'the project of the items that name none (default the Inbox); unknown: 404' })),
  tags: Type.Optional(TagNames("tag names added to each item's own; unknown names are created")),
});
export type BatchCaptureBody = Static<typeof BatchCaptureBody>;

export const BatchCaptureSchema = Type.Object({ items: Type.Array(ref(ItemSchema), { description: 'the new items, in text order' }) });
