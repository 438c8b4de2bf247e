import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import type { Services } from '../../container.js';
import { AppError } from '../../errors.js';
import type { AuthUser } from '../../schemas/auth-user.js';
import { actingUser, overLimit, signInFirst } from '../acting.js';
import { createInboxRenderer, type InboxSources } from '../inbox-render.js';
import { sendPage } from '../layout.js';
import { PageError } from '../page-error.js';
import { webContext } from '../session.js';
import { projectHeader, projectsPage } from '../views/projects.views.js';
import { CSRF_FIELD, field } from './forms.js';

const IdParams = Type.Object({ id: Type.String({ maxLength: 100 }) });
const NameBody = Type.Object({ ...CSRF_FIELD, name: field(1000) });
const ProjectQuery = Type.Object({ q: field(500), tag: field(200), show: field(20), cursor: field(512) });
const NOTICES: Record<string, string> = { deleted: 'Project deleted. Its items are in the Inbox now.' };

/** A service refusal a form shows next to its field; anything else is a page error. */
function refusal(error: unknown): AppError {
  if (error instanceof AppError && error.statusCode < 500 && error.code !== 'not_found') return error;
  throw error;
}

export const projectsRoutes: FastifyPluginAsyncTypebox<InboxSources & Pick<Services, 'limits'>> = async (app, options) => {
  const { projects, limits } = options;
  const renderInbox = createInboxRenderer(options);

  async function renderList(
    request: FastifyRequest,
    reply: FastifyReply,
    user: AuthUser,
    status: number,
    extra: { notice?: string; draft?: { name: string; error: string } } = {},
  ) {
    return sendPage(reply, status, projectsPage({ user, csrf: webContext(request).csrf, projects: await projects.list(user.id), ...extra }));
  }

  async function limited(user: AuthUser, reply: FastifyReply): Promise<void> {
    const message = await overLimit(limits, user, reply);
    if (message) throw new PageError(429, 'Too many requests', message);
  }

  app.get('/projects', { schema: { querystring: Type.Object({ done: field(20) }) } }, async (request, reply) => {
    const user = actingUser(request);
    if (!user) return signInFirst(reply, '/projects');
    const notice = request.query.done ? NOTICES[request.query.done] : undefined;
    return renderList(request, reply, user, 200, notice ? { notice } : {});
  });

  app.post('/projects', { schema: { body: NameBody } }, async (request, reply) => {
    const user = actingUser(request);
    if (!user) return reply.redirect('/login', 303);
    const name = request.body.name ?? '';
    await limited(user, reply);
    try {
      const project = await projects.findOrCreate(user.id, name);
      return reply.redirect(`/projects/${project.id}`, 303);
    } catch (error) {
      const refused = refusal(error);
      return renderList(request, reply, user, refused.statusCode, { draft: { name, error: refused.message } });
    }
  });

  app.get('/projects/:id', { schema: { params: IdParams, querystring: ProjectQuery } }, async (request, reply) => {
    const user = actingUser(request);
    if (!user) return signInFirst(reply, `/projects/${encodeURIComponent(request.params.id)}`);
    const project = await projects.get(user.id, request.params.id);
    return renderInbox(request, reply, user, {
      list: { kind: 'project', projectId: project.id, header: projectHeader(project, webContext(request).csrf) },
      query: request.query,
    });
  });

  app.post('/projects/:id/rename', { schema: { params: IdParams, body: NameBody } }, async (request, reply) => {
    const user = actingUser(request);
    if (!user) return reply.redirect('/login', 303);
    const name = request.body.name ?? '';
    await limited(user, reply);
    try {
      await projects.rename(user.id, request.params.id, name);
    } catch (error) {
      const refused = refusal(error);
      const project = await projects.get(user.id, request.params.id);
      return renderInbox(request, reply, user, {
        list: { kind: 'project', projectId: project.id, header: projectHeader(project, webContext(request).csrf, { name, error: refused.message }) },
        query: {},
        status: refused.statusCode,
      });
    }
    return reply.redirect(`/projects/${request.params.id}`, 303);
  });

  app.post('/projects/:id/delete', { schema: { params: IdParams, body: Type.Object(CSRF_FIELD) } }, async (request, reply) => {
    const user = actingUser(request);
    if (!user) return reply.redirect('/login', 303);
    await limited(user, reply);
    await projects.remove(user.id, request.params.id);
    return reply.redirect('/projects?done=deleted', 303);
  });
};
