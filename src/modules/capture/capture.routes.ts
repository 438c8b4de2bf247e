import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Services } from '../../container.js';
import { authUser } from '../../plugins/auth.js';
import { organizeRequested } from '../../plugins/plan-gate.js';
import { errorResponses, ref } from '../../schemas/common.js';
import { CapturedItemSchema } from '../organizer/organizer.schemas.js';
import { CaptureBody } from './capture.schemas.js';

// Listed with the items in the API reference: a capture makes one.
const tags = ['items'];

export const captureRoutes: FastifyPluginAsyncTypebox<Pick<Services, 'capture'>> = async (app, { capture }) => {
  app.post(
    '/capture',
    {
      // write keys capture too (scopes.ts: write covers capture).
      config: { scope: 'capture', pro: organizeRequested, idempotent: true, etag: 'item' },
      schema: {
        tags,
        operationId: 'capture',
        summary: 'Capture free text as a new item',
        description: 'Creates an item (201). Repeating a client_id returns the item it created, with 200.',
        body: CaptureBody,
        response: {
          201: ref(CapturedItemSchema, 'the new item'),
          200: ref(CapturedItemSchema, 'the item an earlier capture with this client_id created'),
          ...errorResponses(400, 401, 402, 404, 413, 415, 429),
        },
      },
    },
    async (request, reply) => {
      const { item, created } = await capture.capture(authUser(request), request.body);
      return reply.status(created ? 201 : 200).send(item);
    },
  );
};
