import type { FastifyRequest } from 'fastify';
import { AppError } from '../../errors.js';
import type { KeysService } from '../keys/keys.service.js';
import { grants, type Scope } from '../keys/scopes.js';

/*
 * CalDAV sign-in: HTTP Basic, any user name, an API key as the password (an "app password").
 * Calendar apps speak nothing else; Bearer is taken too for clients that can. Every failure says
 * the same and asks for Basic again, so the app shows its password prompt.
 */

const BASIC_CHALLENGE = 'Basic realm="Capture Inbox", charset="UTF-8"';

const unauthorized = () =>
  new AppError('unauthorized', 'sign in with any user name and an API key (with the read and write scopes) as the password', {
    headers: { 'www-authenticate': BASIC_CHALLENGE },
  });

function passwordOf(header: string | undefined): string | undefined {
  if (!header) return undefined;
  const basic = /^Basic +([A-Za-z0-9+/=]+) *$/i.exec(header);
  if (basic) {
    const decoded = Buffer.from(basic[1]!, 'base64').toString('utf8');
    const colon = decoded.indexOf(':');
    return colon < 0 ? undefined : decoded.slice(colon + 1);
  }
  return /^Bearer +(\S+) *$/i.exec(header)?.[1];
}

export async function authenticateBasic(keys: KeysService, request: FastifyRequest): Promise<void> {
  const raw = request.raw.rawHeaders.filter((_, i) => i % 2 === 0 && request.raw.rawHeaders[i]!.toLowerCase() === 'authorization');
  if (raw.length > 1) throw unauthorized();
  const password = passwordOf(request.headers.authorization);
  const key = password ? await keys.authenticate(password) : null;
  if (!key) throw unauthorized();
  request.authUser = key.user;
  request.keyScopes = key.scopes;
}

/** 403 insufficient_scope when the key lacks the scope the method needs; nothing changes and it is not counted. */
export function requireScope(request: FastifyRequest, scope: Scope): void {
  if (grants(request.keyScopes ?? [], scope)) return;
  throw new AppError('insufficient_scope', `this API key lacks the ${scope} scope; calendar apps need a key with read and write`, {
    fields: { required_scope: scope },
  });
}
