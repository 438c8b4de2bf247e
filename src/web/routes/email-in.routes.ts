import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { Services } from '../../container.js';
import { webContext } from '../session.js';
import { CSRF_FIELD } from './forms.js';

/** The account page's rotate action for the email-in address (the card is views/email-in.views.ts). */
export const emailInWebRoutes: FastifyPluginAsyncTypebox<Pick<Services, 'emailIn'>> = async (app, { emailIn }) => {
  app.post('/account/email/rotate', { schema: { body: Type.Object(CSRF_FIELD) } }, async (request, reply) => {
    const { user } = webContext(request);
    if (!user) return reply.redirect('/login', 303);
    await emailIn.rotate(user.id);
    return reply.redirect('/account?done=email#email-in', 303);
  });
};
