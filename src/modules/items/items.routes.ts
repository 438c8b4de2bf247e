import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { Services } from '../../container.js';
import { authUser } from '../../plugins/auth.js';
import { IdParams, ArrayPageQuery, errorResponses, ref } from '../../schemas/common.js';
import { ifMatchPrecondition } from './item-etag.js';
import { IfMatchHeaders, IfNoneMatchHeaders } from './item-etag.schemas.js';
import { ItemArray, ItemPageSchema, ItemSchema, ItemsQuery, PatchItemBody } from './items.schemas.js';

const tags = ['items'];

export const itemsRoutes: FastifyPluginAsyncTypebox<Pick<Services, 'items' | 'filters'>> = async (app, { items, filters }) => {
  app.get(
    '/items',
    {
      config: { scope: 'read' },
      schema: {
        tags,
        operationId: 'listItems',
        summary: 'List items, newest first, or as a sync feed with since; with filter, the items a filter query picks, by due date',
        querystring: ItemsQuery,
        response: { 200: ref(ItemPageSchema, 'a page of items'), ...errorResponses(400, 401, 429) },
      },
    },
    async (request) => {
      const { filter, ...page } = request.query;
      // A filter query is the filters module's to read; the other parameters AND with it there.
      return filter === undefined ? items.list(authUser(request).id, page) : filters.query.items(authUser(request), filter, page);
    },
  );

  app.get(
    '/items/:id',
    {
      config: { scope: 'read', etag: 'item' },
      schema: {
        tags,
        operationId: 'getItem',
        summary: 'Get an item',
        params: IdParams,
        headers: IfNoneMatchHeaders,
        response: {
          200: ref(ItemSchema, 'the item'),
          304: Type.Null({ description: 'not modified: If-None-Match matches the current ETag (no body)' }),
          ...errorResponses(401, 404, 429),
        },
      },
    },
    async (request) => items.get(authUser(request).id, request.params.id),
  );

  app.patch(
    '/items/:id',
    {
      config: { scope: 'write', etag: 'item' },
      schema: {
        tags,
        operationId: 'updateItem',
        summary: 'Update fields of an item',
        params: IdParams,
        headers: IfMatchHeaders,
        body: PatchItemBody,
        response: { 200: ref(ItemSchema, 'the updated item'), ...errorResponses(400, 401, 404, 412, 413, 415, 429) },
      },
    },
    async (request) => items.patch(authUser(request).id, request.params.id, request.body, ifMatchPrecondition(request.headers['if-match'])),
  );

  app.delete(
    '/items/:id',
    {
      config: { scope: 'write' },
      schema: {
        tags,
        operationId: 'deleteItem',
        summary: 'Delete an item and its subtasks',
        params: IdParams,
        headers: IfMatchHeaders,
        response: { 204: Type.Null({ description: 'deleted' }), ...errorResponses(400, 401, 404, 412, 413, 415, 429) },
      },
    },
    async (request, reply) => {
      await items.remove(authUser(request).id, request.params.id, ifMatchPrecondition(request.headers['if-match']));
      return reply.status(204).send(null);
    },
  );

  const stateRoutes = [
    ['toggle', 'toggleItem', 'Flip is_completed', items.toggle],
    ['archive', 'archiveItem', 'Archive an item', items.archive],
    ['unarchive', 'unarchiveItem', 'Unarchive an item', items.unarchive],
  ] as const;
  for (const [action, operationId, summary, run] of stateRoutes) {
    app.post(
      `/items/:id/${action}`,
      {
        config: { scope: 'write', idempotent: true, etag: 'item' },
        schema: {
          tags,
          operationId,
          summary,
          params: IdParams,
          headers: IfMatchHeaders,
          response: { 200: ref(ItemSchema, 'the item after the change'), ...errorResponses(400, 401, 404, 412, 413, 415, 429) },
        },
      },
      async (request) => run(authUser(request).id, request.params.id, ifMatchPrecondition(request.headers['if-match'])),
    );
  }

  app.get(
    '/items/:id/children',
    {
      config: { scope: 'read' },
      schema: {
        tags,
        operationId: 'listChildren',
        summary: 'List the direct subtasks of an item',
        params: IdParams,
        querystring: ArrayPageQuery,
        response: { 200: ItemArray, ...errorResponses(400, 401, 404, 429) },
      },
    },
    async (request, reply) => {
      const page = await items.children(authUser(request).id, request.params.id, request.query);
      if (page.next_cursor) void reply.header('x-next-cursor', page.next_cursor);
      return page.items;
    },
  );
};
