import type { AddressInfo } from 'node:net';
import fc from 'fast-check';
import { Agent, request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SCOPES, type Scope } from '../../src/modules/keys/scopes.js';
import { fingerprint } from '../helpers/db-fingerprint.js';
import { DIALECTS } from '../helpers/dialects.js';
import { loadOpenApiValidator, type FoundOperation, type JsonSchema, type OpenApiValidator } from '../helpers/openapi-validator.js';
import { client, createTestApp, createUser, type JsonBody, type TestApp, type TestUser } from '../helpers/test-app.js';

/*
 * Random requests to every operation of the OpenAPI document, over a real HTTP connection, with
 * keys of every scope. Unlike property.test.ts (which knows each route's fields), everything here
 * is generated from the document itself: paths, query parameters and bodies follow its schemas,
 * so a route added tomorrow is exercised without touching this file. Whatever is sent, the answer
 * is one of the operation's documented statuses in its documented shape, never a 5xx; a 403 comes
 * exactly when the key lacks the scope the document names; and a refused request writes nothing.
 */

const RUNS: Record<string, number> = { sqlite: 2000, postgres: 1000 };

type KeyKind = Scope | 'all' | 'none' | 'expired' | 'garbage' | 'double';
const KEY_KINDS: KeyKind[] = [...SCOPES, 'all', 'none', 'expired', 'garbage', 'double'];

const junkString = fc.oneof(
  fc.string({ maxLength: 30 }),
  fc.string({ unit: 'grapheme', maxLength: 10 }),
  fc.constantFrom('', ' ', 'null', 'true', '123', '🙂', '\u0000', 'a,b', 'x'.repeat(600)),
);
const junkValue: fc.Arbitrary<unknown> = fc.oneof(fc.constantFrom<unknown>(null, true, 0, -1, 1.5, [], {}, '', '123'), junkString);

/** Resolves `$ref`s to components; anything the generator does not know becomes junk. */
function schemaArb(schema: JsonSchema | undefined, doc: OpenApiValidator['doc'], depth = 0): fc.Arbitrary<unknown> {
  if (!schema || depth > 4) return junkValue;
  const ref = schema.$ref;
  if (typeof ref === 'string') return schemaArb(doc.components?.schemas?.[ref.split('/').pop()!], doc, depth + 1);
  const variants = (schema.anyOf ?? schema.oneOf) as JsonSchema[] | undefined;
  if (variants) return fc.oneof(...variants.map((v) => schemaArb(v, doc, depth + 1)));
  if (Array.isArray(schema.enum)) return fc.constantFrom(...(schema.enum as unknown[]));
  if ('const' in schema) return fc.constant(schema.const);
  const types = ([] as unknown[]).concat(schema.type ?? []).filter((t): t is string => typeof t === 'string');
  const arbs = types.map((type): fc.Arbitrary<unknown> => {
    switch (type) {
      case 'null':
        return fc.constant(null);
      case 'boolean':
        return fc.boolean();
      case 'integer':
        return fc.integer({ min: -2, max: 300 });
      case 'number':
        return fc.double({ noNaN: true, noDefaultInfinity: true });
      case 'array':
        return fc.array(schemaArb(schema.items as JsonSchema | undefined, doc, depth + 1), { maxLength: 4 });
      case 'object': {
        const properties = (schema.properties ?? {}) as Record<string, JsonSchema>;
        const required = (schema.required ?? []) as string[];
        const record: Record<string, fc.Arbitrary<unknown>> = {};
        for (const [name, sub] of Object.entries(properties)) record[name] = schemaArb(sub, doc, depth + 1);
        return fc.record(record, { requiredKeys: required.filter((r) => r in record) });
      }
      default:
        if (schema.format === 'uuid') return fc.oneof(fc.constant('<own-item>'), fc.constant('<own-project>'), fc.uuid());
        if (schema.format === 'date-time')
          return fc.oneof(
            fc.date({ min: new Date(0), max: new Date(4e12), noInvalidDate: true }).map((d) => d.toISOString()),
            junkString,
          );
        if (typeof schema.pattern === 'string' && schema.pattern.startsWith('^[A-Za-z0-9_-]{32}$')) return fc.stringMatching(/^[A-Za-z0-9_-]{32}$/);
        return fc.oneof({ weight: 4, arbitrary: fc.string({ minLength: 1, maxLength: 40 }) }, { weight: 1, arbitrary: junkString });
    }
  });
  return arbs.length > 0 ? fc.oneof(...arbs) : junkValue;
}

interface Generated {
  op: FoundOperation;
  method: string;
  id: string;
  query: Array<[string, string]>;
  body: string | undefined;
  contentType: string | undefined;
  key: KeyKind;
}

