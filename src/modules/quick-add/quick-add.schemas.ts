import { Type } from 'typebox';
import { Nullable, StringEnum, UtcTimestamp, Uuid } from '../../schemas/common.js';
import { CAPTURE_TEXT_MAX } from '../../lib/capture-text.js';

export const ParseBody = Type.Object({
  text: Type.String({
    minLength: 1,
    pattern: '\\S',
    description: `1..${CAPTURE_TEXT_MAX} characters after trim, as capture takes it; only the first line is read`,
  }),
});

const SpanSchema = Type.Object({
  kind: StringEnum(['project', 'tag', 'date', 'recurrence'], { description: 'project | tag | date | recurrence' }),
  start: Type.Integer({ minimum: 0, description: 'offset in text, in UTF-16 code units (as JavaScript and the DOM count)' }),
  end: Type.Integer({ minimum: 0, description: 'offset just past the span, UTF-16 code units' }),
  text: Type.String({ description: 'the span as typed' }),
  value: Type.String({ description: 'the project id, the tag name, the ISO instant or the RRULE' }),
});

const RecurrenceSchema = Type.Object(
  {
    rule: Type.String({ description: 'RFC 5545 RRULE without the RRULE: prefix, e.g. FREQ=WEEKLY;BYDAY=MO' }),
    from: StringEnum(['due', 'completion'], {
      description: 'due: the next occurrence follows the previous due date; completion (every!): it follows the completion',
    }),
  },
  { description: 'a repeating schedule' },
);

export const QuickAddSchema = Type.Object(
  {
    title: Type.String({ description: 'the first line without the understood tokens' }),
    content_md: Nullable(Type.String({ description: 'the lines after the first, as typed' })),
    due_at: Nullable(UtcTimestamp),
    all_day: Type.Boolean({
      description: "the date names a day without a time of day: due_at is 00:00 of that day in the user's timezone and the item is all-day",
    }),
    project_id: Nullable(Uuid),
    tags: Type.Array(Type.String(), { description: 'tag names; unknown ones are created when captured' }),
    recurrence: Nullable(RecurrenceSchema),
    spans: Type.Array(SpanSchema, { description: 'what was understood, in order of position in the first line' }),
  },
  { $id: 'QuickAdd', title: 'QuickAdd', description: 'What quick add understands in a text: the fields a capture with parse: true stores' },
);
