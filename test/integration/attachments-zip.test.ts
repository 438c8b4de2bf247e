import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ZipFile } from 'yazl';
import { DIALECTS } from '../helpers/dialects.js';
import { actor, capture, expectError, ok } from '../helpers/items.js';
import { createTestApp, type JsonBody, type Response, type TestApp } from '../helpers/test-app.js';
import { isStored, PNG, tempFiles, uploadFile } from '../helpers/attachments.js';

const MIB = 1024 * 1024;

async function zipOf(entries: Array<[string, Buffer]>): Promise<Buffer> {
  const zip = new ZipFile();
  for (const [name, bytes] of entries) zip.addBuffer(bytes, name);
  zip.end();
  const chunks: Buffer[] = [];
  for await (const chunk of zip.outputStream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/** yazl refuses bad names, as it should: the test writes a good one and swaps it for a bad one of the same length. */
const renamed = (zip: Buffer, from: string, to: string): Buffer => {
  let text = zip.toString('latin1');
  text = text.split(from).join(to);
  return Buffer.from(text, 'latin1');
};

describe.each(DIALECTS)('export format=zip and its import (%s)', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(dialect);
  });
  afterAll(async () => {
    await t?.close();
  });

  async function importZip(token: string, body: Buffer): Promise<Response<JsonBody>> {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/v1/import',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/zip' },
      payload: body,
    });
    return { status: res.statusCode, body: res.body ? JSON.parse(res.body) : undefined, headers: res.headers, text: res.body };
  }

  it('exports the document and every file once, and a zip import restores items with their attachments', async () => {
    const a = await actor(t);
    const item = await capture(a.c, 'with files');
    const file = ok(await uploadFile(t.app, a.user.token, item.id as string, PNG, 'photo.png'), 201).attachment;
    ok(await uploadFile(t.app, a.user.token, item.id as string, PNG, 'copy.png'), 201);
    const res = await t.app.inject({ method: 'GET', url: '/api/v1/export?format=zip', headers: { authorization: `Bearer ${a.user.token}` } });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/zip');
    expect(res.headers['content-disposition']).toMatch(/attachment; filename="capture-inbox-.*\.zip"/);
    const zip = res.rawPayload;
    expect(zip.toString('latin1')).toContain(`files/${file.sha256}`);

    // Another user imports it: the items come with their files.
    const b = await actor(t);
    const result = ok(await importZip(b.user.token, zip));
    expect(result.imported.items).toBe(1);
    const imported = ok(await b.c.get(`items/${item.id}`));
    expect(imported.attachments.map((f: JsonBody) => [f.filename, f.sha256])).toEqual([
      ['photo.png', file.sha256],
      ['copy.png', file.sha256],
    ]);
    const download = await t.app.inject({
      method: 'GET',
      url: `/api/v1/attachments/${imported.attachments[0].id}`,
      headers: { authorization: `Bearer ${b.user.token}` },
    });
    expect(download.rawPayload.equals(PNG)).toBe(true);
    // A second import finds the item there and adds no files twice.
    ok(await importZip(b.user.token, zip));
    expect(ok(await b.c.get(`items/${item.id}`)).attachments).toHaveLength(2);
    expect(tempFiles(t)).toEqual([]);
  });

  it('refuses a zip with a `..` or absolute entry name with 400, importing nothing', async () => {
    const a = await actor(t);
    const document = await zipExportOf(a.user.token);
    for (const bad of ['../evil.txt', '/etc/evil.t']) {
      const good = bad.replace(/[./]/g, 'a');
      const zip = renamed(
        await zipOf([
          ['export.json', document],
          [good, Buffer.from('x')],
        ]),
        good,
        bad,
      );
      const res = await importZip(a.user.token, zip);
      expectError(res, 400, 'bad_request');
      expect(res.body.message).toMatch(/name|invalid relative path|absolute path/);
    }
    expect(ok(await a.c.get('items')).items).toHaveLength(0);
    expect(tempFiles(t)).toEqual([]);
  });

  it('refuses an entry that inflates past 25 MiB with 400, importing nothing', async () => {
    const a = await actor(t);
    const document = await zipExportOf(a.user.token);
    const bomb = await zipOf([
      ['export.json', document],
      ['files/bomb', Buffer.alloc(25 * MIB + 1)],
    ]);
    expect(bomb.length).toBeLessThan(MIB);
    expectError(await importZip(a.user.token, bomb), 400, 'bad_request');
    expect(ok(await a.c.get('items')).items).toHaveLength(0);
  });

  it('refuses a file whose bytes are not what the document names', async () => {
    const a = await actor(t);
    const item = await capture(a.c, 'x');
    const file = ok(await uploadFile(t.app, a.user.token, item.id as string, Buffer.from('real'), 'x.txt'), 201).attachment;
    const res = await t.app.inject({ method: 'GET', url: '/api/v1/export?format=zip', headers: { authorization: `Bearer ${a.user.token}` } });
    const b = await actor(t);
    const json = (await zipEntries(res.rawPayload))['export.json']!;
    const forged = await zipOf([
      ['export.json', json],
      [`files/${file.sha256}`, Buffer.from('fake')],
    ]);
    expectError(await importZip(b.user.token, forged), 400, 'bad_request');
    expect(ok(await b.c.get('items')).items).toHaveLength(0);
    expect(isStored(t, file.sha256)).toBe(true);
  });

  /** A one-item export document of a fresh user, as bytes. */
  async function zipExportOf(_token: string): Promise<Buffer> {
    const other = await actor(t);
    await capture(other.c, 'an item');
    const res = await t.app.inject({ method: 'GET', url: '/api/v1/export', headers: { authorization: `Bearer ${other.user.token}` } });
    const doc = JSON.parse(res.body);
    // New ids, so the importing user gets the item.
    doc.items = doc.items.map((i: JsonBody) => ({ ...i, id: crypto.randomUUID() }));
    return Buffer.from(JSON.stringify(doc));
  }
});

async function zipEntries(zip: Buffer): Promise<Record<string, Buffer>> {
  const yauzl = await import('yauzl');
  const file = await yauzl.fromBufferPromise(zip, { lazyEntries: true });
  const out: Record<string, Buffer> = {};
  for await (const entry of file.eachEntry()) {
    const chunks: Buffer[] = [];
    for await (const chunk of await file.openReadStreamPromise(entry)) chunks.push(chunk as Buffer);
    out[entry.fileName] = Buffer.concat(chunks);
  }
  return out;
}
