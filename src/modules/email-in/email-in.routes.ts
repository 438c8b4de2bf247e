import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Services } from '../../container.js';
import { authUser } from '../../plugins/auth.js';
import { errorResponses } from '../../schemas/common.js';
import { EmailAddressSchema } from './email-in.schemas.js';

const tags = ['account'];

export const emailInRoutes: FastifyPluginAsyncTypebox<Pick<Services, 'emailIn'>> = async (app, { emailIn }) => {
  app.get(
    '/me/email',
    {
      config: { scope: 'read' },
      schema: {
        tags,
        operationId: 'getEmailAddress',
        summary: "The user's secret email-in address",
        description: 'Mail sent (or forwarded) to this address becomes an item in the inbox. null when the server has email-in off.',
        response: { 200: EmailAddressSchema, ...errorResponses(401, 429) },
      },
    },
    async (request) => ({ address: await emailIn.address(authUser(request).id) }),
  );

  app.post(
    '/me/email/rotate',
    {
      // A second rotation is a new address again; a replayed one would hand out a dead address.
      config: { scope: 'write', idempotent: false },
      schema: {
        tags,
        operationId: 'rotateEmailAddress',
        summary: 'Replace the secret email-in address',
        description: 'Answers the new address; mail to the old one is rejected from now on. null when the server has email-in off.',
        response: { 200: EmailAddressSchema, ...errorResponses(400, 401, 413, 415, 429) },
      },
    },
    async (request) => ({ address: await emailIn.rotate(authUser(request).id) }),
  );
};
