import { Type, type Static } from 'typebox';
import { Nullable, UtcTimestamp, Uuid, ref } from '../../schemas/common.js';
import { ItemSchema, type ItemView } from '../../schemas/item.js';

export const AiFieldSchema = Type.Union([
  Type.Literal('type'),
  Type.Literal('project_id'),
  Type.Literal('due_at'),
  Type.Literal('all_day'),
  Type.Literal('title'),
]);

export const AiSchema = Type.Object(
  {
    engine: Type.Union([Type.Literal('local'), Type.Literal('openai')], { description: 'the engine that decided (local when openai failed and fell back)' }),
    type: Type.Union([Type.Literal('note'), Type.Literal('todo')]),
    project_id: Nullable(Uuid),
    due_at: Nullable(UtcTimestamp),
    all_day: Type.Boolean({ description: "the due date is a day without a time: due_at is 00:00 of it in the user's timezone" }),
    title: Nullable(Type.String()),
    reason: Nullable(
      Type.String({
        description:
          'why the item went to its project or stayed, in a few words ("like 6 items in Work: offsite, agenda"); null when the project was given or already settled',
      }),
    ),
    applied: Type.Array(AiFieldSchema, { description: 'the fields the organizer changed, compared with the item as it would be without it' }),
  },
  {
    $id: 'Ai',
    title: 'Ai',
    description:
      'What the AI organizer decided. A field the client gave explicitly (type, project_id, due_at) is kept and shown as is; project_id is null when no project was chosen.',
  },
);
export type AiView = Static<typeof AiSchema>;
export type AiField = Static<typeof AiFieldSchema>;

/** An item as a capture or "organize this item" answers it: the item and what the organizer decided. */
export const CapturedItemSchema = Type.Object(
  {
    ...ItemSchema.properties,
    ai: Type.Union([ref(AiSchema), Type.Null()], { description: 'what the AI organizer decided; null when it did not run' }),
  },
  { $id: 'CapturedItem', title: 'CapturedItem' },
);

/** `ai` is what the organizer decided, or null when it did not run. */
export type CapturedItem = ItemView & { ai: AiView | null };
