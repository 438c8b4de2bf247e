import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../helpers/dialects.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { PNG, tempFiles } from '../helpers/attachments.js';
import { encodeForm, type FormPart } from '../helpers/voice.js';
import { csrfOf, signedInBrowser, type WebClient } from '../helpers/web-client.js';

/*
 * Contract "Attachments" in the web app, through HTTP: the upload form (CSRF token first, the file
 * streamed), the session's download with the safe headers, delete, the capture box's file and the
 * share target, which posts without a token and is taken only from this site or from no site.
 */
describe.each(DIALECTS)('web attachments (%s)', (dialect) => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp(dialect);
  });
  afterAll(async () => t?.close());

  /** A multipart form posted with the stand-in browser's cookies. */
  async function postForm(web: WebClient, url: string, parts: FormPart[], headers: Record<string, string> = {}) {
    const { body, contentType } = await encodeForm(parts);
    const cookie = [...web.jar].map(([k, v]) => `${k}=${v}`).join('; ');
    return t.app.inject({ method: 'POST', url, headers: { cookie, 'content-type': contentType, accept: 'text/html', ...headers }, payload: body });
  }

  async function withItem(text = 'receipt') {
    const browser = await signedInBrowser(t);
    const u = await t.services.users.me(browser.userId);
    const { item } = await t.services.capture.capture({ id: u.id, email: u.email, plan: u.plan, timezone: u.timezone, keyId: null }, { text, parse: true });
    const page = await browser.web.get(`/inbox/items/${item.id}`);
    return { ...browser, item, csrf: csrfOf(page.body), page };
  }

  const attachmentsOf = async (userId: string, id: string) => (await t.services.items.get(userId, id)).attachments;

  it('uploads with the plain form, lists it on the page, serves it with the safe headers and deletes it', async () => {
    const { web, item, csrf, userId } = await withItem();
    const res = await postForm(web, `/inbox/items/${item.id}/attachments`, [
      { name: '_csrf', value: csrf },
      { name: 'file', file: PNG, filename: 'photo.png' },
    ]);
    expect(res.statusCode).toBe(303);
    expect(res.headers.location).toBe(`/inbox/items/${item.id}?done=attached#attachments`);
    const [attachment] = await attachmentsOf(userId, item.id);
    expect(attachment).toMatchObject({ filename: 'photo.png', content_type: 'image/png', size: PNG.length });
    const page = await web.get(`/inbox/items/${item.id}?done=attached`);
    expect(page.body).toContain('File added.');
    expect(page.body).toContain(`<img src="/inbox/attachments/${attachment!.id}"`);

    const download = await web.get(`/inbox/attachments/${attachment!.id}`);
    expect(download.status).toBe(200);
    expect(download.headers['content-type']).toBe('image/png');
    expect(download.headers['content-security-policy']).toBe('sandbox');
    expect(download.headers['x-content-type-options']).toBe('nosniff');
    expect(String(download.headers['content-disposition'])).toMatch(/^inline; filename="photo.png"/);
    // Another user's file is not found.
    const other = await signedInBrowser(t);
    expect((await other.web.get(`/inbox/attachments/${attachment!.id}`)).status).toBe(404);

    const removed = await web.submit(`/inbox/items/${item.id}`, `/inbox/attachments/${attachment!.id}/delete`, { item_id: item.id });
    expect(removed.status).toBe(303);
    expect(removed.location).toBe(`/inbox/items/${item.id}?done=file_deleted#attachments`);
    expect(await attachmentsOf(userId, item.id)).toEqual([]);
  });

  it('refuses a form without the CSRF token, or with the token after the file, storing nothing', async () => {
    const { web, item, csrf, userId } = await withItem();
    const none = await postForm(web, `/inbox/items/${item.id}/attachments`, [{ name: 'file', file: PNG, filename: 'a.png' }]);
    expect(none.statusCode).toBe(403);
    const late = await postForm(web, `/inbox/items/${item.id}/attachments`, [
      { name: 'file', file: PNG, filename: 'a.png' },
      { name: '_csrf', value: csrf },
    ]);
    // The token came too late to let the file in: the page says to choose a file, and nothing is kept.
    expect(late.statusCode).toBe(303);
    expect(late.headers.location).toContain('attach_error=no_file');
    expect(await attachmentsOf(userId, item.id)).toEqual([]);
    expect(tempFiles(t)).toEqual([]);
  });

  it('says a file past the plan limit in plain words and stores nothing; the script gets JSON', async () => {
    const { web, item, csrf, userId } = await withItem();
    const big = Buffer.alloc(5 * 1024 * 1024 + 1, 9);
    const res = await postForm(web, `/inbox/items/${item.id}/attachments`, [
      { name: '_csrf', value: csrf },
      { name: 'file', file: big, filename: 'big.bin' },
    ]);
    expect(res.headers.location).toBe(`/inbox/items/${item.id}?attach_error=too_large#attachments`);
    expect((await web.get(res.headers.location as string)).body).toContain('That file is larger than your plan allows');
    const json = await postForm(
      web,
      '/inbox/attach',
      [
        { name: '_csrf', value: csrf },
        { name: 'text', value: 'scan' },
        { name: 'file', file: big, filename: 'big.bin' },
      ],
      { accept: 'application/json' },
    );
    expect(json.statusCode).toBe(413);
    expect(json.json()).toMatchObject({ ok: false, problem: 'too_large' });
    expect(await attachmentsOf(userId, item.id)).toEqual([]);
    expect((await t.services.items.list(userId, { limit: 10 })).items).toHaveLength(1);
    expect(tempFiles(t)).toEqual([]);
  });

  it('the capture box makes an item named by the text, or by the file, with the file', async () => {
    const { web, csrf, userId } = await withItem('first');
    const named = await postForm(web, '/inbox/attach', [
      { name: '_csrf', value: csrf },
      { name: 'text', value: 'whiteboard' },
      { name: 'file', file: PNG, filename: 'board.png' },
    ]);
    expect(named.statusCode).toBe(303);
    const unnamed = await postForm(web, '/inbox/attach', [
      { name: '_csrf', value: csrf },
      { name: 'text', value: '' },
      { name: 'file', file: PNG, filename: 'shot.png' },
    ]);
    expect(unnamed.statusCode).toBe(303);
    const items = (await t.services.items.list(userId, { limit: 10 })).items;
    expect(items.map((i) => [i.title, i.attachments.map((a) => a.filename)]).sort()).toEqual([
      ['first', []],
      ['shot.png', ['shot.png']],
      ['whiteboard', ['board.png']],
    ]);
  });

  it('the share target takes a file without a token only from this site or no site', async () => {
    const { web, userId } = await withItem('first');
    const shared: FormPart[] = [
      { name: 'title', value: 'Opening hours' },
      { name: 'file', file: PNG, filename: 'hours.png' },
    ];
    expect((await postForm(web, '/share', shared, { 'sec-fetch-site': 'cross-site' })).statusCode).toBe(403);
    // A client that says nothing of where it comes from needs the token, as for every form.
    expect((await postForm(web, '/share', shared)).statusCode).toBe(403);
    const ok = await postForm(web, '/share', shared, { 'sec-fetch-site': 'none' });
    expect(ok.statusCode).toBe(303);
    expect(ok.headers.location).toMatch(/^\/inbox\/items\/[0-9a-f-]{36}\?done=attached#attachments$/);
    const items = (await t.services.items.list(userId, { limit: 10 })).items;
    expect(items.map((i) => [i.title, i.attachments.map((a) => a.filename)]).sort()).toEqual([
      ['Opening hours', ['hours.png']],
      ['first', []],
    ]);
    // Text alone is not saved: it goes to the capture box, as the GET share target did.
    const text = await postForm(web, '/share', [{ name: 'text', value: 'read this' }], { 'sec-fetch-site': 'none' });
    expect(text.statusCode).toBe(303);
    expect(text.headers.location).toBe('/share?text=read+this');
    expect(tempFiles(t)).toEqual([]);
  });
});
