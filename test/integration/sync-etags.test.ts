import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fingerprint } from '../helpers/db-fingerprint.js';
import { DIALECTS } from '../helpers/dialects.js';
import { actor, expectError, ok, UNKNOWN_ID, type Actor } from '../helpers/items.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';

const STRONG = /^"[A-Za-z0-9_-]+"$/;

describe.each(DIALECTS)('ETag, If-None-Match and If-Match on items (%s)', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(dialect);
  });
  afterAll(async () => t?.close());

  /** A fresh item and its current ETag. */
  async function item(a: Actor): Promise<{ id: string; etag: string }> {
    const res = await a.c.post('capture', { text: 'buy milk' });
    expect(res.status).toBe(201);
    return { id: res.body.id, etag: String(res.headers.etag) };
  }

  it('every answer with one item carries its ETag, the same for the same item state', async () => {
    const a = await actor(t);
    const { id, etag } = await item(a);
    expect(etag).toMatch(STRONG);
    const get = await a.c.get(`items/${id}`);
    expect(get.headers.etag).toBe(etag);
    const toggled = await a.c.post(`items/${id}/toggle`);
    expect(toggled.headers.etag).toMatch(STRONG);
    expect(toggled.headers.etag).not.toBe(etag);
    expect((await a.c.get(`items/${id}`)).headers.etag).toBe(toggled.headers.etag);
    for (const change of [() => a.c.post(`items/${id}/archive`), () => a.c.post(`items/${id}/unarchive`), () => a.c.patch(`items/${id}`, { title: 'x' })]) {
      const res = await change();
      expect(res.status).toBe(200);
      expect(res.headers.etag).toBe((await a.c.get(`items/${id}`)).headers.etag);
    }
    // Lists are not one item: no ETag.
    expect((await a.c.get('items')).headers.etag).toBeUndefined();
  });

  it('the ETag changes when only the tags change', async () => {
    const a = await actor(t);
    const { id, etag } = await item(a);
    const tagged = await a.c.patch(`items/${id}`, { tags: ['shop'] });
    expect(tagged.headers.etag).not.toBe(etag);
    // The same timestamps, another tag set: only the tags tell the two apart.
    const retagged = await a.c.patch(`items/${id}`, { tags: ['shop', 'dairy'] });
    expect(retagged.body.updated_at).toBe(tagged.body.updated_at);
    expect(retagged.headers.etag).not.toBe(tagged.headers.etag);
  });

  it('GET with a matching If-None-Match answers 304 without a body; otherwise 200', async () => {
    const a = await actor(t);
    const { id, etag } = await item(a);
    for (const header of [etag, `W/${etag}`, `"other", ${etag}`, '*']) {
      const res = await a.c.get(`items/${id}`, { 'if-none-match': header });
      expect(res.status).toBe(304);
      expect(res.text).toBe('');
      expect(res.headers.etag).toBe(etag);
    }
    ok(await a.c.post(`items/${id}/toggle`));
    const changed = await a.c.get(`items/${id}`, { 'if-none-match': etag });
    expect(changed.status).toBe(200);
    expect(changed.body.is_completed).toBe(true);
    expectError(await a.c.get(`items/${UNKNOWN_ID}`, { 'if-none-match': '*' }), 404, 'not_found');
  });

  it('PATCH, DELETE, toggle, archive and unarchive run when If-Match matches', async () => {
    const a = await actor(t);
    let { id, etag } = await item(a);
    for (const run of [
      () => a.c.patch(`items/${id}`, { title: 'new' }, { 'if-match': etag }),
      () => a.c.post(`items/${id}/toggle`, undefined, { 'if-match': etag }),
      () => a.c.post(`items/${id}/archive`, undefined, { 'if-match': etag }),
      () => a.c.post(`items/${id}/unarchive`, undefined, { 'if-match': `"nope", ${etag}` }),
      () => a.c.post(`items/${id}/toggle`, undefined, { 'if-match': '*' }),
    ]) {
      const res = await run();
      expect(res.status, res.text).toBe(200);
      etag = String(res.headers.etag);
    }
    expect((await a.c.delete(`items/${id}`, { 'if-match': etag })).status).toBe(204);
    ({ id } = await item(a));
  });

  it('answers 412 precondition_failed to a stale, weak or malformed If-Match, and changes nothing', async () => {
    const a = await actor(t);
    const { id, etag: stale } = await item(a);
    const current = String((await a.c.patch(`items/${id}`, { title: 'moved on' })).headers.etag);
    await a.events.take();
    const before = await fingerprint(t.services.db);
    const attempts = [
      () => a.c.patch(`items/${id}`, { title: 'lost update' }, { 'if-match': stale }),
      () => a.c.patch(`items/${id}`, { tags: ['x'] }, { 'if-match': `W/${current}` }),
      () => a.c.post(`items/${id}/toggle`, undefined, { 'if-match': stale }),
      () => a.c.post(`items/${id}/archive`, undefined, { 'if-match': current.slice(1, -1) }),
      () => a.c.post(`items/${id}/unarchive`, undefined, { 'if-match': 'garbage' }),
      () => a.c.delete(`items/${id}`, { 'if-match': stale }),
    ];
    for (const attempt of attempts) expectError(await attempt(), 412, 'precondition_failed');
    expect(await fingerprint(t.services.db)).toEqual(before);
    expect(await a.events.take()).toEqual([]);
    expectError(await a.c.post(`items/${UNKNOWN_ID}/toggle`, undefined, { 'if-match': stale }), 404, 'not_found');
  });

  it('of two changes sent with the same If-Match at once, exactly one runs', async () => {
    const a = await actor(t);
    const { id, etag } = await item(a);
    const answers = await Promise.all([
      a.c.post(`items/${id}/toggle`, undefined, { 'if-match': etag }),
      a.c.patch(`items/${id}`, { title: 'racing' }, { 'if-match': etag }),
      a.c.post(`items/${id}/toggle`, undefined, { 'if-match': etag }),
    ]);
    expect(answers.map((r) => r.status).sort()).toEqual([200, 412, 412]);
  });
});
