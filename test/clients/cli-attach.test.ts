import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient } from '../../packages/sdk/src/index.js';
import { DIALECTS } from '../helpers/dialects.js';
import { createUser, type TestUser } from '../helpers/test-app.js';
import { PNG } from '../helpers/attachments.js';
import { makeHome, runCin } from './cin-process.js';
import { startListeningApp, type ListeningApp } from './listening-app.js';

/** The SDK's attachments namespace and `cin attach` / `cin get-attachment` against a listening server. */
describe.each(DIALECTS)('attachments from the SDK and cin (%s)', (dialect) => {
  let t: ListeningApp;
  let user: TestUser;
  const home = makeHome();
  beforeAll(async () => {
    t = await startListeningApp(dialect);
    user = await createUser(t);
  });
  afterAll(async () => {
    await t?.close();
    home.dispose();
  });

  it('uploads from a path, a Buffer and a stream, downloads with the name, deletes', async () => {
    const inbox = createClient({ baseUrl: t.baseUrl, token: user.token });
    const item = await inbox.items.capture({ text: 'files from the sdk' });
    const path = join(home.dir, 'photo.png');
    writeFileSync(path, PNG);
    const fromPath = await inbox.attachments.upload(item.id, { path });
    expect(fromPath).toMatchObject({ filename: 'photo.png', content_type: 'image/png', size: PNG.length });
    const fromBuffer = await inbox.attachments.upload(item.id, Buffer.from('plain words\n'), { filename: 'note.txt' });
    expect(fromBuffer.content_type).toBe('text/plain; charset=utf-8');
    async function* chunks() {
      yield new TextEncoder().encode('streamed ');
      yield new TextEncoder().encode('bytes');
    }
    const fromStream = await inbox.attachments.upload(item.id, chunks(), { filename: 'Grüße.txt' });
    expect(fromStream.size).toBe('streamed bytes'.length);
    const got = await inbox.attachments.download(fromStream.id);
    expect(await got.blob.text()).toBe('streamed bytes');
    expect(got.filename).toBe('Grüße.txt');
    expect((await inbox.items.get(item.id)).attachments).toHaveLength(3);
    await inbox.attachments.delete(fromBuffer.id);
    expect((await inbox.items.get(item.id)).attachments.map((a) => a.id)).toEqual([fromPath.id, fromStream.id]);
  });

  it('cin attach ID FILE, then cin get-attachment ID -o FILE gives the same bytes back', async () => {
    const env = { CAPTURE_INBOX_URL: t.baseUrl, CAPTURE_INBOX_TOKEN: user.token };
    const inbox = createClient({ baseUrl: t.baseUrl, token: user.token });
    const item = await inbox.items.capture({ text: 'files from cin' });
    const path = join(home.dir, 'receipt.png');
    writeFileSync(path, PNG);
    const attached = await runCin(home.dir, ['attach', item.id, path, '--json'], { env });
    expect(attached.code, attached.stderr).toBe(0);
    const attachment = JSON.parse(attached.stdout);
    expect(attachment).toMatchObject({ item_id: item.id, filename: 'receipt.png', size: PNG.length });
    const out = join(home.dir, 'back.png');
    const fetched = await runCin(home.dir, ['get-attachment', attachment.id, '-o', out], { env });
    expect(fetched.code, fetched.stderr).toBe(0);
    expect(readFileSync(out).equals(PNG)).toBe(true);
    const missing = await runCin(home.dir, ['attach', item.id, join(home.dir, 'nope.bin')], { env });
    expect(missing.code).not.toBe(0);
  });
});