describe.each(DIALECTS)('random requests over HTTP, from the OpenAPI document alone (%s)', (dialect) => {
  let t: TestApp;
  let v: OpenApiValidator;
  let user: TestUser;
  let base: string;
  let dispatcher: Agent;
  const tokens = {} as Record<Exclude<KeyKind, 'none' | 'garbage' | 'double'>, string>;

  beforeAll(async () => {
    t = await createTestApp(dialect);
    v = await loadOpenApiValidator(t.app);
    user = await createUser(t, 'pro');
    tokens.all = user.token;
    for (const scope of SCOPES) tokens[scope] = (await t.services.keys.mint(user.id, scope, { scopes: [scope] })).token;
    tokens.expired = (await t.services.keys.mint(user.id, 'expired', { expiresInDays: 1 })).token;
    const api = client(t.app, user.token);
    const parent: JsonBody = (await api.post('capture', { text: 'parent' })).body;
    const child: JsonBody = (await api.post('capture', { text: 'child' })).body;
    await api.patch(`items/${child.id}`, { parent_id: parent.id, tags: ['Work'] });
    await api.post('projects', { name: 'Work' });
    await api.post('webhooks', { url: 'https://hooks.example.com/in', events: ['item.created'] });
    t.clock.advance(86_400_000); // the "expired" key is now past its day
    // Every key's first use stamps last_used_at; the manual clock then stands still.
    for (const token of Object.values(tokens)) await client(t.app, token).get('me');
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
    dispatcher = new Agent({ connections: 4 });
  });
  afterAll(async () => {
    await dispatcher?.close();
    await t?.close();
  });

  async function firstId(table: 'items' | 'projects' | 'webhooks'): Promise<string> {
    const row = await t.services.db.selectFrom(table).select('id').where('user_id', '=', user.id).orderBy('id').executeTakeFirst();
    return row?.id ?? '00000000-0000-4000-8000-000000000000';
  }

  function requestArb(): fc.Arbitrary<Generated> {
    // The live stream never ends while it is admitted (its answers are tested in live-changes.test.ts);
    // DELETE /me/key would revoke the very keys this walks with (revoke-current-key.test.ts tests it).
    const skipped = new Set(['/api/v1/openapi.json', '/api/v1/changes/stream', '/api/v1/me/key']);
    const ops = v.operations().filter((o) => !skipped.has(o.path));
    return fc.constantFrom(...ops).chain((op) => {
      const parameters = ((op.operation as { parameters?: Array<{ in: string; name: string; schema?: JsonSchema }> }).parameters ?? []).filter(
        (p) => p.in === 'query',
      );
      const queryArb =
        parameters.length === 0
          ? fc.constant<Array<[string, string]>>([])
          : fc.array(
              fc.constantFrom(...parameters).chain((p) => fc.tuple(fc.constant(p.name), fc.oneof(schemaArb(p.schema, v.doc).map(String), junkString))),
              { maxLength: 3 },
            );
      const bodySchema = op.operation.requestBody?.content?.['application/json']?.schema;
      const bodyArb = fc.oneof(
        { weight: 6, arbitrary: schemaArb(bodySchema, v.doc).map((b) => JSON.stringify(b)) },
        { weight: 1, arbitrary: fc.constant(undefined) },
        { weight: 1, arbitrary: fc.json({ maxDepth: 2 }) },
        { weight: 1, arbitrary: fc.constantFrom('{', '', 'null', '{"text":"\\ud800"}', '[]') },
      );
      return fc.record({
        op: fc.constant(op),
        method: fc.oneof(
          { weight: 15, arbitrary: fc.constant(op.method.toUpperCase()) },
          { weight: 1, arbitrary: fc.constantFrom('GET', 'POST', 'PUT', 'PATCH', 'DELETE') },
        ),
        id: fc.oneof(
          { weight: 6, arbitrary: fc.constant('<own>') },
          { weight: 1, arbitrary: fc.uuid() },
          { weight: 1, arbitrary: fc.constantFrom('x', '%25', '..', 'x'.repeat(120)) },
        ),
        query: queryArb,
        body: bodyArb,
        contentType: fc.oneof(
          { weight: 10, arbitrary: fc.constant('application/json') },
          { weight: 1, arbitrary: fc.constantFrom(undefined, 'text/plain', 'application/x-www-form-urlencoded') },
        ),
        key: fc.oneof({ weight: 4, arbitrary: fc.constantFrom<KeyKind>('all', ...SCOPES) }, { weight: 1, arbitrary: fc.constantFrom<KeyKind>(...KEY_KINDS) }),
      });
    });
  }

  async function build(g: Generated): Promise<{ url: string; headers: Record<string, string | string[]>; body: string | undefined }> {
    let path = g.op.path;
    if (path.includes('{')) {
      const kind = path.startsWith('/api/v1/webhooks') ? 'webhooks' : path.startsWith('/api/v1/projects') ? 'projects' : 'items';
      const own = g.id === '<own>' ? await firstId(kind) : encodeURIComponent(g.id);
      path = path.replace('{id}', own).replace(/\{[a-z_]+\}/g, '0190f5e2-7c3a-7b1d-9e2f-123456789abc');
    }
    const query = new URLSearchParams(g.query).toString();
    let body = g.body;
    if (body?.includes('"<own-'))
      body = body.replaceAll('"<own-item>"', JSON.stringify(await firstId('items'))).replaceAll('"<own-project>"', JSON.stringify(await firstId('projects')));
    const headers: Record<string, string | string[]> = {};
    if (g.key === 'garbage') headers.authorization = 'Bearer cin_abcdefgh_0123456789abcdef0123456789abcdef';
    else if (g.key === 'double') headers.authorization = [`Bearer ${user.token}`, 'Bearer junk'];
    else if (g.key !== 'none') headers.authorization = `Bearer ${tokens[g.key]}`;
    if (g.contentType && (body !== undefined || g.contentType !== 'application/json')) headers['content-type'] = g.contentType;
    return { url: `${path}${query ? `?${query}` : ''}`, headers, body };
  }

  /** The scopes the document names for an operation; empty for GET /me and the public ones. */
  const namedScopes = (op: FoundOperation): string[] => (op.operation.security ?? []).flatMap((r) => Object.values(r).flat());

  it('answers every request as documented; 403 exactly when the key lacks the named scope; refusals write nothing', async () => {
    const statuses = new Map<number, number>();
    let before: Record<string, string> | undefined;
    await fc.assert(
      fc.asyncProperty(requestArb(), async (g) => {
        const { url, headers, body } = await build(g);
        before ??= await fingerprint(t.services.db);
        const res = await request(`${base}${url}`, {
          method: g.method as 'GET',
          headers,
          dispatcher,
          ...(body !== undefined && g.method !== 'GET' ? { body } : {}),
        });
        const text = await res.body.text();
        const status = res.statusCode;
        statuses.set(status, (statuses.get(status) ?? 0) + 1);
        const contentType = String(res.headers['content-type'] ?? '');
        const parsed: unknown = text && contentType.includes('json') ? JSON.parse(text) : undefined;
        const what = `${g.method} ${url} key=${g.key} ${body?.slice(0, 160) ?? '(no body)'}\n→ ${status} ${text.slice(0, 240)}`;

        expect(status < 500, what).toBe(true);
        if (status >= 400) expect(parsed, what).toMatchObject({ error: expect.any(String), message: expect.any(String) });
        if (status >= 400) expect(res.headers['x-content-type-options'], what).toBe('nosniff');
        const found = v.findOperation(g.method, url.split('?')[0]!);
        if (found) expect(v.responseProblem(g.method, url.split('?')[0]!, status, parsed, text ? contentType : undefined), what).toBeUndefined();
        else expect(status, what).toBe(404);
        // A path the router refuses before any route runs (an over-long id) is a plain 404.
        const routed = !(status === 404 && String((parsed as { message?: string } | undefined)?.message).startsWith('no route for'));
        if (found && routed && g.method === g.op.method.toUpperCase()) {
          const named = namedScopes(g.op);
          const held: string[] = g.key === 'all' ? [...SCOPES] : (SCOPES as readonly string[]).includes(g.key) ? [g.key] : [];
          const authenticated = held.length > 0;
          const lacking = authenticated && named.length > 0 && !named.some((s) => held.includes(s));
          const scopeRefusal = status === 403 && (parsed as { error?: string } | undefined)?.error === 'insufficient_scope';
          expect(scopeRefusal, what).toBe(lacking);
          if (['expired', 'garbage', 'double', 'none'].includes(g.key) && named.length + (g.op.path === '/api/v1/me' ? 1 : 0) > 0)
            expect(status, what).toBe(401);
        }
        if (status >= 400) {
          expect(await fingerprint(t.services.db), `a ${status} wrote to the database: ${what}`).toEqual(before);
        } else {
          before = undefined;
        }
      }),
      { numRuns: RUNS[dialect] ?? 500, endOnFailure: true },
    );
    const count = (pred: (s: number) => boolean) => [...statuses].filter(([s]) => pred(s)).reduce((n, [, c]) => n + c, 0);
    expect(
      count((s) => s < 300),
      JSON.stringify([...statuses]),
    ).toBeGreaterThan(100);
    for (const s of [400, 401, 403, 404]) expect(statuses.get(s) ?? 0, `status ${s}: ${JSON.stringify([...statuses])}`).toBeGreaterThan(0);
  }, 120_000);
});
