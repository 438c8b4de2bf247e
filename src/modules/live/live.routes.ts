import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { Services } from '../../container.js';
import { authUser } from '../../plugins/auth.js';
import { errorResponses } from '../../schemas/common.js';
import { installChangeStreams, sseSink } from './sse-sink.js';

const StreamQuery = Type.Object({
  cursor: Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: 512,
      description: "start after this position (a change's cursor or GET /changes' next_cursor); Last-Event-ID wins when both are sent",
    }),
  ),
});

const STREAM_FORMAT =
  'Server-Sent Events. Each change: `id: <its cursor>`, `event: change`, `data: <the change as in GET /changes>` (schema Change). ' +
  'A comment line (`: heartbeat`) every 15 s keeps proxies from closing an idle stream.';

export const liveRoutes: FastifyPluginAsyncTypebox<Pick<Services, 'live'>> = async (app, { live }) => {
  // Registered here, so its route hook and reply decoration reach this plugin's routes only.
  await installChangeStreams(app, live);

  app.get(
    '/changes/stream',
    {
      // `manual`: no Accept negotiation (a stream answers whatever the client accepts, errors as JSON).
      sse: { kind: 'manual' },
      config: { scope: 'read' },
      schema: {
        tags: ['sync'],
        operationId: 'streamChanges',
        summary: 'The change feed live, as Server-Sent Events',
        description:
          'Starts after the Last-Event-ID header, else after `cursor`, else at the newest change; an EventSource reconnect resumes with no gap and no repeat. ' +
          'A change committed by any process of the service arrives within 1 s. At most 10 open streams a user (the 11th is 429 too_many_streams); ' +
          "opening one counts as one request against the limits. A revoked key's streams end within 5 s. " +
          STREAM_FORMAT,
        querystring: StreamQuery,
        headers: Type.Object({
          'last-event-id': Type.Optional(Type.String({ maxLength: 512, description: 'the id of the last event received (EventSource sends it on reconnect)' })),
        }),
        response: {
          200: {
            description: 'the stream of changes',
            content: { 'text/event-stream': { schema: Type.String({ description: STREAM_FORMAT }) } },
          },
          ...errorResponses({ 410: 'the cursor is older than 30 days (cursor_expired)' }, 400, 401, 410, 429),
        },
      },
    },
    async (request, reply) => live.open(authUser(request), { cursor: request.query.cursor, lastEventId: request.headers['last-event-id'] }, sseSink(reply)),
  );
};
