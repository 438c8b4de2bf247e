import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fingerprint } from '../helpers/db-fingerprint.js';
import { DIALECTS } from '../helpers/dialects.js';
import { loadOpenApiValidator, type OpenApiValidator } from '../helpers/openapi-validator.js';
import { createTestApp, createUser, type TestApp, type TestUser } from '../helpers/test-app.js';
import { FFMPEG, lacking, POCKETSPHINX } from '../helpers/system-programs.js';

/*
 * Random requests over every route. Whatever arrives, the service answers with a status its OpenAPI
 * document lists for that operation (404 for a route that does not exist), never a 5xx, in the
 * documented shape; and a 4xx writes nothing at all.
 */

const RUNS: Record<string, number> = { sqlite: 3000, postgres: 1200 };
const ONE_MIB = 1024 * 1024;
const OVERSIZED = JSON.stringify({ text: 'x'.repeat(ONE_MIB), name: 'x' });

type Ref = 'own-item' | 'own-project' | 'other-item' | 'other-project';
const REFS: Ref[] = ['own-item', 'own-project', 'other-item', 'other-project'];

interface Route {
  path: string;
  methods: string[];
  /** The id placeholder's preferred kind, for paths with {id}. */
  id?: 'item' | 'project' | 'webhook';
  /** A valid body for the route's body-taking method. */
  body?: fc.Arbitrary<Record<string, unknown>>;
}

// Ids and other users' ids are not known while generating; bodies carry placeholders resolved per request.
const mostly = <T>(valid: fc.Arbitrary<T>, invalid: fc.Arbitrary<T>) => fc.oneof({ weight: 5, arbitrary: valid }, { weight: 1, arbitrary: invalid });
const otherIdArb = fc.oneof(
  fc.constantFrom(...REFS.map((r) => `<${r}>`)),
  fc.uuid(),
  fc.uuid().map((u) => u.toUpperCase()),
);
const projectIdArb = mostly(fc.constant('<own-project>'), otherIdArb);
const itemIdArb = mostly(fc.constant('<own-item>'), otherIdArb);
const junkString = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.string({ unit: 'grapheme', maxLength: 20 }),
  fc.constantFrom('', ' ', '\u0000', 'null', 'true', '123', '🙂', 'Ω≈ç√', '<script>', "'; drop table items; --", 'a,b'),
);
const textArb = fc.oneof(
  { weight: 4, arbitrary: fc.string({ minLength: 1, maxLength: 60 }).filter((x) => x.trim() !== '') },
  { weight: 1, arbitrary: junkString },
  { weight: 1, arbitrary: fc.constant('y'.repeat(5000)) },
);
const dateArb = mostly(
  fc.date({ min: new Date('1970-01-01T00:00:00Z'), max: new Date('2200-01-01T00:00:00Z'), noInvalidDate: true }).map((d) => d.toISOString()),
  fc.constantFrom(
    '2026-11-22T09:00:00+02:00',
    '2026-11-22T09:00:00-14:00',
    '2026-11-22T09:00:00',
    '2026-11-22',
    'tomorrow',
    '0000-01-01T00:00:00Z',
    '9999-12-31T23:59:59.999-14:00',
    '2026-02-30T00:00:00Z',
    '2026-11-22T24:00:00Z',
  ),
);
const statusArb = mostly(fc.constantFrom('backlog', 'todo', 'doing', 'done', 'archived'), fc.constantFrom('DONE', 'finished', ''));
const typeArb = mostly(fc.constantFrom('note', 'todo'), fc.constantFrom('task', 'NOTE'));
const tagNameArb = fc.oneof(fc.constantFrom('Work', 'work', 'home', 'Home ', 'a,b', '', 'x'.repeat(51)), fc.string({ maxLength: 12 }));
const timezoneArb = fc.oneof(fc.constantFrom('UTC', 'Europe/Berlin', 'america/new_york', 'Etc/GMT+5', 'Mars/Base', '', 'x'.repeat(65)), junkString);
// A few states recur, so starts collide (409) and exchanges find pending pairings (425).
const stateArb = mostly(
  fc.constantFrom('state-one-aaaaaaaaaaaaaaaaaaaaaa', 'state-two-bbbbbbbbbbbbbbbbbbbbbb', 'state_three_cccccccccccccccccccc'),
  fc.oneof(fc.stringMatching(/^[A-Za-z0-9_-]{32}$/), junkString, fc.constantFrom('x'.repeat(33), 'state-one-aaaaaaaaaaaaaaaaaaaaa=')),
);
const clientIdArb = fc.constantFrom('0190a6f4-8c00-7000-8000-000000000001', '0190a6f4-8c00-7000-8000-000000000002');
const bulkOpArb = mostly(fc.constantFrom('toggle', 'archive', 'unarchive', 'delete', 'move'), fc.constantFrom('explode', 'TOGGLE', ''));
const bulkIdsArb = fc.oneof(
  { weight: 9, arbitrary: fc.array(itemIdArb, { minLength: 1, maxLength: 4 }) },
  {
    weight: 1,
    arbitrary: fc.constantFrom<string[]>(
      [],
      Array.from({ length: 101 }, () => '<own-item>'),
      ['not-a-uuid'],
    ),
  },
);

