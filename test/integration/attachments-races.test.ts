import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../helpers/dialects.js';
import { actor, capture, ok, type Actor } from '../helpers/items.js';
import { client, createTestApp, type TestApp } from '../helpers/test-app.js';
import { isStored, tempFiles, uploadFile } from '../helpers/attachments.js';

/*
 * Issue 50's "two processes deleting the last two references at once": two app instances on one
 * database and one FILES_DIR (as two server processes share them), each deleting one of the last
 * attachments of a content at the same moment. The bytes must go exactly when no attachment uses
 * them (decision 0084), never while one still does.
 */

const ROUNDS = 8;
const sha = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

describe.each(DIALECTS)('attachments shared by two processes (%s)', (dialect) => {
  let one: TestApp;
  let two: TestApp;

  beforeAll(async () => {
    one = await createTestApp(dialect);
    two = await createTestApp(dialect, { db: one.db, attachments: { filesDir: one.services.attachments.filesDir } });
  });
  afterAll(async () => {
    await two?.close();
    await one?.close();
  });

  const blobRow = (sha256: string) => one.services.db.selectFrom('attachment_blobs').select('sha256').where('sha256', '=', sha256).executeTakeFirst();

  /** `copies` attachments of one fresh content, each on an item of its own. */
  async function shared(a: Actor, round: number, copies: number): Promise<{ bytes: Buffer; ids: string[] }> {
    const bytes = Buffer.from(`content ${dialect} ${round} ${copies} ${Math.random()}\n`.repeat(50));
    const ids: string[] = [];
    for (let i = 0; i < copies; i += 1) {
      const item = await capture(a.c, `holder ${round}.${i}`);
      ids.push(ok(await uploadFile(one.app, a.user.token, item.id as string, bytes, `copy-${i}.txt`), 201).attachment.id);
    }
    return { bytes, ids };
  }

  it('removes the bytes exactly once when each process deletes one of the last two attachments at once', async () => {
    const a = await actor(one, 'pro');
    const viaTwo = client(two.app, a.user.token);
    for (let round = 0; round < ROUNDS; round += 1) {
      const { bytes, ids } = await shared(a, round, 2);
      expect(isStored(one, sha(bytes))).toBe(true);
      const answers = await Promise.all([a.c.delete(`attachments/${ids[0]}`), viaTwo.delete(`attachments/${ids[1]}`)]);
      expect(answers.map((r) => [r.status, r.body])).toEqual([
        [200, { ok: true }],
        [200, { ok: true }],
      ]);
      expect(isStored(one, sha(bytes))).toBe(false);
      expect(await blobRow(sha(bytes))).toBeUndefined();
    }
    expect(tempFiles(one)).toEqual([]);
    expect(ok(await a.c.get('me')).storage.used).toBe(0);
  });

  it('keeps the bytes while a third attachment still uses them, and removes them with it', async () => {
    const a = await actor(one, 'pro');
    const viaTwo = client(two.app, a.user.token);
    for (let round = 0; round < ROUNDS; round += 1) {
      const { bytes, ids } = await shared(a, round, 3);
      const answers = await Promise.all([a.c.delete(`attachments/${ids[0]}`), viaTwo.delete(`attachments/${ids[1]}`)]);
      expect(answers.map((r) => r.status)).toEqual([200, 200]);
      expect(isStored(one, sha(bytes))).toBe(true);
      const download = await two.app.inject({ method: 'GET', url: `/api/v1/attachments/${ids[2]}`, headers: { authorization: `Bearer ${a.user.token}` } });
      expect(download.statusCode).toBe(200);
      expect(download.rawPayload.equals(bytes)).toBe(true);
      expect(ok(await viaTwo.delete(`attachments/${ids[2]}`))).toEqual({ ok: true });
      expect(isStored(one, sha(bytes))).toBe(false);
    }
    expect(tempFiles(one)).toEqual([]);
  });

  it('never loses the bytes of an upload that races the delete of the last attachment with the same content', async () => {
    const a = await actor(one, 'pro');
    const viaTwo = client(two.app, a.user.token);
    for (let round = 0; round < ROUNDS; round += 1) {
      const { bytes, ids } = await shared(a, round, 1);
      const item = await capture(a.c, `racer ${round}`);
      const [deleted, uploaded] = await Promise.all([
        viaTwo.delete(`attachments/${ids[0]}`),
        uploadFile(one.app, a.user.token, item.id as string, bytes, 'again.txt'),
      ]);
      expect(deleted.status).toBe(200);
      const { attachment } = ok(uploaded, 201);
      // Whichever came first, the new attachment's bytes are there and served whole.
      expect(isStored(one, sha(bytes))).toBe(true);
      expect(await blobRow(sha(bytes))).toBeDefined();
      const download = await one.app.inject({
        method: 'GET',
        url: `/api/v1/attachments/${attachment.id}`,
        headers: { authorization: `Bearer ${a.user.token}` },
      });
      expect(download.rawPayload.equals(bytes)).toBe(true);
      expect(ok(await a.c.delete(`attachments/${attachment.id}`))).toEqual({ ok: true });
      expect(isStored(one, sha(bytes))).toBe(false);
    }
    expect(tempFiles(one)).toEqual([]);
  });
});

