import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../helpers/dialects.js';
import { actor, capture, expectError, ok } from '../helpers/items.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { isStored, PNG, tempFiles } from '../helpers/attachments.js';
import { encodeForm } from '../helpers/voice.js';

/** One upload's bytes, sent as often as a test likes: a retry sends exactly the same body. */
async function uploadBody(file: Buffer, filename: string) {
  return encodeForm([{ name: 'file', file, filename }]);
}

describe.each(DIALECTS)('attachment upload with an Idempotency-Key (%s)', (dialect) => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp(dialect);
  });
  afterAll(async () => {
    await t?.close();
  });

  const post = (token: string, itemId: string, form: { body: Buffer; contentType: string }, key?: string) =>
    t.app.inject({
      method: 'POST',
      url: `/api/v1/items/${itemId}/attachments`,
      headers: { authorization: `Bearer ${token}`, 'content-type': form.contentType, ...(key ? { 'idempotency-key': key } : {}) },
      payload: form.body,
    });

  it('a retry with the same key and body answers the same attachment and stores nothing twice', async () => {
    const a = await actor(t);
    const item = await capture(a.c, 'receipt');
    const form = await uploadBody(PNG, 'receipt.png');
    const first = await post(a.user.token, item.id as string, form, 'upload-1');
    expect(first.statusCode).toBe(201);
    expect(first.headers['idempotent-replayed']).toBeUndefined();
    expect(await a.events.names()).toEqual(['item.created', 'item.updated']);
    const again = await post(a.user.token, item.id as string, form, 'upload-1');
    expect(again.statusCode).toBe(201);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.json()).toEqual(first.json());
    const stored = ok(await a.c.get(`items/${item.id}`));
    expect(stored.attachments).toEqual([first.json().attachment]);
    expect(ok(await a.c.get('me')).storage.used).toBe(PNG.length);
    expect(await a.events.names()).toEqual([]);
    expect(tempFiles(t)).toEqual([]);
    expect(isStored(t, first.json().attachment.sha256)).toBe(true);
  });

  it('the same key with another file, or on another item, is 422 idempotency_key_reused and stores nothing', async () => {
    const a = await actor(t);
    const item = await capture(a.c, 'one');
    const other = await capture(a.c, 'two');
    expect((await post(a.user.token, item.id as string, await uploadBody(PNG, 'a.png'), 'upload-2')).statusCode).toBe(201);
    const otherBytes = Buffer.from('a different file\n');
    const res = await post(a.user.token, item.id as string, await uploadBody(otherBytes, 'b.txt'), 'upload-2');
    expectError({ status: res.statusCode, body: res.json(), headers: res.headers, text: res.body }, 422, 'idempotency_key_reused');
    const elsewhere = await post(a.user.token, other.id as string, await uploadBody(PNG, 'a.png'), 'upload-2');
    expectError({ status: elsewhere.statusCode, body: elsewhere.json(), headers: elsewhere.headers, text: elsewhere.body }, 422, 'idempotency_key_reused');
    expect(ok(await a.c.get(`items/${item.id}`)).attachments).toHaveLength(1);
    expect(ok(await a.c.get(`items/${other.id}`)).attachments).toEqual([]);
    expect(ok(await a.c.get('me')).storage.used).toBe(PNG.length);
    expect(tempFiles(t)).toEqual([]);
  });

  it('keeps a refusal: a retried 413 answers 413 again without reading into the store', async () => {
    const a = await actor(t, 'free');
    const item = await capture(a.c, 'big');
    const form = await uploadBody(Buffer.alloc(5 * 1024 * 1024 + 1, 3), 'big.bin');
    const first = await post(a.user.token, item.id as string, form, 'upload-3');
    expect(first.statusCode).toBe(413);
    const again = await post(a.user.token, item.id as string, form, 'upload-3');
    expect(again.statusCode).toBe(413);
    expect(again.json().error).toBe('payload_too_large');
    expect(ok(await a.c.get(`items/${item.id}`)).attachments).toEqual([]);
    expect(tempFiles(t)).toEqual([]);
  });

  it('without a key two uploads of one file are two attachments of one stored content', async () => {
    const a = await actor(t);
    const item = await capture(a.c, 'twice');
    const form = await uploadBody(PNG, 'same.png');
    const one = (await post(a.user.token, item.id as string, form)).json().attachment;
    const two = (await post(a.user.token, item.id as string, form)).json().attachment;
    expect(one.id).not.toBe(two.id);
    expect(one.sha256).toBe(two.sha256);
    expect(ok(await a.c.get('me')).storage.used).toBe(PNG.length);
  });
});
