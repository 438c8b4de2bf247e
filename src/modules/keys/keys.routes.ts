import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Services } from '../../container.js';
import { authUser } from '../../plugins/auth.js';
import { OkSchema, errorResponses } from '../../schemas/common.js';

export const keysRoutes: FastifyPluginAsyncTypebox<Pick<Services, 'keys'>> = async (app, { keys }) => {
  app.delete(
    '/me/key',
    {
      // Any key may end itself, whatever its scopes: a capture-only key must be able to log out too.
      config: { scope: 'none' },
      schema: {
        tags: ['account'],
        operationId: 'revokeCurrentKey',
        summary: 'Revoke the API key of this request',
        description:
          "Revokes the key sent in Authorization (what `cin logout` calls): from the next request on it answers 401. The user's other keys keep working. Other keys are revoked in the web app's Developer settings.",
        response: { 200: OkSchema, ...errorResponses(400, 401, 413, 415, 429) },
      },
    },
    async (request) => {
      const user = authUser(request);
      // Bearer authentication always sets the key id; without one there is no key to revoke.
      if (!user.keyId) throw new Error('an authenticated API request without a key id');
      await keys.revokeOwn(user.id, user.keyId);
      return { ok: true as const };
    },
  );
};
