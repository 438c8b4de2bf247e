import { Type } from 'typebox';
import { Nullable, StringEnum, UtcTimestamp, Uuid } from '../../schemas/common.js';

const FeedKindSchema = StringEnum(['todos', 'events'] as const, {
  description: 'todos: each open todo as a VTODO; events: each open item with a due date as a VEVENT at it, its reminder as a VALARM',
});

export const NewFeedBody = Type.Object({
  project_id: Type.Optional(Type.String({ description: "a project's id: its open todos (exactly one of project_id, filter_id, all)" })),
  filter_id: Type.Optional(Type.String({ description: "a saved filter's id: the open todos it picks" })),
  all: Type.Optional(Type.Boolean({ description: 'true: every open todo of the account' })),
  as: Type.Optional(FeedKindSchema),
});

const FeedSchema = Type.Object(
  {
    id: Uuid,
    url: Type.String({ description: 'PUBLIC_URL/feeds/{secret}.ics, readable with no key: keep it private; rotate it if it leaks' }),
    project_id: Nullable(Uuid),
    filter_id: Nullable(Uuid),
    all: Type.Boolean({ description: "true when the feed is the whole account's" }),
    as: FeedKindSchema,
    created_at: UtcTimestamp,
    updated_at: UtcTimestamp,
  },
  { description: 'a subscribable calendar feed' },
);

export const FeedAnswer = Type.Object({ feed: FeedSchema });
export const FeedListAnswer = Type.Object({ feeds: Type.Array(FeedSchema, { description: 'oldest first' }) });
