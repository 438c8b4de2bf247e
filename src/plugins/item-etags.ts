import type { FastifyInstance, onSendHookHandler, preSerializationHookHandler } from 'fastify';
import { Type } from 'typebox';
import { withHook } from './route-hooks.js';
import { ifNoneMatchMatches, itemEtag } from '../modules/items/item-etag.js';
import type { ItemView } from '../modules/items/item-view.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** `item`: the route answers one item, with its ETag (and, on GET, 304 for a matching If-None-Match). */
    etag?: 'item';
  }
}

/** Response schemas that are one item: `ref(ItemSchema)` and `ref(CapturedItemSchema)`. */
const ITEM_REFS = new Set(['Item#', 'CapturedItem#']);

const ETAG_HEADER = {
  ETag: Type.String({ description: 'strong validator of the item (changes whenever the item or its tags change); send it back as If-Match or If-None-Match' }),
};

type ResponseSchemas = Record<string, { $ref?: unknown; headers?: Record<string, unknown> } & Record<string, unknown>>;

/**
 * A route marked `etag: 'item'` answers its item's ETag, documented in its response schema; a GET
 * whose If-None-Match matches answers 304 without a body. Registration fails for a marked route
 * that does not answer one item, and for a route that answers one item unmarked, so no item route
 * goes without its ETag by being forgotten.
 */
export function installItemEtags(app: FastifyInstance): void {
  app.addHook('onRoute', (route) => {
    const responses = (route.schema?.response ?? {}) as ResponseSchemas;
    const itemStatuses = Object.entries(responses).filter(
      ([status, schema]) => status.startsWith('2') && typeof schema.$ref === 'string' && ITEM_REFS.has(schema.$ref),
    );
    const marked = route.config?.etag === 'item';
    if (!marked) {
      if (itemStatuses.length > 0) throw new Error(`route ${String(route.method)} ${route.url} answers one item: mark it config: { etag: 'item' }`);
      return;
    }
    if (itemStatuses.length === 0) throw new Error(`route ${String(route.method)} ${route.url} is marked etag: 'item' but answers no item`);
    for (const [status, schema] of itemStatuses) responses[status] = { ...schema, headers: { ...schema.headers, ...ETAG_HEADER } };
    // Route-level hooks: only the routes that answer one item pay for them.
    route.preSerialization = withHook(route.preSerialization, setEtag);
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    if (methods.includes('GET')) route.onSend = withHook(route.onSend, notModified);
  });
}

// Callback hooks: they run on the busiest routes, and a promise each shows in a small request's cost.
const setEtag: preSerializationHookHandler = (_request, reply, payload, done) => {
  if (reply.statusCode < 300) void reply.header('etag', itemEtag(payload as ItemView));
  done(null, payload);
};

/** A GET whose If-None-Match matches the ETag answers 304 without a body. */
const notModified: onSendHookHandler = (request, reply, payload, done) => {
  const condition = request.headers['if-none-match'];
  const etag = reply.getHeader('etag');
  if (reply.statusCode !== 200 || condition === undefined || typeof etag !== 'string' || !ifNoneMatchMatches(condition, etag)) {
    done(null, payload);
    return;
  }
  void reply.code(304);
  reply.removeHeader('content-type');
  reply.removeHeader('content-length');
  done(null, null);
};
