import { Type, type Static, type TSchema, type TUnsafe } from 'typebox';

/** A reference to a schema registered with `app.addSchema`, keeping its static type. */
export function ref<S extends TSchema>(schema: S, description?: string): TUnsafe<Static<S>> {
  const id = (schema as { $id?: unknown }).$id;
  if (typeof id !== 'string') throw new Error('ref() needs a schema with an $id');
  // As a response schema, the description becomes the response's description in the document.
  return Type.Unsafe<Static<S>>({ ...Type.Ref(`${id}#`), ...(description ? { description } : {}) });
}

/**
 * One of fixed strings, as `{ type: 'string', enum }`. The response serializer writes it as a
 * plain string; a union of literals made it validate every value against each branch.
 */
export function StringEnum<const T extends readonly string[]>(values: T, options: { description?: string } = {}): TUnsafe<T[number]> {
  return Type.Unsafe<T[number]>({ type: 'string', enum: [...values], ...options });
}

export const Uuid = Type.String({ format: 'uuid', description: 'UUID' });
export const DateTime = Type.String({ format: 'date-time', description: 'ISO 8601 date-time with an offset' });
export const UtcTimestamp = Type.String({ format: 'date-time', description: 'UTC, milliseconds, e.g. 2026-11-21T10:00:00.000Z' });
/**
 * A value or null. A schema with one primitive `type` (and no enum or const) becomes `type: [type, 'null']`: the response
 * serializer then picks the branch with a typeof check, while for `anyOf` it runs a full validation
 * of each branch per value, which cost a list page of 50 items more than its whole JSON output.
 */
export function Nullable<S extends TSchema>(schema: S): TUnsafe<Static<S> | null> {
  const type = (schema as { type?: unknown }).type;
  // enum and const constrain every type, null included, so those keep the anyOf.
  if (typeof type === 'string' && !('enum' in schema) && !('const' in schema)) return Type.Unsafe<Static<S> | null>({ ...schema, type: [type, 'null'] });
  return Type.Unsafe<Static<S> | null>(Type.Union([schema, Type.Null()]));
}

export const ErrorSchema = Type.Object(
  {
    error: Type.String({ description: 'stable error code' }),
    message: Type.String(),
    details: Type.Optional(
      Type.Array(
        Type.Object({
          field: Type.String(),
          message: Type.String(),
          position: Type.Optional(Type.Integer({ minimum: 0, description: "where reading the field's text failed (UTF-16 offset): a filter query" })),
        }),
        {
          description: 'present on validation errors: one entry per invalid field',
        },
      ),
    ),
  },
  { $id: 'Error', title: 'Error' },
);

export const InsufficientScopeErrorSchema = Type.Object(
  {
    error: Type.String({ description: 'insufficient_scope' }),
    message: Type.String(),
    required_scope: Type.String({ description: 'the scope the route needs; also in the WWW-Authenticate header' }),
  },
  { $id: 'InsufficientScopeError', title: 'InsufficientScopeError' },
);

export const RateLimitErrorSchema = Type.Object(
  {
    error: Type.String({
      description: 'rate_limited, ai_rate_limited, too_many_streams (GET /changes/stream), or slow_down (a pairing exchange polled faster than every 2 s)',
    }),
    message: Type.String(),
    scope: Type.Optional(
      Type.Union([Type.Literal('minute'), Type.Literal('day')], {
        description: 'the window that is full (day when both are)',
      }),
    ),
    retry_after: Type.Optional(Type.Integer({ description: 'seconds until the window resets; also in the Retry-After header' })),
    limit_per_minute: Type.Optional(Type.Integer()),
    limit_per_day: Type.Optional(Type.Integer()),
  },
  { $id: 'RateLimitError', title: 'RateLimitError' },
);

const ERROR_DESCRIPTIONS: Record<number, string> = {
  400: 'invalid body, query or parameters (bad_request)',
  401: 'missing, invalid or revoked API key (unauthorized)',
  402: 'the route needs the Pro plan (pro_required)',
  403: 'the user denied the request (access_denied)',
  404: 'no such resource for this user (not_found)',
  409: 'conflicts with an existing resource (conflict)',
  410: 'the resource expired (expired)',
  412: "If-Match does not match the item's current ETag (precondition_failed); nothing changed",
  413: 'body larger than allowed (payload_too_large)',
  415: 'body is not application/json (unsupported_media_type)',
  422: 'the request was understood but could not be processed',
  425: 'not ready yet; retry after Retry-After seconds (not_approved)',
  429: 'a rate limit or quota is exhausted (rate_limited, ai_rate_limited); see Retry-After',
  503: 'a dependency is unavailable',
};

export type ErrorStatus = 400 | 401 | 402 | 403 | 404 | 409 | 410 | 412 | 413 | 415 | 422 | 425 | 429 | 503;

/** The documented error answers of a route, each with the shared error schema. */
export function errorResponses(...statuses: ErrorStatus[]): Record<number, TUnsafe<Static<typeof ErrorSchema>>>;
/** The same, with a route's own description of some statuses (409 meaning already_exchanged, say). */
export function errorResponses(
  descriptions: Partial<Record<ErrorStatus, string>>,
  ...statuses: ErrorStatus[]
): Record<number, TUnsafe<Static<typeof ErrorSchema>>>;
export function errorResponses(...args: (ErrorStatus | Partial<Record<ErrorStatus, string>>)[]): Record<number, TUnsafe<Static<typeof ErrorSchema>>> {
  const own = typeof args[0] === 'object' ? (args.shift() as Partial<Record<ErrorStatus, string>>) : {};
  const out: Record<number, TUnsafe<Static<typeof ErrorSchema>>> = {};
  for (const status of args as ErrorStatus[]) {
    const schema = status === 429 ? 'RateLimitError#' : 'Error#';
    out[status] = Type.Unsafe<Static<typeof ErrorSchema>>({ ...Type.Ref(schema), description: own[status] ?? ERROR_DESCRIPTIONS[status] });
  }
  return out;
}

export const IdParams = Type.Object({ id: Type.String({ description: 'resource id (UUID)' }) });

export const PageQuery = Type.Object({
  limit: Type.Optional(Type.Integer({ minimum: 1, description: 'page size; default 50, values above 200 are clamped to 200' })),
  cursor: Type.Optional(Type.String({ minLength: 1, maxLength: 512, description: 'next_cursor of the previous page' })),
});

export const ArrayPageQuery = Type.Object({
  limit: Type.Optional(Type.Integer({ minimum: 1, description: 'page size; default 200, values above 1000 are clamped to 1000' })),
  cursor: Type.Optional(Type.String({ minLength: 1, maxLength: 512, description: 'the X-Next-Cursor header of the previous page' })),
});

export const OkSchema = Type.Object({ ok: Type.Literal(true) }, { description: 'done' });
