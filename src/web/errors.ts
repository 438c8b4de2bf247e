import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { AppError } from '../errors.js';
import { sendPage } from './layout.js';
import { PageError } from './page-error.js';
import type { AccountsService } from '../modules/accounts/accounts.service.js';
import { sessionOfHeaders } from './session.js';
import { errorPage } from './views/error.views.js';

const TITLES: Record<number, string> = {
  400: 'Something in the request is not right',
  401: 'Please sign in',
  403: 'Refused',
  404: 'Not found',
  409: 'Conflict',
  413: 'Too large',
  415: 'Not a form this page understands',
  429: 'Too many attempts',
};

function describe(error: FastifyError): { status: number; title: string; message: string } | null {
  if (error instanceof PageError) return { status: error.statusCode, title: error.title, message: error.message };
  if (error instanceof AppError && error.statusCode < 500) {
    return { status: error.statusCode, title: TITLES[error.statusCode] ?? 'Refused', message: error.message };
  }
  if (error.validation)
    return { status: 400, title: TITLES[400]!, message: 'A field of the form was missing or not in the expected shape. Go back and try again.' };
  const status = error.statusCode ?? 500;
  if (status >= 400 && status < 500) return { status, title: TITLES[status] ?? 'Refused', message: 'The request could not be handled. Go back and try again.' };
  return null;
}

/** Web pages fail as pages: a readable message in the site's layout, never a JSON body or a stack. */
export function installPageErrors(app: FastifyInstance): void {
  app.setErrorHandler<FastifyError>((error, request, reply) => {
    const user = request.web?.user ?? null;
    const csrf = request.web?.csrf ?? null;
    const known = describe(error);
    if (error instanceof AppError && error.headers) void reply.headers(error.headers);
    if (known) return sendPage(reply, known.status, errorPage({ ...known, user, csrf }));
    request.log.error({ err: error }, 'web request failed');
    return sendPage(
      reply,
      500,
      errorPage({
        title: 'Something went wrong',
        message: `This is a fault on our side. Try again in a moment; if it keeps happening, quote the reference ${request.id}.`,
        user,
        csrf,
      }),
    );
  });
}

/**
 * For paths that are no route at all, asked for by a browser: signed in, the page shows the app's
 * navigation (issue 47 item 10), not "Sign in".
 */
export function createNotFoundPage(deps: { accounts: AccountsService; publicUrl: string }) {
  return async (request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply> => {
    const { user, csrf } = await sessionOfHeaders(request, deps);
    return sendPage(reply, 404, errorPage({ title: 'Page not found', message: 'There is no page at this address.', user, csrf: user ? csrf : null }));
  };
}
