import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../helpers/dialects.js';
import { actor, capture, expectError, ok, UNKNOWN_ID } from '../helpers/items.js';
import { client, createTestApp, type TestApp } from '../helpers/test-app.js';
import { isStored, PNG, tempFiles, uploadFile } from '../helpers/attachments.js';

const MIB = 1024 * 1024;
const sha = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

describe.each(DIALECTS)('attachments (%s)', (dialect) => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp(dialect);
  });
  afterAll(async () => {
    await t?.close();
  });

  describe('POST /api/v1/items/{id}/attachments', () => {
    it('stores the file and the item shows it, oldest first, with a new ETag and updated_at', async () => {
      const a = await actor(t);
      const item = await capture(a.c, 'receipt');
      const before = await a.c.get(`items/${item.id}`);
      t.clock.advance(1000);
      const res = await uploadFile(t.app, a.user.token, item.id as string, PNG, 'photo.png');
      const { attachment } = ok(res, 201);
      expect(attachment).toEqual({
        id: expect.any(String),
        item_id: item.id,
        filename: 'photo.png',
        content_type: 'image/png',
        size: PNG.length,
        sha256: sha(PNG),
        created_at: expect.any(String),
      });
      t.clock.advance(1000);
      const second = ok(await uploadFile(t.app, a.user.token, item.id as string, Buffer.from('hello\n'), 'note.txt'), 201).attachment;
      const after = await a.c.get(`items/${item.id}`);
      expect(after.body.attachments).toEqual([attachment, second]);
      expect(after.headers.etag).not.toBe(before.headers.etag);
      expect(after.body.updated_at).not.toBe(before.body.updated_at);
      const listed = ok(await a.c.get('items')).items.find((i: { id: string }) => i.id === item.id);
      expect(listed.attachments).toHaveLength(2);
      expect(isStored(t, attachment.sha256)).toBe(true);
      expect(await a.events.names()).toContain('item.updated');
    });

    it('reads the type from the bytes: a PNG named .html is a PNG, an HTML page is plain text, unknown bytes are octet-stream', async () => {
      const a = await actor(t);
      const item = await capture(a.c, 'types');
      const png = ok(await uploadFile(t.app, a.user.token, item.id as string, PNG, 'evil.html'), 201).attachment;
      const html = ok(
        await uploadFile(t.app, a.user.token, item.id as string, Buffer.from('<html><script>alert(1)</script></html>'), 'page.html'),
        201,
      ).attachment;
      const svg = ok(
        await uploadFile(
          t.app,
          a.user.token,
          item.id as string,
          Buffer.from('<?xml version="1.0"?><svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>'),
          'x.svg',
        ),
        201,
      ).attachment;
      const bin = ok(await uploadFile(t.app, a.user.token, item.id as string, Buffer.from([0, 1, 2, 3, 250, 251]), 'blob.bin'), 201).attachment;
      expect([png.content_type, html.content_type, svg.content_type, bin.content_type]).toEqual([
        'image/png',
        'text/plain; charset=utf-8',
        'application/xml',
        'application/octet-stream',
      ]);
    });

    it('keeps the base name without control characters, at most 255 characters', async () => {
      const a = await actor(t);
      const item = await capture(a.c, 'names');
      const traversal = ok(await uploadFile(t.app, a.user.token, item.id as string, PNG, '../../etc/pa\u0000ss\u0007wd'), 201).attachment;
      expect(traversal.filename).toBe('passwd');
      const windows = ok(await uploadFile(t.app, a.user.token, item.id as string, PNG, 'C:\\Users\\me\\Résumé.png'), 201).attachment;
      expect(windows.filename).toBe('Résumé.png');
      const long = ok(await uploadFile(t.app, a.user.token, item.id as string, PNG, `${'x'.repeat(300)}.png`), 201).attachment;
      expect(long.filename).toHaveLength(255);
    });

    it('answers 404 for an unknown item or another user’s, and stores nothing', async () => {
      const a = await actor(t);
      const b = await actor(t);
      const theirs = await capture(b.c, 'not yours');
      expectError(await uploadFile(t.app, a.user.token, theirs.id as string, PNG, 'a.png'), 404, 'not_found');
      expectError(await uploadFile(t.app, a.user.token, UNKNOWN_ID, PNG, 'a.png'), 404, 'not_found');
      expect(tempFiles(t)).toEqual([]);
    });

    it('answers 415 to a body that is not multipart/form-data and 400 to a form without the file', async () => {
      const a = await actor(t);
      const item = await capture(a.c, 'forms');
      expectError(await a.c.post(`items/${item.id}/attachments`, { file: 'x' }), 415, 'unsupported_media_type');
      const res = await uploadFile(t.app, a.user.token, item.id as string, PNG, 'a.png');
      expect(res.status).toBe(201);
      const { encodeForm } = await import('../helpers/voice.js');
      const form = await encodeForm([{ name: 'other', value: 'x' }]);
      const none = await t.app.inject({
        method: 'POST',
        url: `/api/v1/items/${item.id}/attachments`,
        headers: { authorization: `Bearer ${a.user.token}`, 'content-type': form.contentType },
        payload: form.body,
      });
      expect(none.statusCode).toBe(400);
    });

    it('refuses a file past the plan limit with 413 payload_too_large and leaves nothing behind', async () => {
      const free = await actor(t, 'free');
      const item = await capture(free.c, 'big');
      const big = Buffer.alloc(5 * MIB + 1, 7);
      expectError(await uploadFile(t.app, free.user.token, item.id as string, big, 'big.bin'), 413, 'payload_too_large');
      expect(tempFiles(t)).toEqual([]);
      expect(isStored(t, sha(big))).toBe(false);
      expect(ok(await free.c.get(`items/${item.id}`)).attachments).toEqual([]);
      // Exactly the limit is fine.
      ok(await uploadFile(t.app, free.user.token, item.id as string, Buffer.alloc(5 * MIB, 7), 'fits.bin'), 201);
    });

    it('takes 25 MiB from a Pro user and refuses one byte more', async () => {
      const pro = await actor(t, 'pro');
      const item = await capture(pro.c, 'pro files');
      expectError(await uploadFile(t.app, pro.user.token, item.id as string, Buffer.alloc(25 * MIB + 1, 1), 'over.bin'), 413, 'payload_too_large');
      const fits = ok(await uploadFile(t.app, pro.user.token, item.id as string, Buffer.alloc(25 * MIB, 1), 'fits.bin'), 201).attachment;
      expect(fits.size).toBe(25 * MIB);
      expect(tempFiles(t)).toEqual([]);
    });

    it('answers 413 storage_quota_exceeded past the plan storage, counting each content once', async () => {
      const a = await actor(t, 'free');
      const item = await capture(a.c, 'quota');
      // 100 MiB less 10 bytes in use, without writing it: a stored content of that size on the item.
      const fake = 'f'.repeat(64);
      await t.services.db
        .insertInto('attachment_blobs')
        .values({ sha256: fake, size: 100 * MIB - 10, created_at: '2026-01-01T00:00:00.000Z' })
        .execute();
      await t.services.db
        .insertInto('attachments')
        .values({
          id: crypto.randomUUID(),
          user_id: a.user.id,
          item_id: item.id as string,
          filename: 'big',
          content_type: 'application/octet-stream',
          size: 100 * MIB - 10,
          sha256: fake,
          created_at: '2026-01-01T00:00:00.000Z',
        })
        .execute();
      const me = ok(await a.c.get('me'));
      expect(me.storage).toEqual({ used: 100 * MIB - 10, limit: 100 * MIB });
      const res = await uploadFile(t.app, a.user.token, item.id as string, Buffer.alloc(11, 1), 'eleven.bin');
      expectError(res, 413, 'storage_quota_exceeded');
      expect(tempFiles(t)).toEqual([]);
      ok(await uploadFile(t.app, a.user.token, item.id as string, Buffer.alloc(10, 1), 'ten.bin'), 201);
      // The same content again takes no more room.
      ok(await uploadFile(t.app, a.user.token, item.id as string, Buffer.alloc(10, 1), 'again.bin'), 201);
      expect(ok(await a.c.get('me')).storage.used).toBe(100 * MIB);
    });

    it('lets a capture-only key attach to what it captured in the last 10 minutes, and nothing else', async () => {
      const a = await actor(t);
      const key = await t.services.keys.mint(a.user.id, 'capture only', { scopes: ['capture'] });
      const capturer = client(t.app, key.token);
      const own = await capture(capturer, 'mine');
      const other = await capture(a.c, 'captured by the write key');
      ok(await uploadFile(t.app, key.token, own.id as string, PNG, 'a.png'), 201);
      expectError(await uploadFile(t.app, key.token, other.id as string, PNG, 'a.png'), 403, 'insufficient_scope');
      t.clock.advance(10 * 60 * 1000 + 1);
      expectError(await uploadFile(t.app, key.token, own.id as string, PNG, 'a.png'), 403, 'insufficient_scope');
      expect(tempFiles(t)).toEqual([]);
    });
  });

  describe('GET /api/v1/attachments/{id}', () => {
    it('answers the bytes with safe headers: inline for images, PDF, audio and text; attachment otherwise', async () => {
      const a = await actor(t);
      const item = await capture(a.c, 'downloads');
      const png = ok(await uploadFile(t.app, a.user.token, item.id as string, PNG, 'Grüße (1).png'), 201).attachment;
      const res = await t.app.inject({ method: 'GET', url: `/api/v1/attachments/${png.id}`, headers: { authorization: `Bearer ${a.user.token}` } });
      expect(res.statusCode).toBe(200);
      expect(res.rawPayload.equals(PNG)).toBe(true);
      expect(res.headers['content-type']).toBe('image/png');
      expect(res.headers['content-length']).toBe(String(PNG.length));
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      expect(res.headers['content-security-policy']).toBe('sandbox');
      expect(res.headers['content-disposition']).toBe(`inline; filename="Gr__e (1).png"; filename*=UTF-8''Gr%C3%BC%C3%9Fe%20%281%29.png`);

      const svg = ok(await uploadFile(t.app, a.user.token, item.id as string, Buffer.from('<?xml version="1.0"?><svg/>'), 'x.svg'), 201).attachment;
      const svgRes = await t.app.inject({ method: 'GET', url: `/api/v1/attachments/${svg.id}`, headers: { authorization: `Bearer ${a.user.token}` } });
      expect(svgRes.headers['content-disposition']).toMatch(/^attachment; /);
      const bin = ok(await uploadFile(t.app, a.user.token, item.id as string, Buffer.from([0, 1, 2]), 'x.exe'), 201).attachment;
      const binRes = await t.app.inject({ method: 'GET', url: `/api/v1/attachments/${bin.id}`, headers: { authorization: `Bearer ${a.user.token}` } });
      expect(binRes.headers['content-type']).toBe('application/octet-stream');
      expect(binRes.headers['content-disposition']).toMatch(/^attachment; /);
    });

    it("answers 404 for another user's attachment and a malformed id", async () => {
      const a = await actor(t);
      const b = await actor(t);
      const item = await capture(a.c, 'private');
      const mine = ok(await uploadFile(t.app, a.user.token, item.id as string, PNG, 'a.png'), 201).attachment;
      expectError(await b.c.get(`attachments/${mine.id}`), 404, 'not_found');
      expectError(await b.c.delete(`attachments/${mine.id}`), 404, 'not_found');
      expectError(await a.c.get('attachments/not-a-uuid'), 404, 'not_found');
      expect(isStored(t, mine.sha256)).toBe(true);
    });
  });

  describe('DELETE /api/v1/attachments/{id}', () => {
    it('removes the attachment, and the bytes with the last attachment that uses them', async () => {
      const a = await actor(t);
      const item = await capture(a.c, 'two copies');
      const bytes = Buffer.from(`shared ${Math.random()}`);
      const first = ok(await uploadFile(t.app, a.user.token, item.id as string, bytes, 'one.txt'), 201).attachment;
      const second = ok(await uploadFile(t.app, a.user.token, item.id as string, bytes, 'two.txt'), 201).attachment;
      const etag = (await a.c.get(`items/${item.id}`)).headers.etag;
      expect(ok(await a.c.delete(`attachments/${first.id}`))).toEqual({ ok: true });
      expect(isStored(t, first.sha256)).toBe(true);
      const after = await a.c.get(`items/${item.id}`);
      expect(after.body.attachments).toEqual([second]);
      expect(after.headers.etag).not.toBe(etag);
      ok(await a.c.delete(`attachments/${second.id}`));
      expect(isStored(t, first.sha256)).toBe(false);
      expectError(await a.c.get(`attachments/${second.id}`), 404, 'not_found');
    });

    it('deleting an item deletes its attachments; the collector removes their bytes', async () => {
      const a = await actor(t);
      const item = await capture(a.c, 'doomed');
      const bytes = Buffer.from(`doomed ${Math.random()}`);
      const file = ok(await uploadFile(t.app, a.user.token, item.id as string, bytes, 'x.txt'), 201).attachment;
      expect((await a.c.delete(`items/${item.id}`)).status).toBe(204);
      expectError(await a.c.get(`attachments/${file.id}`), 404, 'not_found');
      expect(await t.services.attachments.collectGarbage()).toBeGreaterThanOrEqual(1);
      expect(isStored(t, file.sha256)).toBe(false);
      expect(ok(await a.c.get('me')).storage.used).toBe(0);
    });
  });
});
