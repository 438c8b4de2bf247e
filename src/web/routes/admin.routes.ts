import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import type { Services } from '../../container.js';
import type { SessionUser } from '../../modules/accounts/accounts.service.js';
import { zoneAndLocale } from '../acting.js';
import { sendPage } from '../layout.js';
import { PageError } from '../page-error.js';
import { webContext } from '../session.js';
import { adminPage } from '../views/admin.views.js';
import { CSRF_FIELD, field } from './forms.js';

const NOTICES: Record<string, string> = {
  plan: 'Plan changed.',
  signup: 'Sign-up setting saved.',
};

const DoneQuery = Type.Object({ done: field(20) });
const PlanBody = Type.Object({ ...CSRF_FIELD, plan: field(10) });
const SignupBody = Type.Object({ ...CSRF_FIELD, open: field(10) });
const UserParams = Type.Object({ id: Type.String({ maxLength: 100 }) });

/** The owner's admin page. Anyone else gets the same 404 as for a page that does not exist. */
export const adminRoutes: FastifyPluginAsyncTypebox<Pick<Services, 'instance' | 'users'>> = async (app, { instance, users }) => {
  async function requireOwner(request: FastifyRequest, reply: FastifyReply): Promise<SessionUser | null> {
    const { user } = webContext(request);
    if (!user) {
      void reply.redirect(`/login?next=${encodeURIComponent('/admin')}`, 303);
      return null;
    }
    if (!(await users.isOwner(user.id))) throw new PageError(404, 'Page not found', 'There is no page at this address.');
    return user;
  }

  app.get('/admin', { schema: { querystring: DoneQuery } }, async (request, reply) => {
    const user = await requireOwner(request, reply);
    if (!user) return reply;
    const [list, signup] = await Promise.all([users.list(), instance.signup()]);
    const notice = request.query.done ? NOTICES[request.query.done] : undefined;
    const page = adminPage({
      user,
      csrf: webContext(request).csrf,
      users: list,
      dates: zoneAndLocale(request, user.timezone),
      signup,
      defaultPlan: instance.defaultPlan,
      ...(notice ? { notice } : {}),
    });
    return sendPage(reply, 200, page);
  });

  app.post('/admin/users/:id/plan', { schema: { params: UserParams, body: PlanBody } }, async (request, reply) => {
    if (!(await requireOwner(request, reply))) return reply;
    const { plan } = request.body;
    if (plan !== 'free' && plan !== 'pro') throw new PageError(400, 'Unknown plan', 'The plan must be Free or Pro.');
    await users.setPlanById(request.params.id, plan);
    return reply.redirect('/admin?done=plan', 303);
  });

  app.post('/admin/signup', { schema: { body: SignupBody } }, async (request, reply) => {
    if (!(await requireOwner(request, reply))) return reply;
    await instance.setSignupOpen(request.body.open === 'true');
    return reply.redirect('/admin?done=signup', 303);
  });
};
