import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { Services } from '../../container.js';
import type { AccountsService } from '../../modules/accounts/accounts.service.js';
import type { ChangeSink } from '../../modules/live/live.service.js';
import { installChangeStreams, sseSink } from '../../modules/live/sse-sink.js';
import { actingUser, overLimit } from '../acting.js';
import { PageError } from '../page-error.js';
import { webContext } from '../session.js';
import { field } from './forms.js';

const LiveQuery = Type.Object({ cursor: field(512) });
const LiveHeaders = Type.Object({ 'last-event-id': Type.Optional(Type.String({ maxLength: 512 })) });

/** How long a session check holds: a burst of changes costs one look-up a second, not one each. */
const SESSION_CHECK_MS = 1_000;

/**
 * A session's stream sends nothing once the session ended (signed out in another browser, a new
 * password): before a change goes out the session is looked up again, and a gone one ends the
 * stream. An idle stream sends no data, so it needs no check until a change arrives.
 */
function whileSignedIn(sink: ChangeSink, accounts: Pick<AccountsService, 'resolve'>, token: string): ChangeSink {
  // A throttle, not a time of the service: the monotonic clock, so a test's fixed clock cannot stall it.
  const now = () => performance.now();
  let checkedAt = -Infinity;
  return {
    ...sink,
    async send(change) {
      if (now() - checkedAt >= SESSION_CHECK_MS) {
        if (!(await accounts.resolve(token))) {
          sink.end();
          return;
        }
        checkedAt = now();
      }
      await sink.send(change);
    },
  };
}

/**
 * GET /live: the signed-in user's change stream for an open page (decision 0049). The API's
 * stream under the session cookie instead of a key, so no key is ever handed to a page: the same
 * service, framing, cursor and Last-Event-ID rules, and the same per-user cap of open streams.
 */
export const webLiveRoutes: FastifyPluginAsyncTypebox<Pick<Services, 'accounts' | 'limits' | 'live'>> = async (app, { accounts, limits, live }) => {
  await installChangeStreams(app, live);

  app.get('/live', { sse: { kind: 'manual' }, schema: { querystring: LiveQuery, headers: LiveHeaders } }, async (request, reply) => {
    const user = actingUser(request);
    // A stream cannot follow a redirect to the sign-in page: a signed-out page is told so plainly.
    if (!user) throw new PageError(401, 'Please sign in', 'Sign in to see your items change live.');
    // Opening a stream counts as one request, as GET /api/v1/changes/stream does.
    const limited = await overLimit(limits, user, reply);
    if (limited) throw new PageError(429, 'Too many requests', limited);
    const sink = whileSignedIn(sseSink(reply), accounts, webContext(request).sessionToken!);
    await live.open(user, { cursor: request.query.cursor, lastEventId: request.headers['last-event-id'] }, sink);
  });
};