const ROUTES: Route[] = [
  { path: '/api/v1/me', methods: ['GET', 'PATCH'], body: fc.record({ timezone: timezoneArb }, { requiredKeys: [] }) },
  {
    path: '/api/v1/capture',
    methods: ['POST'],
    body: fc.record(
      {
        text: textArb,
        project_id: projectIdArb,
        type: typeArb,
        organize: mostly(fc.constant(false), fc.constant(true)),
        client_id: fc.oneof(clientIdArb, fc.uuid()),
        due_at: dateArb,
      },
      { requiredKeys: ['text'] },
    ),
  },
  { path: '/api/v1/items', methods: ['GET'] },
  {
    path: '/api/v1/items/{id}',
    methods: ['GET', 'PATCH', 'DELETE'],
    id: 'item',
    body: fc.record(
      {
        title: fc.option(textArb),
        content_md: fc.option(textArb),
        due_at: fc.option(dateArb),
        project_id: projectIdArb,
        status: statusArb,
        parent_id: fc.option(itemIdArb),
        tags: fc.array(tagNameArb, { maxLength: 22 }),
        type: typeArb,
      },
      { requiredKeys: [] },
    ),
  },
  { path: '/api/v1/items/{id}/toggle', methods: ['POST'], id: 'item' },
  { path: '/api/v1/items/{id}/archive', methods: ['POST'], id: 'item' },
  { path: '/api/v1/items/{id}/unarchive', methods: ['POST'], id: 'item' },
  { path: '/api/v1/items/{id}/children', methods: ['GET'], id: 'item' },
  { path: '/api/v1/items/search', methods: ['GET'] },
  {
    path: '/api/v1/items/bulk',
    methods: ['POST'],
    body: fc.record(
      {
        op: bulkOpArb,
        ids: bulkIdsArb,
        payload: fc.record({ is_completed: mostly(fc.boolean(), fc.constantFrom<unknown>('true', 1, null)), project_id: projectIdArb }, { requiredKeys: [] }),
      },
      { requiredKeys: ['op', 'ids'] },
    ),
  },
  { path: '/api/v1/items/{id}/organize', methods: ['POST'], id: 'item' },
  { path: '/api/v1/projects', methods: ['GET', 'POST'], body: fc.record({ name: fc.oneof(textArb, fc.constantFrom('Inbox', 'inbox', 'Work', ' work ')) }) },
  {
    path: '/api/v1/projects/{id}',
    methods: ['GET', 'PATCH', 'DELETE'],
    id: 'project',
    body: fc.record({ name: fc.oneof(textArb, fc.constantFrom('Inbox', 'Work', 'Home', 'x'.repeat(101))) }, { requiredKeys: [] }),
  },
  { path: '/api/v1/projects/{id}/items', methods: ['GET'], id: 'project' },
  { path: '/api/v1/tags', methods: ['GET'] },
  // Random bodies are never a valid audio form; what matters is that every refusal is documented.
  // Without a speech engine (no ffmpeg or pocketsphinx here) every request would be a 503: left out.
  ...(lacking(FFMPEG, POCKETSPHINX) ? [] : [{ path: '/api/v1/voice/transcribe', methods: ['POST' as const] }]),
  {
    path: '/api/v1/connect/start',
    methods: ['POST'],
    body: fc.record({ state: stateArb, label: fc.oneof(textArb, fc.constantFrom('x'.repeat(100), 'x'.repeat(101))) }),
  },
  { path: '/api/v1/connect/exchange', methods: ['POST'], body: fc.record({ state: stateArb }) },
  {
    path: '/api/v1/webhooks',
    methods: ['GET', 'POST'],
    body: fc.record(
      {
        url: mostly(
          fc.constantFrom('https://hooks.example.com/in', 'https://8.8.8.8/x', 'https://Example.COM'),
          fc.constantFrom(
            'http://hooks.example.com/',
            'https://localhost/',
            'https://0x7f.1/',
            'https://[::ffff:10.0.0.1]/',
            'https://a.internal./',
            'https://u:p@x.example/',
            'nope',
            '',
          ),
        ),
        events: mostly(
          fc.subarray(['item.created', 'item.updated', 'item.completed', 'item.uncompleted', 'item.archived', 'item.deleted'], { minLength: 1 }),
          fc.constantFrom<string[]>([], ['item.exploded'], ['ITEM.CREATED']),
        ),
        description: fc.option(fc.oneof(textArb, fc.constant('d'.repeat(201)))),
      },
      { requiredKeys: ['url', 'events'] },
    ),
  },
  { path: '/api/v1/webhooks/{id}', methods: ['DELETE'], id: 'webhook' },
  { path: '/api/v1/webhooks/{id}/deliveries', methods: ['GET'], id: 'webhook' },
  { path: '/api/v1/webhooks/{id}/deliveries/0190f5e2-7c3a-7b1d-9e2f-123456789abc/redeliver', methods: ['POST'], id: 'webhook' },
];

