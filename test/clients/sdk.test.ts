import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ApiError, createClient, etagOf, NetworkError, pair, type CaptureInbox } from '@capture-inbox/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../helpers/dialects.js';
import { createUser, UNLIMITED, type TestUser } from '../helpers/test-app.js';
import { startListeningApp, stateOf, type ListeningApp } from './listening-app.js';

/** A fetch that passes every request on and remembers it (method, path, headers). */
function recordingFetch() {
  const seen: Array<{ method: string; path: string; headers: Headers }> = [];
  const fetchFn = (request: Request) => {
    const url = new URL(request.url);
    seen.push({ method: request.method, path: url.pathname + url.search, headers: new Headers(request.headers) });
    return fetch(request);
  };
  return { seen, fetchFn };
}

describe.each(DIALECTS)('@capture-inbox/sdk against the server (%s)', (dialect) => {
  let t: ListeningApp;
  let user: TestUser;
  let inbox: CaptureInbox;

  beforeAll(async () => {
    t = await startListeningApp(dialect);
    user = await createUser(t);
    inbox = createClient({ baseUrl: t.baseUrl, token: user.token });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('captures, reads with an ETag, and updates only while the ETag is current', async () => {
    const captured = await inbox.items.capture({ text: 'buy milk\nthe oat one' });
    expect(captured).toMatchObject({ title: 'buy milk', content_md: 'the oat one', project_id: user.inboxId });
    const read = await inbox.items.get(captured.id);
    const etag = etagOf(read);
    expect(etag).toMatch(/^"/);
    const updated = await inbox.items.update(captured.id, { title: 'buy oat milk' }, { ifMatch: etag! });
    expect(updated.title).toBe('buy oat milk');
    expect(etagOf(updated)).not.toBe(etag);

    const stale = await inbox.items.update(captured.id, { title: 'lost edit' }, { ifMatch: etag! }).catch((e: unknown) => e);
    expect(stale).toBeInstanceOf(ApiError);
    expect(stale).toMatchObject({ status: 412, error: 'precondition_failed' });
    expect((await inbox.items.get(captured.id)).title).toBe('buy oat milk');
  });

  it('parse answers what quick add reads and stores nothing; capture with parse and tags stores it', async () => {
    const project = await t.services.projects.findOrCreate(user.id, 'Garden');
    const before = (await inbox.items.list({ limit: 200 })).items.length;
    const parsed = await inbox.items.parse('Mow the lawn #garden @outside every 2 weeks');
    expect(parsed).toMatchObject({
      title: 'Mow the lawn',
      project_id: project.id,
      tags: ['outside'],
      recurrence: { rule: 'FREQ=WEEKLY;INTERVAL=2', from: 'due' },
    });
    expect(parsed.spans.map((s) => s.kind)).toEqual(['project', 'tag', 'recurrence']);
    expect((await inbox.items.list({ limit: 200 })).items.length).toBe(before);
    const item = await inbox.items.capture({ text: 'Mow the lawn #garden @outside', parse: true, tags: ['yard'] });
    expect(item).toMatchObject({ title: 'Mow the lawn', project_id: project.id, tags: ['yard'] });
  });

  it('parseSplit previews a list, and passes organize on (Pro: a free user is refused)', async () => {
    const preview = await inbox.items.parseSplit('- eggs\n- bread');
    expect(preview.map((item) => item.title)).toEqual(['eggs', 'bread']);
    const refused = await inbox.items.parseSplit('eggs then bread', { organize: true }).catch((e: unknown) => e);
    expect(refused).toMatchObject({ status: 402, error: 'pro_required' });
  });

  it('sends a fresh Idempotency-Key with every POST and none with other methods', async () => {
    const { seen, fetchFn } = recordingFetch();
    const recorded = createClient({ baseUrl: t.baseUrl, token: user.token, fetch: fetchFn });
    const a = await recorded.items.capture({ text: 'first' });
    await recorded.items.toggle(a.id);
    await recorded.items.get(a.id);
    const posts = seen.filter((r) => r.method === 'POST').map((r) => r.headers.get('idempotency-key'));
    expect(posts).toHaveLength(2);
    expect(posts[0]).toMatch(/^[0-9a-f-]{36}$/);
    expect(posts[1]).not.toBe(posts[0]);
    expect(seen.find((r) => r.method === 'GET')?.headers.get('idempotency-key')).toBeNull();
  });

  it('a repeated key replays the first answer instead of capturing twice', async () => {
    const key = `sdk-${Date.now()}`;
    const first = await inbox.items.capture({ text: 'only once' }, { idempotencyKey: key });
    const again = await inbox.items.capture({ text: 'only once' }, { idempotencyKey: key });
    expect(again.id).toBe(first.id);
    const found = await inbox.items.search({ q: 'only once' });
    expect(found.items.filter((i) => i.title === 'only once')).toHaveLength(1);
  });

  it('throws ApiError with the code, message and details of a refusal', async () => {
    const missing = await inbox.items.get('00000000-0000-7000-8000-000000000000').catch((e: unknown) => e);
    expect(missing).toMatchObject({ name: 'ApiError', status: 404, error: 'not_found' });
    const invalid = await inbox.items.capture({ text: '' }).catch((e: unknown) => e);
    expect(invalid).toBeInstanceOf(ApiError);
    expect((invalid as ApiError).error).toBe('bad_request');
    expect((invalid as ApiError).details?.[0]?.field).toMatch(/text/);
    const anonymous = await createClient({ baseUrl: t.baseUrl })
      .me.get()
      .catch((e: unknown) => e);
    expect(anonymous).toMatchObject({ status: 401, error: 'unauthorized' });
  });

  it('pages through lists, search and project items with async iterators, one request per page', async () => {
    const project = await inbox.projects.create({ name: `Paging ${dialect}` });
    for (let i = 0; i < 5; i += 1) await inbox.items.capture({ text: `pageable ${i}`, project_id: project.id });
    const { seen, fetchFn } = recordingFetch();
    const recorded = createClient({ baseUrl: t.baseUrl, token: user.token, fetch: fetchFn });

    const titles: string[] = [];
    for await (const item of recorded.items.searchAll({ q: 'pageable', limit: 2 })) titles.push(item.title ?? '');
    expect(titles).toEqual(['pageable 4', 'pageable 3', 'pageable 2', 'pageable 1', 'pageable 0']);
    expect(seen.filter((r) => r.path.includes('/items/search'))).toHaveLength(3);

    const inProject: string[] = [];
    for await (const item of recorded.projects.itemsAll(project.id, { limit: 2 })) inProject.push(item.title ?? '');
    expect(inProject).toHaveLength(5);

    const firstTwo: string[] = [];
    for await (const item of recorded.items.listAll({ limit: 2 })) {
      firstTwo.push(item.id);
      if (firstTwo.length === 2) break;
    }
    // Breaking out after the first page asks for no second one.
    expect(seen.filter((r) => r.path.startsWith('/api/v1/items?'))).toHaveLength(1);
  });

  it('follows the change feed to the end and resumes from a saved cursor', async () => {
    const own = await createUser(t);
    const client = createClient({ baseUrl: t.baseUrl, token: own.token });
    const a = await client.items.capture({ text: 'feed one' });
    await client.items.toggle(a.id);
    const seen: string[] = [];
    let cursor: string | undefined;
    for await (const change of client.changes.follow({ wait: false, limit: 1 })) {
      if (change.data.item?.id === a.id) seen.push(change.event);
      cursor = change.cursor;
    }
    expect(seen).toEqual(['item.created', 'item.completed']);
    await client.items.delete(a.id);
    const after: string[] = [];
    for await (const change of client.changes.follow({ cursor: cursor!, wait: false })) if (change.data.item?.id === a.id) after.push(change.event);
    expect(after).toEqual(['item.deleted']);
  });

  it('reads projects, tags, me, the export in both formats, and imports a document', async () => {
    expect((await inbox.me.get()).email).toBe(user.email);
    await inbox.items.update((await inbox.items.capture({ text: 'tagged' })).id, { tags: ['errand'] });
    expect((await inbox.tags.list()).map((tag) => tag.name)).toContain('errand');
    expect((await inbox.projects.list()).some((p) => p.is_default)).toBe(true);
    const doc = await inbox.transfer.exportJson();
    expect(doc.format).toBe('capture-inbox-export');
    expect(await inbox.transfer.exportMarkdown()).toMatch(/tagged/);
    const other = await createUser(t);
    const imported = await createClient({ baseUrl: t.baseUrl, token: other.token }).transfer.import(doc);
    expect(imported).toMatchObject({ imported: { items: doc.items.length } });
  });

  describe('pair()', () => {
    it('answers the approval URL at once and the key once the user approves', async () => {
      const owner = await createUser(t);
      const pairing = await pair({ baseUrl: t.baseUrl, label: 'SDK test', scopes: ['read', 'capture'] });
      expect(pairing.url).toMatch(new RegExp(`^${t.baseUrl}/connect/agent\\?state=[A-Za-z0-9_-]{32}$`));
      // The first poll (at once) finds it pending; the next one, after Retry-After, finds it approved.
      await t.services.pairing.decide(stateOf(pairing.url), owner.id, true);
      const key = await pairing.result;
      expect(key.scopes).toEqual(['read', 'capture']);
      expect((await createClient({ baseUrl: t.baseUrl, token: key.token }).me.get()).email).toBe(owner.email);
    });

    it('rejects with access_denied when the user denies, and with expired after ten minutes', async () => {
      const owner = await createUser(t);
      const denied = await pair({ baseUrl: t.baseUrl, label: 'Denied' });
      await t.services.pairing.decide(stateOf(denied.url), owner.id, false);
      await expect(denied.result).rejects.toMatchObject({ status: 403, error: 'access_denied' });

      const late = await pair({ baseUrl: t.baseUrl, label: 'Late' });
      t.clock.advance(10 * 60_000 + 1);
      await expect(late.result).rejects.toMatchObject({ status: 410, error: 'expired' });
    }, 20_000);

    it('stops polling when its signal aborts', async () => {
      const controller = new AbortController();
      const pending = await pair({ baseUrl: t.baseUrl, label: 'Cancelled', signal: controller.signal });
      controller.abort(new Error('user pressed Ctrl-C'));
      await expect(pending.result).rejects.toThrow('user pressed Ctrl-C');
    });
  });
});

describe('retries', () => {
  let t: ListeningApp;
  let user: TestUser;
  let flaky: Server;
  let flakyUrl: string;
  /** What the proxy answers before it passes a request on: [status, Retry-After or null], in order. */
  let refusals: Array<[number, string | null]> = [];
  const answered: Array<{ status: number; key: string | undefined }> = [];

  beforeAll(async () => {
    t = await startListeningApp(DIALECTS[0] ?? 'sqlite', { limits: { ...UNLIMITED, free: { perMinute: 2, perDay: 1000 } } });
    user = await createUser(t);
    // In front of the server: answers the planned refusals first, then passes requests on, so a
    // client that retries gets the server's real answer.
    flaky = createServer((req, res) => {
      const key = req.headers['idempotency-key'] as string | undefined;
      const refusal = refusals.shift();
      if (refusal) {
        const [status, retryAfter] = refusal;
        answered.push({ status, key });
        res
          .writeHead(status, { 'content-type': 'application/json', ...(retryAfter ? { 'retry-after': retryAfter } : {}) })
          .end(JSON.stringify({ error: status === 429 ? 'rate_limited' : 'organizer_unavailable', message: 'not now' }));
        return;
      }
      const chunks: Buffer[] = [];
      req
        .on('data', (c: Buffer) => chunks.push(c))
        .on(
          'end',
          () =>
            void (async () => {
              const headers = Object.fromEntries(Object.entries(req.headers).filter(([k]) => k !== 'host' && k !== 'content-length')) as Record<string, string>;
              const upstream = await fetch(`${t.baseUrl}${req.url}`, {
                method: req.method!,
                headers,
                ...(chunks.length ? { body: Buffer.concat(chunks) } : {}),
              });
              answered.push({ status: upstream.status, key });
              res
                .writeHead(upstream.status, { 'content-type': upstream.headers.get('content-type') ?? 'application/json' })
                .end(Buffer.from(await upstream.arrayBuffer()));
            })(),
        );
    });
    await new Promise<void>((resolve) => flaky.listen(0, '127.0.0.1', resolve));
    flakyUrl = `http://127.0.0.1:${(flaky.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await new Promise((resolve) => flaky?.close(resolve));
    await t?.close();
  });

  it('waits out a 429 with Retry-After and resends the POST with the same Idempotency-Key', async () => {
    answered.length = 0;
    refusals = [[429, '1']];
    const client = createClient({ baseUrl: flakyUrl, token: user.token });
    const started = Date.now();
    const item = await client.items.capture({ text: 'after a 429' });
    expect(Date.now() - started).toBeGreaterThanOrEqual(1000);
    expect(item.title).toBe('after a 429');
    expect(answered.map((a) => a.status)).toEqual([429, 201]);
    expect(answered[0]!.key).toBeDefined();
    expect(answered[1]!.key).toBe(answered[0]!.key);
  });

  it('retries 503 without Retry-After on a doubling backoff, and stops after the bounded number of retries', async () => {
    answered.length = 0;
    refusals = [
      [503, null],
      [503, null],
    ];
    const client = createClient({ baseUrl: flakyUrl, token: user.token, retry: { retries: 2, backoffMs: 50 } });
    expect((await client.me.get()).email).toBe(user.email);
    expect(answered.map((a) => a.status)).toEqual([503, 503, 200]);

    answered.length = 0;
    refusals = [
      [503, null],
      [503, null],
      [503, null],
    ];
    const refused = await client.me.get().catch((e: unknown) => e);
    expect(refused).toMatchObject({ status: 503, error: 'organizer_unavailable' });
    expect(answered).toHaveLength(3);
  });

  it('gives up on a Retry-After longer than it may wait: the ApiError carries retryAfter', async () => {
    const client = createClient({ baseUrl: t.baseUrl, token: user.token, retry: { maxDelayMs: 5000 } });
    const refused = await (async () => {
      for (let i = 0; i < 5; i += 1) await client.me.get();
    })().catch((e: unknown) => e);
    expect(refused).toMatchObject({ status: 429, error: 'rate_limited' });
    expect((refused as ApiError).retryAfter).toBeGreaterThan(5);
  });

  it('reports an unreachable server with its address and the cause after the bounded retries', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(closed.address() as AddressInfo).port}`;
    await new Promise((resolve) => closed.close(resolve));
    const attempts: number[] = [];
    const client = createClient({ baseUrl: url, token: 'cin_x_y', retry: { retries: 2, backoffMs: 10 }, fetch: (r) => (attempts.push(1), fetch(r)) });
    const error = await client.me.get().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NetworkError);
    expect((error as NetworkError).message).toMatch(new RegExp(`cannot reach ${url}: .*ECONNREFUSED`));
    expect(attempts).toHaveLength(3);
  });
});

describe('createClient({ baseUrl })', () => {
  it('refuses a missing, relative or non-http baseUrl at once with a TypeError that shows the shape', () => {
    // @ts-expect-error a caller in plain JavaScript may leave it out
    expect(() => createClient({ token: 'cin_x' })).toThrow(/baseUrl is required.*https:\/\/inbox\.example\.com/);
    expect(() => createClient({ baseUrl: '' })).toThrow(TypeError);
    expect(() => createClient({ baseUrl: 'localhost:8080/x' })).toThrow(/http or https/);
    expect(() => createClient({ baseUrl: '/api/v1' })).toThrow(/absolute http\(s\) address.*location\.origin/);
    expect(() => createClient({ baseUrl: 'https://inbox.example.com/api/v1/' })).not.toThrow();
  });
});
