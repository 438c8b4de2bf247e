import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import type { Services } from '../../container.js';
import type { PairingView } from '../../modules/pairing/pairing.service.js';
import { isScope, type Scope } from '../../modules/keys/scopes.js';
import { PageError } from '../page-error.js';
import { sendPage } from '../layout.js';
import { webContext } from '../session.js';
import { approvalPage, decidedPage, UNUSABLE_LINKS, type UnusableLink } from '../views/connect.views.js';
import { errorPage } from '../views/error.views.js';
import { CSRF_FIELD, field } from './forms.js';

const StateQuery = Type.Object({ state: field(200) });
// A form sends one checkbox value as a string and several as an array.
const ScopeField = Type.Optional(Type.Union([Type.String({ maxLength: 20 }), Type.Array(Type.String({ maxLength: 20 }), { maxItems: 10 })]));
const DecisionBody = Type.Object({ ...CSRF_FIELD, state: field(200), decision: field(20), scope: ScopeField, scope_choice: field(1) });

/** The ticked boxes; names that are not scopes are dropped (the service narrows to what was asked). */
const tickedScopes = (value: string | string[] | undefined): Scope[] => (value === undefined ? [] : [value].flat().filter(isScope));

export const connectRoutes: FastifyPluginAsyncTypebox<Pick<Services, 'clock' | 'limits' | 'pairing'>> = async (app, { clock, limits, pairing }) => {
  // States are guessed here as well as at the API: the page spends the same per-address budget.
  app.addHook('onRequest', async (request, reply) => {
    const decision = await limits.checkClientIp(request.ip);
    if (decision.allowed) return;
    void reply.header('retry-after', String(decision.retryAfter));
    throw new PageError(429, 'Too many requests', `Too many pairing requests from your address. Try again in ${decision.retryAfter} seconds.`);
  });

  function unusable(request: FastifyRequest, reply: FastifyReply, kind: UnusableLink): FastifyReply {
    const { user, csrf } = webContext(request);
    const { status, title, message } = UNUSABLE_LINKS[kind];
    return sendPage(reply, status, errorPage({ title, message, user, csrf }));
  }

  /** Every page but the approval form: what happened to the request, as far as this user may know. */
  function outcome(request: FastifyRequest, reply: FastifyReply, p: PairingView | null): FastifyReply {
    if (!p) return unusable(request, reply, 'unknown');
    const { user, csrf } = webContext(request);
    const mine = user !== null && p.user_id === user.id;
    if (mine && (p.status === 'approved' || p.status === 'exchanged' || p.status === 'denied')) {
      return sendPage(reply, 200, decidedPage({ user, csrf, label: p.label, approved: p.status !== 'denied' }));
    }
    return unusable(request, reply, p.status === 'expired' ? 'expired' : 'used');
  }

  // Showing the request changes nothing; only the POST below decides.
  app.get('/connect/agent', { schema: { querystring: StateQuery } }, async (request, reply) => {
    const state = request.query.state ?? '';
    const found = await pairing.find(state);
    if (found?.status !== 'pending') return outcome(request, reply, found);
    const { user, csrf } = webContext(request);
    if (!user) return reply.redirect(`/login?next=${encodeURIComponent(`/connect/agent?state=${state}`)}`, 303);
    return sendPage(reply, 200, approvalPage({ user, csrf, state, pairing: found, now: clock.now() }));
  });

  app.post('/connect/agent', { schema: { body: DecisionBody } }, async (request, reply) => {
    const { user } = webContext(request);
    const state = request.body.state ?? '';
    if (!user) return reply.redirect(`/login?next=${encodeURIComponent(`/connect/agent?state=${state}`)}`, 303);
    const decision = request.body.decision;
    if (decision !== 'approve' && decision !== 'deny') {
      return sendPage(
        reply,
        400,
        errorPage({
          title: 'Choose Approve or Deny',
          message: 'The form did not say whether to approve or deny. Open the link again.',
          user,
          csrf: webContext(request).csrf,
        }),
      );
    }
    // The page's form marks that it showed the boxes; a post without the marker (no boxes shown) grants what was asked.
    const granted = request.body.scope_choice ? tickedScopes(request.body.scope) : undefined;
    if (decision === 'approve' && granted?.length === 0) {
      const found = await pairing.find(state);
      if (found?.status !== 'pending') return outcome(request, reply, found);
      const page = approvalPage({
        user,
        csrf: webContext(request).csrf,
        state,
        pairing: found,
        now: clock.now(),
        error: 'Tick at least one permission to approve, or deny the request.',
      });
      return sendPage(reply, 400, page);
    }
    // The key will belong to the session's user: nothing in the form names an account.
    const { pairing: after } = await pairing.decide(state, user.id, decision === 'approve', granted);
    return outcome(request, reply, after);
  });
};
