import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Services } from '../../container.js';
import { authUser } from '../../plugins/auth.js';
import { ArrayPageQuery, IdParams, OkSchema, errorResponses, ref } from '../../schemas/common.js';
import { ItemArray } from '../items/items.schemas.js';
import { PatchProjectBody, ProjectListSchema, ProjectNameBody, ProjectSchema } from './projects.schemas.js';

const tags = ['projects'];

export const projectsRoutes: FastifyPluginAsyncTypebox<Pick<Services, 'items' | 'projects'>> = async (app, { items, projects }) => {
  app.get(
    '/projects',
    {
      config: { scope: 'read' },
      schema: {
        tags,
        operationId: 'listProjects',
        summary: 'List projects, Inbox first',
        response: { 200: ref(ProjectListSchema, 'the projects'), ...errorResponses(401, 429) },
      },
    },
    async (request) => ({ projects: await projects.list(authUser(request).id) }),
  );

  app.post(
    '/projects',
    {
      config: { scope: 'write', idempotent: true },
      schema: {
        tags,
        operationId: 'createProject',
        summary: 'Create a project, or return the one with that name (case-insensitive)',
        body: ProjectNameBody,
        response: { 200: ref(ProjectSchema, 'the new or existing project'), ...errorResponses(400, 401, 413, 415, 429) },
      },
    },
    async (request) => projects.findOrCreate(authUser(request).id, request.body.name),
  );

  app.get(
    '/projects/:id',
    {
      config: { scope: 'read' },
      schema: {
        tags,
        operationId: 'getProject',
        summary: 'Get a project',
        params: IdParams,
        response: { 200: ref(ProjectSchema, 'the project'), ...errorResponses(401, 404, 429) },
      },
    },
    async (request) => projects.get(authUser(request).id, request.params.id),
  );

  app.patch(
    '/projects/:id',
    {
      config: { scope: 'write' },
      schema: {
        tags,
        operationId: 'updateProject',
        summary: 'Rename a project',
        params: IdParams,
        body: PatchProjectBody,
        response: { 200: ref(ProjectSchema, 'the renamed project'), ...errorResponses(400, 401, 404, 409, 413, 415, 429) },
      },
    },
    async (request) => {
      const userId = authUser(request).id;
      const { name } = request.body;
      return name === undefined ? projects.get(userId, request.params.id) : projects.rename(userId, request.params.id, name);
    },
  );

  app.delete(
    '/projects/:id',
    {
      config: { scope: 'write' },
      schema: {
        tags,
        operationId: 'deleteProject',
        summary: 'Delete a project; its items move to the Inbox',
        params: IdParams,
        response: { 200: OkSchema, ...errorResponses(400, 401, 404, 413, 415, 429) },
      },
    },
    async (request) => {
      await projects.remove(authUser(request).id, request.params.id);
      return { ok: true as const };
    },
  );

  app.get(
    '/projects/:id/items',
    {
      config: { scope: 'read' },
      schema: {
        tags,
        operationId: 'listProjectItems',
        summary: "List a project's items, newest first",
        params: IdParams,
        querystring: ArrayPageQuery,
        response: { 200: ItemArray, ...errorResponses(400, 401, 404, 429) },
      },
    },
    async (request, reply) => {
      const page = await items.inProject(authUser(request).id, request.params.id, request.query);
      if (page.next_cursor) void reply.header('x-next-cursor', page.next_cursor);
      return page.items;
    },
  );
};