const junkValue = fc.oneof(
  fc.constantFrom<unknown>('123', 'true', 'false', 123, -1, 1.5, true, false, null, [], {}, [null], { a: 1 }, '', ' '),
  fc.constant('z'.repeat(100_001)),
  junkString,
);

const truncate = (text: string, at: number, brace: boolean): string => text.slice(0, Math.floor(text.length * at)) + (brace ? '}' : '');

/** A valid body, or one with a single field swapped for a value of the wrong kind. */
function bodyArb(route: Route): fc.Arbitrary<string | undefined> {
  const valid = route.body ?? fc.constant({});
  const mutated = fc
    .tuple(
      valid,
      fc.constantFrom(
        'text',
        'name',
        'title',
        'organize',
        'project_id',
        'parent_id',
        'tags',
        'due_at',
        'status',
        'timezone',
        'type',
        'client_id',
        'op',
        'ids',
        'payload',
        'state',
        'label',
        'url',
        'events',
        'description',
        'extra',
      ),
      junkValue,
    )
    .map(([obj, key, value]) => ({ ...obj, [key]: value }));
  return fc.oneof(
    { weight: 3, arbitrary: fc.constant(undefined) },
    { weight: 14, arbitrary: valid.map((b) => JSON.stringify(b)) },
    { weight: 5, arbitrary: mutated.map((b) => JSON.stringify(b)) },
    { weight: 2, arbitrary: fc.json() },
    { weight: 2, arbitrary: fc.anything().map((v) => JSON.stringify(v) ?? 'undefined') },
    // Valid JSON cut short, sometimes with a closing brace pasted on.
    {
      weight: 2,
      arbitrary: fc.tuple(valid, fc.double({ min: 0, max: 1, noNaN: true }), fc.boolean()).map(([b, at, brace]) => truncate(JSON.stringify(b), at, brace)),
    },
    { weight: 1, arbitrary: fc.constantFrom('', ' ', '{', '}', '[', 'null', 'nul', "{'a':1}", '{"a":1,}', '\u0000', '{"__proto__":{"x":1}}') },
    { weight: 1, arbitrary: fc.constant('<oversized>') },
  );
}

const idArb = fc.oneof(
  { weight: 8, arbitrary: fc.record({ ref: fc.constantFrom<Ref | 'own'>('own', 'own', 'own', ...REFS), index: fc.nat(50) }) },
  { weight: 2, arbitrary: fc.uuid().map((value) => ({ value })) },
  { weight: 2, arbitrary: junkString.map((value) => ({ value })) },
  { weight: 1, arbitrary: fc.constantFrom('%', '%E0%A4%A', '%00', '..', '%2F', 'x'.repeat(150)).map((raw) => ({ raw })) },
);

const queryArb = fc.array(
  fc.tuple(
    fc.constantFrom('limit', 'limit', 'cursor', 'since', 'q', 'q', 'status', 'type', 'tag', 'project_id', 'is_completed', 'due_before', 'due_after', 'foo'),
    fc.oneof(
      fc.integer({ min: -5, max: 5000 }).map(String),
      fc.constantFrom('', 'abc', '1.5', '1e3', 'null', '2026-11-21T10:00:00Z', '2026-11-21T10:00:00', 'tomorrow', 'W10', 'WyJjcmVhdGVkOjoiLCJ4IiwieSJd'),
      fc.constantFrom(
        'todo',
        'archived',
        'note',
        'true',
        'false',
        'Work',
        'child',
        'par',
        '"child" OR NEAR(x*)',
        '-:&|!()',
        '0190f5e2-7c3a-7b1d-9e2f-123456789abc',
      ),
      fc.base64String({ maxLength: 40 }),
      junkString,
    ),
  ),
  { maxLength: 3 },
);

