import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { Services } from '../../container.js';
import { authUser } from '../../plugins/auth.js';
import { errorResponses } from '../../schemas/common.js';

const TagSchema = Type.Object({ name: Type.String(), item_count: Type.Integer() }, { title: 'Tag' });

export const tagsRoutes: FastifyPluginAsyncTypebox<Pick<Services, 'tags'>> = async (app, { tags }) => {
  app.get(
    '/tags',
    {
      config: { scope: 'read' },
      schema: {
        tags: ['tags'],
        operationId: 'listTags',
        summary: "List the user's tags, sorted case-insensitively by name",
        response: { 200: Type.Array(TagSchema, { description: 'the tags with their item counts' }), ...errorResponses(401, 429) },
      },
    },
    async (request) => tags.list(authUser(request).id),
  );
};
