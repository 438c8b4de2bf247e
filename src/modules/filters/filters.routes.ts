import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Services } from '../../container.js';
import { authUser } from '../../plugins/auth.js';
import { IdParams, OkSchema, errorResponses, ref } from '../../schemas/common.js';
import { ItemPageSchema } from '../items/items.schemas.js';
import { FilterAnswer, FilterItemsQuery, FilterListAnswer, NewFilterBody, PatchFilterBody } from './filters.schemas.js';

const tags = ['filters'];

/** Saved filters (contract "Filters and saved views"); GET /items?filter= is the items route's. */
export const filtersRoutes: FastifyPluginAsyncTypebox<Pick<Services, 'filters'>> = async (app, { filters }) => {
  app.get(
    '/filters',
    {
      config: { scope: 'read' },
      schema: {
        tags,
        operationId: 'listFilters',
        summary: "List saved filters, in the user's order",
        response: { 200: FilterListAnswer, ...errorResponses(401, 429) },
      },
    },
    async (request) => ({ filters: await filters.list(authUser(request).id) }),
  );

  app.post(
    '/filters',
    {
      config: { scope: 'write', idempotent: true },
      schema: {
        tags,
        operationId: 'createFilter',
        summary: 'Save a filter (at most 100 a user); its query is checked as GET /items?filter= reads it',
        body: NewFilterBody,
        response: { 201: FilterAnswer, ...errorResponses(400, 401, 413, 415, 429) },
      },
    },
    async (request, reply) => {
      const filter = await filters.create(authUser(request), request.body);
      return reply.status(201).send({ filter });
    },
  );

  app.get(
    '/filters/:id',
    {
      config: { scope: 'read' },
      schema: {
        tags,
        operationId: 'getFilter',
        summary: 'Get a saved filter',
        params: IdParams,
        response: { 200: FilterAnswer, ...errorResponses(401, 404, 429) },
      },
    },
    async (request) => ({ filter: await filters.get(authUser(request).id, request.params.id) }),
  );

  app.patch(
    '/filters/:id',
    {
      config: { scope: 'write' },
      schema: {
        tags,
        operationId: 'updateFilter',
        summary: 'Rename a saved filter, change its query or colour, or move it in the order',
        params: IdParams,
        body: PatchFilterBody,
        response: { 200: FilterAnswer, ...errorResponses(400, 401, 404, 413, 415, 429) },
      },
    },
    async (request) => ({ filter: await filters.update(authUser(request), request.params.id, request.body) }),
  );

  app.delete(
    '/filters/:id',
    {
      config: { scope: 'write' },
      schema: {
        tags,
        operationId: 'deleteFilter',
        summary: 'Delete a saved filter (its items stay as they are)',
        params: IdParams,
        response: { 200: OkSchema, ...errorResponses(400, 401, 404, 413, 415, 429) },
      },
    },
    async (request) => {
      await filters.remove(authUser(request).id, request.params.id);
      return { ok: true as const };
    },
  );

  app.get(
    '/filters/:id/items',
    {
      config: { scope: 'read' },
      schema: {
        tags,
        operationId: 'listFilterItems',
        summary: 'The items a saved filter picks: exactly GET /items?filter=<its query>',
        params: IdParams,
        querystring: FilterItemsQuery,
        response: { 200: ref(ItemPageSchema, 'a page of items, by due date (none last), then newest first'), ...errorResponses(400, 401, 404, 429) },
      },
    },
    async (request) => filters.items(authUser(request), request.params.id, request.query),
  );
};