const contentTypeArb = fc.oneof(
  { weight: 24, arbitrary: fc.constant('application/json') },
  {
    weight: 4,
    arbitrary: fc.constantFrom(
      undefined,
      'application/json; charset=utf-8',
      'APPLICATION/JSON',
      'text/plain',
      'application/x-www-form-urlencoded',
      'multipart/form-data; boundary=x',
      'application/jsonx',
      'application/vnd.api+json',
      'a/b/c',
      ';;;',
      '',
    ),
  },
);

const requestArb = fc.integer({ min: 0, max: ROUTES.length - 1 }).chain((r) => {
  const route = ROUTES[r]!;
  return fc.record({
    route: fc.constant(route),
    method: fc.oneof(
      { weight: 20, arbitrary: fc.constantFrom(...route.methods) },
      { weight: 1, arbitrary: fc.constantFrom('PUT', 'POST', 'DELETE', 'PATCH', 'GET') },
    ),
    id: idArb,
    query: queryArb,
    body: bodyArb(route),
    contentType: contentTypeArb,
    auth: fc.oneof(
      { weight: 30, arbitrary: fc.constant('user') },
      { weight: 2, arbitrary: fc.constantFrom('other', 'pro') },
      {
        weight: 3,
        arbitrary: fc.constantFrom(
          'none',
          'revoked',
          'Bearer',
          'Bearer garbage',
          'Basic dXNlcjpwYXNz',
          'Bearer cin_abcdefgh_0123456789abcdef0123456789abcdef',
          'lowercase',
          'spaces',
        ),
      },
    ),
  });
});

type GeneratedRequest = typeof requestArb extends fc.Arbitrary<infer T> ? T : never;

