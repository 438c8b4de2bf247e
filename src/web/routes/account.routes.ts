import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import type { Services } from '../../container.js';
import { AppError } from '../../errors.js';
import type { SessionUser } from '../../modules/accounts/accounts.service.js';
import { signInFirst, zoneAndLocale } from '../acting.js';
import { sendPage } from '../layout.js';
import { webContext, type SessionCookies } from '../session.js';
import { accountDeletedPage, accountPage, type AccountPageData } from '../views/account.views.js';
import { IMPORT_BODY_LIMIT } from '../../modules/transfer/transfer.schemas.js';
import { installUploadParser, type UploadBody } from '../upload-form.js';
import { importUpload } from './data.routes.js';
import { zonesFor } from '../time-zones.js';
import { CSRF_FIELD, field } from './forms.js';

const DoneQuery = Type.Object({ done: field(20) });
const PasswordBody = Type.Object({ ...CSRF_FIELD, username: field(320), current_password: field(1000), new_password: field(1000) });
const DeleteBody = Type.Object({ ...CSRF_FIELD, confirmation: field(400) });
const SessionParams = Type.Object({ id: Type.String({ maxLength: 100 }) });
const TimezoneBody = Type.Object({ ...CSRF_FIELD, timezone: field(100) });
const NOTICES: Record<string, string> = {
  timezone: 'Time zone saved.',
  password: 'Password changed. Every other browser was signed out.',
  ended: 'That browser was signed out.',
  email: 'A new email-in address is ready. Mail to the old one is rejected from now on.',
};

/** The field a refusal belongs to, by the service's detail. */
const fieldOf = (error: AppError): keyof NonNullable<AccountPageData['errors']> => {
  const named = error.details?.[0]?.field;
  return named === 'current_password' || named === 'new_password' || named === 'confirmation' ? named : 'form';
};

export const accountRoutes: FastifyPluginAsyncTypebox<
  Pick<Services, 'accountSettings' | 'transfer' | 'users' | 'emailIn'> & { cookies: SessionCookies }
> = async (app, { accountSettings, transfer, users, emailIn, cookies }) => {
  /** The account page of the signed-in user; the routes below redirect signed-out browsers first. */
  function session(request: FastifyRequest): { user: SessionUser; token: string } | null {
    const { user, sessionToken } = webContext(request);
    return user && sessionToken ? { user, token: sessionToken } : null;
  }

  async function render(
    request: FastifyRequest,
    reply: FastifyReply,
    s: { user: SessionUser; token: string },
    status: number,
    extra: Partial<AccountPageData> = {},
  ) {
    const sessions = await accountSettings.sessions(s.user.id, s.token);
    const emailAddress = await emailIn.address(s.user.id);
    return sendPage(
      reply,
      status,
      accountPage({
        user: s.user,
        csrf: webContext(request).csrf,
        sessions,
        dates: zoneAndLocale(request, s.user.timezone),
        timeZones: zonesFor(s.user.timezone),
        emailAddress,
        ...extra,
      }),
    );
  }

  /** A refusal of the service as the form's message; anything else is a page error. */
  const refused = (error: unknown): AppError => {
    if (error instanceof AppError && error.statusCode < 500) return error;
    throw error;
  };

  app.post('/account/timezone', { schema: { body: TimezoneBody } }, async (request, reply) => {
    const s = session(request);
    if (!s) return reply.redirect('/login', 303);
    try {
      await users.updateMe(s.user.id, { timezone: request.body.timezone ?? '' });
    } catch (error) {
      return render(request, reply, s, refused(error).statusCode, { errors: { timezone: refused(error).message } });
    }
    return reply.redirect('/account?done=timezone', 303);
  });

  app.get('/account', { schema: { querystring: DoneQuery } }, async (request, reply) => {
    const s = session(request);
    if (!s) return signInFirst(reply, '/account');
    const notice = request.query.done ? NOTICES[request.query.done] : undefined;
    return render(request, reply, s, 200, notice ? { notice } : {});
  });

  app.post('/account/password', { schema: { body: PasswordBody } }, async (request, reply) => {
    const s = session(request);
    if (!s) return reply.redirect('/login', 303);
    try {
      await accountSettings.changePassword({
        userId: s.user.id,
        email: s.user.email,
        sessionToken: s.token,
        current: request.body.current_password ?? '',
        next: request.body.new_password ?? '',
        ip: request.ip,
      });
    } catch (error) {
      const e = refused(error);
      if (e.headers) void reply.headers(e.headers);
      return render(request, reply, s, e.statusCode, { errors: { [fieldOf(e)]: e.message } });
    }
    return reply.redirect('/account?done=password', 303);
  });

  app.post('/account/sessions/:id/end', { schema: { params: SessionParams, body: Type.Object(CSRF_FIELD) } }, async (request, reply) => {
    const s = session(request);
    if (!s) return reply.redirect('/login', 303);
    await accountSettings.endSession(s.user.id, request.params.id);
    return reply.redirect('/account?done=ended', 303);
  });

  installUploadParser(app, IMPORT_BODY_LIMIT);
  app.post('/account/import', async (request, reply) => {
    const s = session(request);
    if (!s) return reply.redirect('/login', 303);
    const outcome = await importUpload(transfer, s.user, request.body as UploadBody | undefined);
    return render(request, reply, s, outcome.status, outcome.error ? { errors: { import: outcome.error } } : { notice: outcome.notice ?? '' });
  });

  app.post('/account/delete', { schema: { body: DeleteBody } }, async (request, reply) => {
    const s = session(request);
    if (!s) return reply.redirect('/login', 303);
    const confirmation = request.body.confirmation ?? '';
    try {
      await accountSettings.deleteAccount({ userId: s.user.id, email: s.user.email, confirmation });
    } catch (error) {
      const e = refused(error);
      return render(request, reply, s, e.statusCode, { errors: { [fieldOf(e)]: e.message }, confirmation });
    }
    cookies.end(reply);
    return sendPage(reply, 200, accountDeletedPage(webContext(request).csrf));
  });
};
