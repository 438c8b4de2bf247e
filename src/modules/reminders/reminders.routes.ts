import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { Services } from '../../container.js';
import { authUser } from '../../plugins/auth.js';
import { DateTime, IdParams, Nullable, PageQuery, StringEnum, UtcTimestamp, Uuid, errorResponses, ref } from '../../schemas/common.js';
import { ifMatchPrecondition } from '../items/item-etag.js';
import { IfMatchHeaders } from '../items/item-etag.schemas.js';
import { ItemSchema } from '../items/items.schemas.js';

const SnoozeBody = Type.Object({
  minutes: Type.Optional(Type.Integer({ minimum: 1, maximum: 10080, description: 'remind again this many minutes from now' })),
  until: Type.Optional(DateTime),
});

const ReminderLogPage = Type.Object(
  {
    deliveries: Type.Array(
      Type.Object({
        id: Uuid,
        item_id: Uuid,
        channel_id: Nullable(Uuid),
        kind: Nullable(StringEnum(['webpush', 'ntfy', 'email'])),
        remind_at: UtcTimestamp,
        status: StringEnum(['pending', 'succeeded', 'failed', 'missed'], { description: 'pending | succeeded | failed | missed' }),
        attempts: Type.Integer(),
        last_status: Nullable(Type.Integer()),
        created_at: UtcTimestamp,
      }),
    ),
    next_cursor: Nullable(Type.String()),
  },
  { title: 'ReminderLogPage' },
);

export const remindersRoutes: FastifyPluginAsyncTypebox<Pick<Services, 'reminders'>> = async (app, { reminders }) => {
  app.post(
    '/items/:id/snooze',
    {
      config: { scope: 'write', idempotent: true, etag: 'item' },
      schema: {
        tags: ['reminders'],
        operationId: 'snoozeItem',
        summary: 'Remind again later: sets remind_at to now + minutes, or to until',
        params: IdParams,
        headers: IfMatchHeaders,
        body: SnoozeBody,
        response: { 200: ref(ItemSchema, 'the item with its new remind_at'), ...errorResponses(400, 401, 404, 412, 413, 415, 429) },
      },
    },
    async (request) => reminders.snooze(authUser(request).id, request.params.id, request.body, ifMatchPrecondition(request.headers['if-match'])),
  );

  app.get(
    '/reminders/log',
    {
      config: { scope: 'read' },
      schema: {
        tags: ['reminders'],
        operationId: 'listReminderLog',
        summary: 'Reminders sent and missed, newest first (kept 7 days)',
        querystring: PageQuery,
        response: { 200: ReminderLogPage, ...errorResponses(400, 401, 429) },
      },
    },
    async (request) => reminders.log(authUser(request).id, request.query),
  );
};