describe.each(DIALECTS)('random requests (%s)', (dialect) => {
  let t: TestApp;
  let v: OpenApiValidator;
  let user: TestUser;
  let other: TestUser;
  let pro: TestUser;
  let revoked: string;

  beforeAll(async () => {
    t = await createTestApp(dialect);
    v = await loadOpenApiValidator(t.app);
    [user, other, pro] = [await createUser(t), await createUser(t), await createUser(t, 'pro')];
    revoked = (await t.services.keys.mint(user.id, 'revoked')).token;
    // Webhooks the (free) user kept from a Pro period, for the webhook id routes to find.
    for (const n of [1, 2, 3]) await t.services.webhooks.create(user.id, { url: `https://hooks.example.com/${n}`, events: ['item.created'] });
    await t.services.keys.revoke((await t.services.keys.list(user.id)).find((k) => k.label === 'revoked')!.id);
    for (const who of [user, other]) {
      const auth = { authorization: `Bearer ${who.token}` };
      const parent = JSON.parse((await t.app.inject({ method: 'POST', url: '/api/v1/capture', headers: auth, payload: { text: 'parent' } })).body);
      const child = JSON.parse((await t.app.inject({ method: 'POST', url: '/api/v1/capture', headers: auth, payload: { text: 'child' } })).body);
      await t.app.inject({ method: 'PATCH', url: `/api/v1/items/${child.id}`, headers: auth, payload: { parent_id: parent.id, tags: ['Work', 'home'] } });
      await t.app.inject({ method: 'POST', url: '/api/v1/projects', headers: auth, payload: { name: 'Work' } });
    }
    // Each key's first use stamps api_keys.last_used_at; the manual clock stands still, so no later request does.
    await t.app.inject({ method: 'GET', url: '/api/v1/me', headers: { authorization: `Bearer ${pro.token}` } });
  });
  afterAll(async () => t?.close());

  async function idsOf(owner: TestUser, table: 'items' | 'projects'): Promise<string[]> {
    const rows = await t.services.db.selectFrom(table).select('id').where('user_id', '=', owner.id).orderBy('id').execute();
    return rows.map((r) => r.id);
  }

  async function resolveRef(ref: Ref, index: number): Promise<string> {
    const [owner, table] = [ref.startsWith('own') ? user : other, ref.endsWith('item') ? 'items' : 'projects'] as const;
    const ids = await idsOf(owner, table);
    return ids.length > 0 ? ids[index % ids.length]! : '00000000-0000-4000-8000-000000000000';
  }

  async function ownWebhookId(index: number): Promise<string> {
    const rows = await t.services.db.selectFrom('webhooks').select('id').where('user_id', '=', user.id).orderBy('id').execute();
    return rows.length > 0 ? rows[index % rows.length]!.id : '00000000-0000-4000-8000-000000000000';
  }

  function encode(value: string): string {
    try {
      return encodeURIComponent(value);
    } catch {
      return '%ZZ'; // lone surrogates cannot be encoded
    }
  }

  async function build(req: GeneratedRequest): Promise<{ url: string; headers: Record<string, string>; payload: string | undefined }> {
    let path = req.route.path;
    if (path.includes('{id}')) {
      const { id } = req;
      let segment: string;
      if ('raw' in id) segment = id.raw;
      else if ('value' in id) segment = encode(id.value);
      else {
        const ref: Ref = id.ref === 'own' ? (req.route.id === 'project' ? 'own-project' : 'own-item') : id.ref;
        segment = req.route.id === 'webhook' && id.ref === 'own' ? await ownWebhookId(id.index) : await resolveRef(ref, id.index);
      }
      path = path.replace('{id}', segment);
    }
    const query = new URLSearchParams(req.query).toString();
    let payload = req.body === '<oversized>' ? OVERSIZED : req.body;
    if (payload !== undefined) {
      for (const ref of REFS) {
        if (payload.includes(`<${ref}>`)) payload = payload.replaceAll(`"<${ref}>"`, JSON.stringify(await resolveRef(ref, payload.length)));
      }
    }
    const tokens: Record<string, string> = { user: user.token, other: other.token, pro: pro.token, revoked };
    const token = tokens[req.auth];
    const headers: Record<string, string> = {};
    if (token) headers.authorization = `Bearer ${token}`;
    else if (req.auth === 'lowercase') headers.authorization = `bearer ${user.token}`;
    else if (req.auth === 'spaces') headers.authorization = `Bearer   ${user.token}  `;
    else if (req.auth !== 'none') headers.authorization = req.auth;
    if (req.contentType !== undefined && (payload !== undefined || req.contentType !== 'application/json')) headers['content-type'] = req.contentType;
    return { url: query ? `${path}?${query}` : path, headers, payload };
  }

  it('answers every request as documented, and a refused request writes nothing', async () => {
    let before: Record<string, string> | undefined;
    const statuses = new Map<number, number>();
    await fc.assert(
      fc.asyncProperty(requestArb, async (req) => {
        const { url, headers, payload } = await build(req);
        before ??= await fingerprint(t.services.db);
        const res = await t.app.inject({ method: req.method as 'GET', url, headers, ...(payload !== undefined ? { payload } : {}) });
        const status = res.statusCode;
        statuses.set(status, (statuses.get(status) ?? 0) + 1);
        const contentType = String(res.headers['content-type'] ?? '');
        const body: unknown = res.body && contentType.includes('json') ? JSON.parse(res.body) : undefined;
        const what = `${req.method} ${url} [${headers['content-type'] ?? 'no content-type'}] ${payload?.slice(0, 200) ?? '(no body)'}\n→ ${status} ${res.body.slice(0, 300)}`;

        expect(status < 500, what).toBe(true);
        if (status >= 400) expect(body, what).toMatchObject({ error: expect.any(String), message: expect.any(String) });
        if (v.findOperation(req.method, url)) {
          expect(v.responseProblem(req.method, url, status, body, res.body ? contentType : undefined), what).toBeUndefined();
        } else {
          expect(status, what).toBe(404);
        }
        if (status >= 400 && status < 500) {
          const after = await fingerprint(t.services.db);
          expect(after, `a ${status} wrote to the database: ${what}`).toEqual(before);
        } else {
          before = undefined; // a success may have written; take a fresh fingerprint before the next request
        }
      }),
      { numRuns: RUNS[dialect] ?? 500, endOnFailure: true },
    );
    // The generators must reach both outcomes, or the property says little.
    const count = (pred: (s: number) => boolean) => [...statuses].filter(([s]) => pred(s)).reduce((n, [, c]) => n + c, 0);
    expect(count((s) => s < 300)).toBeGreaterThan(50);
    for (const s of [400, 401, 404, 413, 415]) expect(statuses.get(s) ?? 0, `status ${s}: ${JSON.stringify([...statuses])}`).toBeGreaterThan(0);
  }, 120_000);
});