/*
 * Issue 50's "1,000 files on one item": the contract sets no count, only the file size and the
 * storage quota, so the 1,000th is taken like the first. The item carries its list in its row
 * (attachments_json), so reading it costs the same number of queries with 1,000 files as with one.
 */
describe.each(DIALECTS)('1,000 files on one item (%s)', (dialect) => {
  const FILES = 1000;
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp(dialect);
  });
  afterAll(async () => {
    await t?.close();
  });

  it('takes every file, and the item, its ETag, GET and the list stay right', { timeout: 300_000 }, async () => {
    const a = await actor(t, 'pro');
    const item = await capture(a.c, 'a thousand files');
    const other = await capture(a.c, 'a neighbour');
    t.queries.reset();
    await a.c.get(`items/${item.id}`);
    const queriesWithNone = t.queries.count;

    const ids: string[] = [];
    let etag = String((await a.c.get(`items/${item.id}`)).headers.etag);
    for (let i = 0; i < FILES; i += 1) {
      t.clock.advance(1);
      const res = await uploadFile(t.app, a.user.token, item.id as string, Buffer.from(`file number ${i}\n`), `file-${i}.txt`);
      ids.push(ok(res, 201).attachment.id);
      if (i === 0 || i === FILES - 1) {
        const now = await a.c.get(`items/${item.id}`);
        expect(now.headers.etag).not.toBe(etag);
        etag = String(now.headers.etag);
      }
    }

    t.queries.reset();
    const got = await a.c.get(`items/${item.id}`);
    expect(t.queries.count).toBe(queriesWithNone);
    expect(got.body.attachments.map((x: { id: string }) => x.id)).toEqual(ids);
    expect(got.body.attachments[FILES - 1].filename).toBe(`file-${FILES - 1}.txt`);
    expect(got.headers.etag).toBe(etag);
    const again = await a.c.get(`items/${item.id}`, { 'if-none-match': etag });
    expect(again.status).toBe(304);

    const listed = ok(await a.c.get('items')).items as { id: string; attachments: unknown[] }[];
    expect(listed.find((i) => i.id === item.id)?.attachments).toHaveLength(FILES);
    expect(listed.find((i) => i.id === other.id)?.attachments).toEqual([]);

    const me = ok(await a.c.get('me'));
    const expected = Array.from({ length: FILES }, (_, i) => `file number ${i}\n`.length).reduce((s, n) => s + n, 0);
    expect(me.storage.used).toBe(expected);
    expect((await t.app.inject({ method: 'GET', url: '/readyz' })).statusCode).toBe(200);

    // Deleting the item deletes its 1,000 attachments; the collector then removes their bytes.
    expect((await a.c.delete(`items/${item.id}`)).status).toBe(204);
    await t.services.attachments.collectGarbage();
    expect(ok(await a.c.get('me')).storage.used).toBe(0);
    expect(tempFiles(t)).toEqual([]);
  });
});
