import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import type { Services } from '../../container.js';
import { AppError } from '../../errors.js';
import type { SessionUser } from '../../modules/accounts/accounts.service.js';
import type { ChannelInput } from '../../modules/deliveries/channel-input.js';
import type { TestDelivery } from '../../modules/deliveries/channels.service.js';
import { actingUser, overLimit, signInFirst, zoneAndLocale } from '../acting.js';
import { sendPage } from '../layout.js';
import { webContext } from '../session.js';
import { notificationsPage, type NotificationsPageData } from '../views/notifications.views.js';
import { CSRF_FIELD, field } from './forms.js';

const PAGE = '/account/notifications';
/** A week, in minutes: the contract's bound of reminder_default. */
const MAX_REMINDER_DEFAULT = 10080;
const DoneQuery = Type.Object({ done: field(20) });
const IdParams = Type.Object({ id: Type.String({ maxLength: 100 }) });
const NtfyBody = Type.Object({ ...CSRF_FIELD, url: field(2100), token: field(600) });
const EmailBody = Type.Object({ ...CSRF_FIELD, address: field(400) });
const DefaultBody = Type.Object({ ...CSRF_FIELD, reminder_default: field(10) });
// The script posts the browser's PushSubscription as JSON; the channels service checks its parts.
const PushBody = Type.Object({
  ...CSRF_FIELD,
  subscription: Type.Object({
    endpoint: Type.String({ minLength: 1, maxLength: 2000 }),
    keys: Type.Object({ p256dh: Type.String({ minLength: 1, maxLength: 200 }), auth: Type.String({ minLength: 1, maxLength: 100 }) }),
  }),
});

const NOTICES: Record<string, string> = {
  ntfy: 'The ntfy topic was added. Send it a test to see it arrive.',
  email: 'The email address was added. Send it a test to see it arrive.',
  push: 'Push is on for this browser.',
  removed: 'The channel was removed.',
  default: 'Default reminder saved.',
};

type Errors = NonNullable<NotificationsPageData['errors']>;

/** A refusal of a service as the page's message; anything else is a page error. */
function refusal(error: unknown): AppError {
  if (error instanceof AppError && error.statusCode < 500) return error;
  throw error;
}

/** How a test went, in words. */
function testOutcome(t: TestDelivery, removed: boolean): { notice?: string; error?: string } {
  const answer = t.last_status === 0 ? 'no answer came' : `it answered ${t.last_status}`;
  if (t.status === 'succeeded') return { notice: `Test sent (${answer}). It should arrive in a moment.` };
  if (removed)
    return { error: 'The push service says this browser’s subscription is gone (it was revoked or expired), so the channel was removed. Turn push on again.' };
  return { error: `The test did not go through: ${answer}. Check the address and try again.` };
}

