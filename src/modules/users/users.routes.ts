import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { Services } from '../../container.js';
import { authUser } from '../../plugins/auth.js';
import { SCOPES } from '../keys/scopes.js';
import { StorageSchema } from '../attachments/attachments.schemas.js';
import { StringEnum, UtcTimestamp, errorResponses, ref } from '../../schemas/common.js';

export const MeSchema = Type.Object(
  {
    id: Type.String(),
    email: Type.String(),
    is_pro: Type.Boolean(),
    plan: Type.Union([Type.Literal('free'), Type.Literal('pro')]),
    timezone: Type.String({ description: 'IANA time zone the organizer reads dates in' }),
    reminder_default: Type.Union([Type.Integer(), Type.Null()], {
      description: 'minutes before due_at that a reminder is set when an item gets a due date without remind_at; null: none',
    }),
    created_at: UtcTimestamp,
    key: Type.Optional(
      Type.Object(
        { id: Type.String({ description: 'the key id, as developer settings show it' }), scopes: Type.Array(StringEnum(SCOPES)) },
        { description: 'the API key of this request and what it may do (GET /me)' },
      ),
    ),
    storage: Type.Optional({ ...StorageSchema, description: 'attachment storage in bytes (GET /me): used, each distinct content once, and the plan limit' }),
  },
  { $id: 'Me', title: 'Me' },
);

const PatchMeBody = Type.Object({
  timezone: Type.Optional(Type.String({ minLength: 1, maxLength: 64, description: 'IANA name, e.g. Europe/Berlin' })),
  reminder_default: Type.Optional(
    Type.Union([Type.Integer({ minimum: 0, maximum: 10080 }), Type.Null()], {
      description: 'minutes before due_at (0..10080), or null for no automatic reminders',
    }),
  ),
});

export const usersRoutes: FastifyPluginAsyncTypebox<Pick<Services, 'users' | 'attachments'>> = async (app, { users, attachments }) => {
  app.get(
    '/me',
    {
      config: { scope: 'none' },
      schema: {
        tags: ['account'],
        operationId: 'getMe',
        summary: 'The user the key belongs to',
        response: { 200: ref(MeSchema, 'the current user'), ...errorResponses(401, 429) },
      },
    },
    async (request) => {
      const user = authUser(request);
      return {
        ...(await users.me(user.id)),
        key: { id: user.keyId ?? '', scopes: [...(request.keyScopes ?? [])] },
        storage: await attachments.storage(user),
      };
    },
  );

  app.patch(
    '/me',
    {
      // The time zone changes how the organizer reads dates into items: a change to the inbox.
      config: { scope: 'write' },
      schema: {
        tags: ['account'],
        operationId: 'updateMe',
        summary: "Set the user's time zone and default reminder",
        body: PatchMeBody,
        response: { 200: ref(MeSchema, 'the updated user'), ...errorResponses(400, 401, 413, 415, 429) },
      },
    },
    async (request) => users.updateMe(authUser(request).id, request.body),
  );
};
