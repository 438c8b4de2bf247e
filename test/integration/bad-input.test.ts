import { randomUUID } from 'node:crypto';
import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fingerprint } from '../helpers/db-fingerprint.js';
import { DIALECTS } from '../helpers/dialects.js';
import { createTestApp, createUser, type JsonBody, type TestApp, type TestUser } from '../helpers/test-app.js';

const ONE_MIB = 1024 * 1024;

interface Sent {
  status: number;
  body: JsonBody;
}

describe.each(DIALECTS)('bad input is refused cleanly (%s)', (dialect) => {
  let t: TestApp;
  let user: TestUser;
  let itemId: string;
  let projectId: string;

  beforeAll(async () => {
    t = await createTestApp(dialect);
    user = await createUser(t);
    const headers = { authorization: `Bearer ${user.token}` };
    // The first authenticated request stamps api_keys.last_used_at; the manual clock keeps it still afterwards.
    const item = await t.app.inject({ method: 'POST', url: '/api/v1/capture', headers, payload: { text: 'first' } });
    itemId = JSON.parse(item.body).id;
    const project = await t.app.inject({ method: 'POST', url: '/api/v1/projects', headers, payload: { name: 'Work' } });
    projectId = JSON.parse(project.body).id;
  });
  afterAll(async () => t?.close());

  async function send(method: InjectOptions['method'], url: string, payload?: string, contentType?: string): Promise<Sent> {
    const headers: Record<string, string> = { authorization: `Bearer ${user.token}` };
    if (contentType) headers['content-type'] = contentType;
    const res = await t.app.inject({ method, url, headers, ...(payload !== undefined ? { payload } : {}) });
    const body: unknown = String(res.headers['content-type'] ?? '').includes('json') && res.body ? JSON.parse(res.body) : undefined;
    return { status: res.statusCode, body: body as JsonBody };
  }

  const json = (value: unknown) => JSON.stringify(value);

  /** The request is refused with `status`/`error`, nothing is written, and the service keeps serving. */
  async function refused(
    status: number,
    error: string,
    method: InjectOptions['method'],
    url: string,
    payload?: string,
    contentType?: string,
  ): Promise<JsonBody> {
    const before = await fingerprint(t.services.db);
    const res = await send(method, url, payload, payload !== undefined && contentType === undefined ? 'application/json' : contentType);
    expect(res.status, `${method} ${url} ${payload?.slice(0, 80) ?? ''}: ${json(res.body)}`).toBe(status);
    expect(res.body).toMatchObject({ error, message: expect.any(String) });
    expect(await fingerprint(t.services.db)).toEqual(before);
    expect((await send('GET', '/api/v1/me')).status).toBe(200);
    return res.body;
  }

  const bodyRoutes = (): Array<[InjectOptions['method'], string]> => [
    ['POST', '/api/v1/capture'],
    ['PATCH', `/api/v1/items/${itemId}`],
    ['POST', `/api/v1/items/${itemId}/toggle`],
    ['DELETE', `/api/v1/items/${itemId}`],
    ['POST', '/api/v1/projects'],
    ['PATCH', `/api/v1/projects/${projectId}`],
    ['PATCH', '/api/v1/me'],
  ];

  it('JSON that does not parse is 400 bad_request', async () => {
    for (const [method, url] of bodyRoutes()) {
      for (const raw of ['{"text":', '{bad}', "{'text':'x'}", '[1,]', 'nul', '{"text":"x"} trailing']) {
        await refused(400, 'bad_request', method, url, raw);
      }
    }
  });

  it('another content type, or a body without one, is 415 unsupported_media_type', async () => {
    for (const [method, url] of bodyRoutes()) {
      await refused(415, 'unsupported_media_type', method, url, json({ text: 'x', name: 'x' }), 'text/plain');
      await refused(415, 'unsupported_media_type', method, url, 'text=x', 'application/x-www-form-urlencoded');
      await refused(415, 'unsupported_media_type', method, url, json({ text: 'x', name: 'x' }), 'multipart/form-data; boundary=x');
      // A body with no Content-Type at all.
      await refused(415, 'unsupported_media_type', method, url, json({ text: 'x', name: 'x' }), '');
    }
  });

  it('a JSON body over 1 MiB is 413 payload_too_large; one just under it is read', async () => {
    for (const [method, url] of bodyRoutes()) {
      await refused(413, 'payload_too_large', method, url, json({ text: 'x'.repeat(ONE_MIB), name: 'x' }));
    }
    // Under the byte limit the body is parsed, and the text limit (100000 characters) answers instead.
    const body = await refused(400, 'bad_request', 'POST', '/api/v1/capture', json({ text: 'x'.repeat(ONE_MIB - 100) }));
    expect(body.details).toEqual([expect.objectContaining({ field: 'text' })]);
  });

  it('body fields are not coerced: "true" for a boolean, numbers for strings, a string for an array', async () => {
    const organize = await refused(400, 'bad_request', 'POST', '/api/v1/capture', json({ text: 'x', organize: 'true' }));
    expect(organize.details).toEqual([{ field: 'organize', message: expect.any(String) }]);
    // No body field is an integer yet; the reverse coercions are refused the same way.
    const text = await refused(400, 'bad_request', 'POST', '/api/v1/capture', json({ text: 5 }));
    expect(text.details).toEqual([{ field: 'text', message: expect.any(String) }]);
    await refused(400, 'bad_request', 'POST', '/api/v1/capture', json({ text: 'x', organize: 1 }));
    await refused(400, 'bad_request', 'POST', '/api/v1/capture', json({ text: 'x', organize: null }));
    await refused(400, 'bad_request', 'POST', '/api/v1/capture', json({ text: ['x'] }));
    await refused(400, 'bad_request', 'POST', '/api/v1/projects', json({ name: 123 }));
    const tags = await refused(400, 'bad_request', 'PATCH', `/api/v1/items/${itemId}`, json({ tags: 'Work' }));
    expect(tags.details).toEqual([{ field: 'tags', message: expect.any(String) }]);
    await refused(400, 'bad_request', 'PATCH', `/api/v1/items/${itemId}`, json({ tags: [1, 2] }));
    await refused(400, 'bad_request', 'PATCH', `/api/v1/items/${itemId}`, json({ title: 5 }));
    await refused(400, 'bad_request', 'PATCH', `/api/v1/items/${itemId}`, json({ status: true }));
    for (const notAnObject of ['null', '[]', '"text"', '42', 'true']) {
      await refused(400, 'bad_request', 'POST', '/api/v1/capture', notAnObject);
    }
  });

  it('NUL characters in body strings are 400 on every database', async () => {
    await refused(400, 'bad_request', 'POST', '/api/v1/capture', json({ text: 'a\u0000b' }));
    await refused(400, 'bad_request', 'POST', '/api/v1/projects', json({ name: '\u0000' }));
    await refused(400, 'bad_request', 'PATCH', `/api/v1/items/${itemId}`, json({ tags: ['a\u0000'] }));
    await refused(400, 'bad_request', 'PATCH', `/api/v1/items/${itemId}`, json({ content_md: 'x', ['k\u0000']: 1 }));
    await refused(400, 'bad_request', 'PATCH', '/api/v1/me', json({ timezone: 'UTC\u0000' }));
  });

  it('field limits are enforced with details', async () => {
    await refused(400, 'bad_request', 'POST', '/api/v1/capture', json({ text: 'x'.repeat(100001) }));
    await refused(400, 'bad_request', 'POST', '/api/v1/capture', json({ text: ' \n\t ' }));
    await refused(400, 'bad_request', 'PATCH', `/api/v1/items/${itemId}`, json({ title: 'x'.repeat(501) }));
    await refused(400, 'bad_request', 'PATCH', `/api/v1/items/${itemId}`, json({ tags: ['a,b'] }));
    await refused(400, 'bad_request', 'PATCH', `/api/v1/items/${itemId}`, json({ tags: ['x'.repeat(51)] }));
    await refused(400, 'bad_request', 'PATCH', `/api/v1/items/${itemId}`, json({ tags: Array.from({ length: 21 }, (_, i) => `t${i}`) }));
    await refused(400, 'bad_request', 'POST', '/api/v1/projects', json({ name: '  ' }));
    await refused(400, 'bad_request', 'POST', '/api/v1/projects', json({ name: 'x'.repeat(101) }));
    const missing = await refused(400, 'bad_request', 'POST', '/api/v1/capture', json({}));
    expect(missing.details).toEqual([{ field: 'text', message: expect.any(String) }]);
  });

  it('a malformed id in the path is 404 not_found', async () => {
    const ids = ['not-a-uuid', '123', `${itemId}x`, itemId.slice(0, 35), '%E2%9C%93', 'x'.repeat(300), '%E0%A4%A', '%00', '..%2F..%2Fme'];
    for (const id of ids) {
      await refused(404, 'not_found', 'GET', `/api/v1/items/${id}`);
      await refused(404, 'not_found', 'PATCH', `/api/v1/items/${id}`, json({ title: 'x' }));
      await refused(404, 'not_found', 'DELETE', `/api/v1/items/${id}`);
      await refused(404, 'not_found', 'POST', `/api/v1/items/${id}/archive`);
      await refused(404, 'not_found', 'GET', `/api/v1/items/${id}/children`);
      await refused(404, 'not_found', 'GET', `/api/v1/projects/${id}`);
      await refused(404, 'not_found', 'PATCH', `/api/v1/projects/${id}`, json({ name: 'x' }));
      await refused(404, 'not_found', 'DELETE', `/api/v1/projects/${id}`);
      await refused(404, 'not_found', 'GET', `/api/v1/projects/${id}/items`);
    }
  });

  it('a malformed id in a body is 400 bad_request; an unknown one is 404', async () => {
    for (const bad of ['not-a-uuid', '', '123', `${projectId}0`, 'ffffffff-ffff-ffff-ffff-fffffffffffg']) {
      const capture = await refused(400, 'bad_request', 'POST', '/api/v1/capture', json({ text: 'x', project_id: bad }));
      expect(capture.details).toEqual([{ field: 'project_id', message: expect.any(String) }]);
      await refused(400, 'bad_request', 'POST', '/api/v1/capture', json({ text: 'x', client_id: bad }));
      await refused(400, 'bad_request', 'PATCH', `/api/v1/items/${itemId}`, json({ project_id: bad }));
      await refused(400, 'bad_request', 'PATCH', `/api/v1/items/${itemId}`, json({ parent_id: bad }));
    }
    await refused(404, 'not_found', 'POST', '/api/v1/capture', json({ text: 'x', project_id: randomUUID() }));
    await refused(404, 'not_found', 'PATCH', `/api/v1/items/${itemId}`, json({ project_id: randomUUID() }));
    await refused(400, 'bad_request', 'PATCH', `/api/v1/items/${itemId}`, json({ parent_id: randomUUID() }));
    await refused(400, 'bad_request', 'PATCH', `/api/v1/items/${itemId}`, json({ parent_id: itemId }));
  });

  it('limit must be a positive integer; larger values are clamped', async () => {
    for (const limit of ['abc', '1.5', '0', '-3', '', '10abc', 'null', '[]']) {
      for (const url of ['/api/v1/items', `/api/v1/items/${itemId}/children`, `/api/v1/projects/${projectId}/items`]) {
        await refused(400, 'bad_request', 'GET', `${url}?limit=${limit}`);
      }
    }
    await refused(400, 'bad_request', 'GET', '/api/v1/items?limit=5&limit=6');
    for (const cursor of ['garbage!', 'bm9wZQ', '%FF', 'W10']) await refused(400, 'bad_request', 'GET', `/api/v1/items?cursor=${cursor}`);
    for (let i = 0; i < 205; i += 1) {
      expect((await send('POST', '/api/v1/capture', json({ text: `item ${i}` }), 'application/json')).status).toBe(201);
    }
    const page = await send('GET', '/api/v1/items?limit=1000');
    expect(page.status).toBe(200);
    expect(page.body.items).toHaveLength(200);
    expect(page.body.next_cursor).toEqual(expect.any(String));
    // A cursor of one listing is refused by another.
    await refused(400, 'bad_request', 'GET', `/api/v1/items?since=2020-01-01T00:00:00Z&cursor=${page.body.next_cursor}`);
    await refused(400, 'bad_request', 'GET', `/api/v1/projects/${user.inboxId}/items?cursor=${page.body.next_cursor}`);
  });

  it('a date-time needs an offset; garbage is refused', async () => {
    for (const bad of ['2026-11-22T09:00:00', '2026-11-22', 'tomorrow', '2026-13-01T00:00:00Z', '2026-11-22T25:00:00Z', '']) {
      const res = await refused(400, 'bad_request', 'POST', '/api/v1/capture', json({ text: 'x', due_at: bad }));
      expect(res.details).toEqual([{ field: 'due_at', message: expect.any(String) }]);
      await refused(400, 'bad_request', 'PATCH', `/api/v1/items/${itemId}`, json({ due_at: bad }));
      await refused(400, 'bad_request', 'GET', `/api/v1/items?since=${encodeURIComponent(bad)}`);
    }
    const ok = await send('PATCH', `/api/v1/items/${itemId}`, json({ due_at: '2026-11-22T09:00:00+02:00' }), 'application/json');
    expect(ok.body.due_at).toBe('2026-11-22T07:00:00.000Z');
    expect((await send('GET', `/api/v1/items?since=${encodeURIComponent('2026-11-21T10:00:00-05:00')}`)).status).toBe(200);
  });

  it('unknown body fields are ignored', async () => {
    const other = await createUser(t);
    const res = await send(
      'POST',
      '/api/v1/capture',
      json({ text: 'mine', user_id: other.id, id: randomUUID(), is_completed: true, status: 'done', extra: [1] }),
      'application/json',
    );
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ title: 'mine', is_completed: false, status: 'todo' });
    expect((await send('GET', `/api/v1/items/${res.body.id}`)).status).toBe(200);
    const patched = await send('PATCH', `/api/v1/items/${res.body.id}`, json({ id: randomUUID(), created_at: 'x', whatever: null }), 'application/json');
    expect(patched.status).toBe(200);
    expect(patched.body.id).toBe(res.body.id);
    const raw = await send('POST', '/api/v1/projects', '{"name":"Proto","__proto__":{"polluted":true}}', 'application/json');
    expect(raw.status).toBe(200);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});
