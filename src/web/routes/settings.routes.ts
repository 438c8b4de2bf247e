import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import type { Services } from '../../container.js';
import { AppError } from '../../errors.js';
import { MAX_EXPIRY_DAYS } from '../../modules/keys/keys.service.js';
import type { SessionUser } from '../../modules/accounts/accounts.service.js';
import { zoneAndLocale } from '../acting.js';
import { sendPage } from '../layout.js';
import { webContext } from '../session.js';
import { settingsPage, type SettingsPageData, type WebhookSummary } from '../views/settings.views.js';
import { isScope, SCOPES } from '../../modules/keys/scopes.js';
import { dataRoutes } from './data.routes.js';
import { CSRF_FIELD, field } from './forms.js';

/** Lists a user's webhooks; present only when the server has webhooks. */
export interface WebhookSource {
  listForUser(userId: string): Promise<WebhookSummary[]>;
}

const LABEL_MAX = 100;
const NOTICES: Record<string, string> = {
  revoked: 'The key was revoked. Requests with it are refused from now on.',
  timezone: 'Time zone saved.',
};

const DoneQuery = Type.Object({ done: field(20) });
const MintBody = Type.Object({
  ...CSRF_FIELD,
  label: field(1000),
  // One ticked box arrives as a string, several as an array.
  scope: Type.Optional(Type.Union([Type.String({ maxLength: 20 }), Type.Array(Type.String({ maxLength: 20 }), { maxItems: 10 })])),
  scope_choice: field(1),
  expires_in_days: field(10),
});
const TimezoneBody = Type.Object({ ...CSRF_FIELD, timezone: field(100) });
const KeyParams = Type.Object({ id: Type.String({ maxLength: 100 }) });

export const settingsRoutes: FastifyPluginAsyncTypebox<Pick<Services, 'keys' | 'transfer' | 'users'> & { webhooks?: WebhookSource }> = async (
  app,
  { keys, transfer, users, webhooks },
) => {
  async function render(request: FastifyRequest, reply: FastifyReply, user: SessionUser, status: number, extra: Partial<SettingsPageData> = {}) {
    const [keyList, hooks, isOwner] = await Promise.all([keys.list(user.id), webhooks ? webhooks.listForUser(user.id) : null, users.isOwner(user.id)]);
    const page = settingsPage({
      user,
      csrf: webContext(request).csrf,
      keys: keyList,
      dates: zoneAndLocale(request, user.timezone),
      webhooks: hooks,
      isOwner,
      ...extra,
    });
    return sendPage(reply, status, page);
  }

  // Export and import, whose results show on this page.
  await app.register(dataRoutes, {
    transfer,
    render: async (request, reply, status, extra) => {
      const { user } = webContext(request);
      if (!user) return reply.redirect('/login', 303);
      return render(request, reply, user, status, extra);
    },
  });

  const signInFirst = (reply: FastifyReply) => reply.redirect(`/login?next=${encodeURIComponent('/settings/keys')}`, 303);

  app.get('/settings/keys', { schema: { querystring: DoneQuery } }, async (request, reply) => {
    const { user } = webContext(request);
    if (!user) return signInFirst(reply);
    const notice = request.query.done ? NOTICES[request.query.done] : undefined;
    return render(request, reply, user, 200, notice ? { notice } : {});
  });

  app.post('/settings/keys', { schema: { body: MintBody } }, async (request, reply) => {
    const { user } = webContext(request);
    if (!user) return signInFirst(reply);
    const label = (request.body.label ?? '').trim();
    if (label === '' || Array.from(label).length > LABEL_MAX) {
      return render(request, reply, user, 400, { error: `Give the key a label of 1 to ${LABEL_MAX} characters.` });
    }
    // The page's form marks that it showed the boxes; a post without the marker mints a key with every scope.
    const scopes = request.body.scope_choice ? [request.body.scope ?? []].flat().filter(isScope) : [...SCOPES];
    if (scopes.length === 0) return render(request, reply, user, 400, { error: 'Tick at least one thing the key may do.' });
    const days = request.body.expires_in_days ? Number(request.body.expires_in_days) : undefined;
    if (days !== undefined && (!Number.isInteger(days) || days < 1 || days > MAX_EXPIRY_DAYS)) {
      return render(request, reply, user, 400, { error: `Choose an expiry of 1 to ${MAX_EXPIRY_DAYS} days, or never.` });
    }
    const { token } = await keys.mint(user.id, label, { scopes, ...(days !== undefined ? { expiresInDays: days } : {}) });
    // The token is in this response only; the page is not redirected so that it is never stored.
    return render(request, reply, user, 200, { minted: { label, token } });
  });

  app.post('/settings/keys/:id/revoke', { schema: { params: KeyParams, body: Type.Object(CSRF_FIELD) } }, async (request, reply) => {
    const { user } = webContext(request);
    if (!user) return signInFirst(reply);
    await keys.revokeOwn(user.id, request.params.id);
    return reply.redirect('/settings/keys?done=revoked', 303);
  });

  app.post('/settings/timezone', { schema: { body: TimezoneBody } }, async (request, reply) => {
    const { user } = webContext(request);
    if (!user) return signInFirst(reply);
    try {
      await users.updateMe(user.id, { timezone: request.body.timezone ?? '' });
    } catch (error) {
      if (!(error instanceof AppError) || error.statusCode >= 500) throw error;
      return render(request, reply, user, error.statusCode, { error: error.message });
    }
    // The time zone lives under Account now; an old form posting here lands there.
    return reply.redirect('/account?done=timezone', 303);
  });
};
