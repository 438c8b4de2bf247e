import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply } from 'fastify';
import { Type } from 'typebox';
import type { Services } from '../../container.js';
import { AppError } from '../../errors.js';
import { sendPage } from '../layout.js';
import { webContext, type SessionCookies } from '../session.js';
import { loginPage, signupClosedPage, signupPage } from '../views/auth.views.js';
import { CSRF_FIELD, field, safeNext } from './forms.js';

const NextQuery = Type.Object({ next: field(2000) });
const LoginBody = Type.Object({ ...CSRF_FIELD, email: field(320), password: field(1000), next: field(2000) });
const SignupBody = Type.Object({ ...LoginBody.properties, timezone: field(64) });

/** Failed sign-ins and sign-ups come back as the form with the service's message. */
function formError(error: unknown): { status: number; message: string; headers: Record<string, string> } {
  if (error instanceof AppError && error.statusCode < 500) return { status: error.statusCode, message: error.message, headers: error.headers ?? {} };
  throw error;
}

export const authRoutes: FastifyPluginAsyncTypebox<Pick<Services, 'accounts' | 'instance'> & { cookies: SessionCookies }> = async (
  app,
  { accounts, instance, cookies },
) => {
  for (const [path, render] of [
    ['/login', loginPage],
    ['/signup', signupPage],
  ] as const) {
    app.get(path, { schema: { querystring: NextQuery } }, async (request, reply) => {
      const { user, csrf } = webContext(request);
      const next = safeNext(request.query.next);
      if (user) return reply.redirect(next, 303);
      if (path === '/signup' && !(await instance.signup()).open) return sendPage(reply, 200, signupClosedPage({ csrf, next }));
      return sendPage(reply, 200, render({ csrf, next }));
    });
  }

  /** Signs the browser in with what `attempt` answers, or shows the form again with the reason. */
  async function openSession(
    reply: FastifyReply,
    next: string,
    attempt: () => Promise<{ token: string }>,
    formAgain: (error: string) => string,
  ): Promise<FastifyReply> {
    try {
      const { token } = await attempt();
      cookies.start(reply, token);
      return reply.redirect(next, 303);
    } catch (error) {
      const failed = formError(error);
      void reply.headers(failed.headers);
      return sendPage(reply, failed.status, formAgain(failed.message));
    }
  }

  app.post('/login', { schema: { body: LoginBody } }, async (request, reply) => {
    const { email = '', password = '' } = request.body;
    const next = safeNext(request.body.next);
    return openSession(
      reply,
      next,
      () => accounts.signIn({ email, password, ip: request.ip }),
      (error) => loginPage({ csrf: webContext(request).csrf, next, email, error }),
    );
  });

  app.post('/signup', { schema: { body: SignupBody } }, async (request, reply) => {
    const { email = '', password = '', timezone } = request.body;
    const next = safeNext(request.body.next);
    return openSession(
      reply,
      next,
      () => accounts.signUp({ email, password, ip: request.ip, ...(timezone ? { timezone } : {}) }),
      (error) => signupPage({ csrf: webContext(request).csrf, next, email, error }),
    );
  });

  app.post('/logout', { schema: { body: Type.Object(CSRF_FIELD) } }, async (request, reply) => {
    const { sessionToken } = webContext(request);
    if (sessionToken) await accounts.signOut(sessionToken);
    cookies.end(reply);
    return reply.redirect('/login', 303);
  });
};