export const notificationsRoutes: FastifyPluginAsyncTypebox<Pick<Services, 'channels' | 'limits' | 'users'> & { smtp: boolean }> = async (
  app,
  { channels, limits, users, smtp },
) => {
  async function render(request: FastifyRequest, reply: FastifyReply, user: SessionUser, status: number, extra: Partial<NotificationsPageData> = {}) {
    const [list, me, pushKey] = await Promise.all([channels.list(user.id), users.me(user.id), channels.publicKey()]);
    const page = notificationsPage({
      user,
      csrf: webContext(request).csrf,
      channels: list,
      reminderDefault: me.reminder_default,
      pushKey,
      smtp,
      dates: zoneAndLocale(request, user.timezone),
      ...extra,
    });
    return sendPage(reply, status, page);
  }

  /** Adds a channel from a form; a refusal comes back on the page with what was typed. */
  async function add(request: FastifyRequest, reply: FastifyReply, input: ChannelInput, field: keyof Errors, values: NotificationsPageData['values']) {
    const user = actingUser(request);
    if (!user) return reply.redirect('/login', 303);
    const again = (status: number, message: string, on: keyof Errors = field) => render(request, reply, user, status, { errors: { [on]: message }, values });
    const limited = await overLimit(limits, user, reply);
    if (limited) return again(429, limited, 'form');
    try {
      await channels.create(user.id, input);
    } catch (error) {
      const e = refusal(error);
      return again(e.statusCode, e.message, e.details?.[0]?.field === 'token' ? 'ntfy_token' : field);
    }
    return reply.redirect(`${PAGE}?done=${input.kind}`, 303);
  }

  app.get(PAGE, { schema: { querystring: DoneQuery } }, async (request, reply) => {
    const user = actingUser(request);
    if (!user) return signInFirst(reply, PAGE);
    const notice = request.query.done ? NOTICES[request.query.done] : undefined;
    return render(request, reply, user, 200, notice ? { notice } : {});
  });

  app.post(`${PAGE}/ntfy`, { schema: { body: NtfyBody } }, async (request, reply) => {
    const url = (request.body.url ?? '').trim();
    const token = (request.body.token ?? '').trim();
    return add(request, reply, { kind: 'ntfy', url, ...(token ? { token } : {}) }, 'ntfy_url', { ntfy_url: url });
  });

  app.post(`${PAGE}/email`, { schema: { body: EmailBody } }, async (request, reply) => {
    const address = (request.body.address ?? '').trim();
    return add(request, reply, { kind: 'email', address }, 'address', { address });
  });

  /**
   * The script's route: JSON in, JSON out (the contract's error shape on a refusal), since the
   * subscription exists only in the browser's script. 201 with the channel as the API answers it.
   */
  app.post(`${PAGE}/push`, { schema: { body: PushBody } }, async (request, reply) => {
    const user = actingUser(request);
    if (!user) return reply.status(401).send({ error: 'unauthorized', message: 'Sign in again, then turn push on.' });
    const limited = await overLimit(limits, user, reply);
    if (limited) return reply.status(429).send({ error: 'rate_limited', message: limited });
    try {
      return reply.status(201).send({ channel: await channels.create(user.id, { kind: 'webpush', subscription: request.body.subscription }) });
    } catch (error) {
      const e = refusal(error);
      return reply.status(e.statusCode).send({ error: e.code, message: e.message, ...(e.details ? { details: e.details } : {}) });
    }
  });

  app.post(`${PAGE}/default`, { schema: { body: DefaultBody } }, async (request, reply) => {
    const user = actingUser(request);
    if (!user) return reply.redirect('/login', 303);
    const raw = (request.body.reminder_default ?? '').trim();
    const again = (status: number, message: string) => render(request, reply, user, status, { errors: { reminder_default: message } });
    // The API's schema bounds it (0..10080 minutes); the service takes what the route let through.
    if (raw !== '' && (!/^\d{1,5}$/.test(raw) || Number(raw) > MAX_REMINDER_DEFAULT)) return again(400, 'Choose one of the listed times.');
    const limited = await overLimit(limits, user, reply);
    if (limited) return again(429, limited);
    try {
      await users.updateMe(user.id, { reminder_default: raw === '' ? null : Number(raw) });
    } catch (error) {
      return again(refusal(error).statusCode, refusal(error).message);
    }
    return reply.redirect(`${PAGE}?done=default`, 303);
  });

  app.post(`${PAGE}/:id/delete`, { schema: { params: IdParams, body: Type.Object(CSRF_FIELD) } }, async (request, reply) => {
    const user = actingUser(request);
    if (!user) return reply.redirect('/login', 303);
    const limited = await overLimit(limits, user, reply);
    if (limited) return render(request, reply, user, 429, { errors: { form: limited } });
    try {
      await channels.remove(user.id, request.params.id);
    } catch (error) {
      const e = refusal(error);
      // Removed already (another tab, or a revoked push subscription): the page as it is now says so.
      return render(request, reply, user, e.statusCode, { errors: { form: e.code === 'not_found' ? 'That channel is not there any more.' : e.message } });
    }
    return reply.redirect(`${PAGE}?done=removed`, 303);
  });

  app.post(`${PAGE}/:id/test`, { schema: { params: IdParams, body: Type.Object(CSRF_FIELD) } }, async (request, reply) => {
    const user = actingUser(request);
    if (!user) return reply.redirect('/login', 303);
    const limited = await overLimit(limits, user, reply);
    if (limited) return render(request, reply, user, 429, { errors: { form: limited } });
    let sent: TestDelivery;
    try {
      sent = await channels.test(user.id, request.params.id);
    } catch (error) {
      const e = refusal(error);
      return render(request, reply, user, e.statusCode, { errors: { form: e.code === 'not_found' ? 'That channel is not there any more.' : e.message } });
    }
    const removed = sent.status === 'failed' && !(await channels.list(user.id)).some((c) => c.id === sent.channel_id);
    const outcome = testOutcome(sent, removed);
    return render(request, reply, user, 200, outcome.error ? { errors: { form: outcome.error } } : { notice: outcome.notice ?? '' });
  });
};
