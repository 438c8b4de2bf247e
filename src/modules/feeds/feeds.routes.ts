import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Services } from '../../container.js';
import { authUser } from '../../plugins/auth.js';
import { IdParams, OkSchema, errorResponses } from '../../schemas/common.js';
import { FeedAnswer, FeedListAnswer, NewFeedBody } from './feeds.schemas.js';

const tags = ['feeds'];

/** Calendar feeds for apps that only subscribe (contract "Calendar apps: CalDAV and feeds"); the public .ics is feed-file.routes.ts. */
export const feedsRoutes: FastifyPluginAsyncTypebox<Pick<Services, 'feeds'>> = async (app, { feeds }) => {
  app.get(
    '/feeds',
    {
      config: { scope: 'read' },
      schema: { tags, operationId: 'listFeeds', summary: "List the user's calendar feeds", response: { 200: FeedListAnswer, ...errorResponses(401, 429) } },
    },
    async (request) => ({ feeds: await feeds.list(authUser(request).id) }),
  );

  app.post(
    '/feeds',
    {
      config: { scope: 'write', idempotent: true },
      schema: {
        tags,
        operationId: 'createFeed',
        summary: 'Make a calendar feed URL of a project, a saved filter or the whole account (at most 20 a user)',
        description:
          "Exactly one of `project_id`, `filter_id` or `all: true`; `as` defaults to `todos`. An unknown (or another user's) project or filter is 404.",
        body: NewFeedBody,
        response: { 201: FeedAnswer, ...errorResponses(400, 401, 404, 413, 415, 429) },
      },
    },
    async (request, reply) => {
      const { as, ...from } = request.body;
      const feed = await feeds.create(authUser(request).id, { ...from, as: as ?? 'todos' });
      return reply.status(201).send({ feed });
    },
  );

  app.delete(
    '/feeds/:id',
    {
      config: { scope: 'write' },
      schema: {
        tags,
        operationId: 'deleteFeed',
        summary: 'Delete a feed: its URL stops at once',
        params: IdParams,
        response: { 200: OkSchema, ...errorResponses(400, 401, 404, 413, 415, 429) },
      },
    },
    async (request) => {
      await feeds.remove(authUser(request).id, request.params.id);
      return { ok: true as const };
    },
  );

  app.post(
    '/feeds/:id/rotate',
    {
      config: { scope: 'write', idempotent: false },
      schema: {
        tags,
        operationId: 'rotateFeed',
        summary: 'Give a feed a new URL: the old one stops at once',
        params: IdParams,
        response: { 200: FeedAnswer, ...errorResponses(400, 401, 404, 413, 415, 429) },
      },
    },
    async (request) => ({ feed: await feeds.rotate(authUser(request).id, request.params.id) }),
  );
};
