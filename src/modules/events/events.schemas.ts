import { Type } from 'typebox';
import { StringEnum, UtcTimestamp, Uuid, ref } from '../../schemas/common.js';
import { SavedFilterSchema } from '../../schemas/filter.js';
import { ItemSchema } from '../../schemas/item.js';
import { FEED_EVENT_NAMES } from './events.service.js';

export const ChangeSchema = Type.Object(
  {
    id: Uuid,
    event: StringEnum(FEED_EVENT_NAMES, { description: FEED_EVENT_NAMES.join(' | ') }),
    created_at: UtcTimestamp,
    data: Type.Object(
      {
        item: Type.Optional(ref(ItemSchema)),
        next_due_at: Type.Optional(UtcTimestamp),
        filter: Type.Optional(ref(SavedFilterSchema)),
      },
      {
        description:
          'item events: the item after the change (for item.deleted, as it was; item.completed of a recurring item adds next_due_at); filter events: the saved filter, likewise',
      },
    ),
    cursor: Type.String({ description: 'the feed position just after this change' }),
  },
  { $id: 'Change', title: 'Change', description: 'exactly the body a webhook receives for the event, plus cursor' },
);

export const ChangePageSchema = Type.Object(
  {
    changes: Type.Array(ref(ChangeSchema), { description: 'in commit order' }),
    next_cursor: Type.String({ description: 'never null: where the next call starts; store it' }),
    has_more: Type.Boolean({ description: 'true when more changes are ready now: call again at once' }),
  },
  { $id: 'ChangePage', title: 'ChangePage' },
);

export const ChangesQuery = Type.Object({
  cursor: Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: 512,
      description: "next_cursor (or a change's cursor) from an earlier call; without it, from the oldest kept change",
    }),
  ),
  limit: Type.Optional(Type.Integer({ minimum: 1, description: 'default 100, at most 500 (larger values are clamped)' })),
});
