import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Services } from '../../container.js';
import { authUser } from '../../plugins/auth.js';
import { organizeRequested } from '../../plugins/plan-gate.js';
import { errorResponses, ref } from '../../schemas/common.js';
import { CapturedItemSchema } from '../organizer/organizer.schemas.js';
import { SPLIT_ITEMS_MAX } from '../quick-add/split-lines.js';
import { BatchCaptureBody, BatchCaptureSchema, CaptureBody } from './capture.schemas.js';

// Listed with the items in the API reference: a capture makes one.
const tags = ['items'];

export const captureRoutes: FastifyPluginAsyncTypebox<Pick<Services, 'capture' | 'batchCapture'>> = async (app, { capture, batchCapture }) => {
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

  app.post(
    '/capture/batch',
    {
      // One Idempotency-Key covers the whole batch; the batch is one request against the limits.
      config: { scope: 'capture', pro: organizeRequested, idempotent: true },
      schema: {
        tags,
        operationId: 'captureBatch',
        summary: 'Brain dump: capture a list as several items',
        description:
          'Splits the text into items exactly as POST /parse with `split: true` previews it (one per line, list markers removed, ' +
          '`[x]` created completed, a line ending in `:` the parent of the lines under it, a one-line text split at `; `), reads each ' +
          'with quick add unless `parse: false`, and stores them all in one transaction (201), one `item.created` each. ' +
          'With `organize: true` (Pro) on a server whose organizer is an OpenAI-compatible model, prose may be split by the model, ' +
          'as the preview with `organize: true` showed it (decision 0099). ' +
          `At most ${SPLIT_ITEMS_MAX} items: more is 400 and stores nothing.`,
        body: BatchCaptureBody,
        response: { 201: { ...BatchCaptureSchema, description: 'the new items, in text order' }, ...errorResponses(400, 401, 402, 404, 413, 415, 429) },
      },
    },
    async (request, reply) => reply.status(201).send({ items: await batchCapture.captureBatch(authUser(request), request.body) }),
  );
};
