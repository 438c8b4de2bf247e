import type { Page } from 'playwright-core';
import { describe, expect, it, vi } from 'vitest';
import { iconPng } from '../../src/web/icons.js';
import { seriousViolations } from './axe.js';
import { sessionUserOf, useBrowserApp } from './browser-app.js';
import { DESKTOP, NO_SCRIPT, PHONE, screenshot } from './chromium.js';
import { CHROMIUM, lacking } from '../helpers/system-programs.js';

/*
 * Contract "Attachments" in the web app: the item page lists files (thumbnails for images) with
 * download links and a delete that asks in the page; a plain form uploads without the script; with
 * it, a file dropped or an image pasted goes onto the item, or, on the capture box, onto a new item;
 * the share target takes a file from the phone's share sheet.
 */
vi.setConfig({ testTimeout: 90_000 });

const PICTURE = iconPng(192);

/** Drops (or pastes) a file made in the page on `selector`, as a drag from the desktop or a clipboard would. */
async function giveFile(page: Page, selector: string, how: 'drop' | 'paste', name: string, bytes: Buffer, type: string): Promise<void> {
  // Runs in the page (a string: the tests' TypeScript has no DOM types).
  const inPage = `(({ selector, how, name, data, type }) => {
    const file = new File([Uint8Array.from(atob(data), (c) => c.charCodeAt(0))], name, { type });
    const transfer = new DataTransfer();
    transfer.items.add(file);
    const target = document.querySelector(selector);
    if (how === 'paste') target.dispatchEvent(new ClipboardEvent('paste', { clipboardData: transfer, bubbles: true, cancelable: true }));
    else {
      target.dispatchEvent(new DragEvent('dragover', { dataTransfer: transfer, bubbles: true, cancelable: true }));
      target.dispatchEvent(new DragEvent('drop', { dataTransfer: transfer, bubbles: true, cancelable: true }));
    }
  })(${JSON.stringify({ selector, how, name, data: bytes.toString('base64'), type })})`;
  await page.evaluate(inPage);
}

describe.skipIf(lacking(CHROMIUM))('files in the web app (chromium)', () => {
  const t = useBrowserApp();

  const itemsOf = async (userId: string) => (await t.services.items.list(userId, { limit: 100 })).items;

  it('drops a file on the item page, pastes an image, shows thumbnails and deletes a file after asking in the page', async () => {
    const { page, userId } = await t.signedUp();
    const { item } = await t.services.capture.capture(await sessionUserOf(t, userId), { text: 'receipt from the hardware store' });
    await page.goto(`/inbox/items/${item.id}`);
    await page.getByRole('heading', { name: 'Files' }).waitFor();

    await giveFile(page, '#attachments', 'drop', 'receipt.pdf', Buffer.from('%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n'), 'application/pdf');
    await page.getByText('File added.').waitFor();
    await page.getByRole('link', { name: 'receipt.pdf' }).waitFor();
    expect(await page.locator('.attachment .small').first().textContent()).toContain('PDF');

    await giveFile(page, 'body', 'paste', 'image.png', PICTURE, 'image/png');
    await expect.poll(() => page.locator('.attachment').count()).toBe(2);
    const thumb = page.locator('.attachment-thumb img');
    await thumb.waitFor();
    // The thumbnail loads under the page's CSP (img-src 'self') from the download URL.
    await expect.poll(() => thumb.evaluate((img) => (img as unknown as { naturalWidth: number }).naturalWidth)).toBe(192);
    expect((await itemsOf(userId))[0]!.attachments.map((a) => a.content_type).sort()).toEqual(['application/pdf', 'image/png']);
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, 'attachments-item');
    // On a phone each row's Delete sits on the row's line, at its right, beside a thumbnail as beside a PDF's name (issue 47).
    await page.setViewportSize(PHONE);
    for (const name of ['receipt.pdf', 'image.png']) {
      const line = page.locator('.attachment', { hasText: name });
      const [row, info, button] = await Promise.all(
        [line, line.locator('.attachment-info'), line.getByRole('button', { name: 'Delete' })].map((l) => l.boundingBox()),
      );
      // Centred on the row's one line (a wrapped button sits below the thumbnail, far from the middle).
      expect(Math.abs(button!.y + button!.height / 2 - (row!.y + row!.height / 2)), name).toBeLessThan(4);
      expect(button!.x, name).toBeGreaterThan(info!.x);
      expect(row!.x + row!.width - (button!.x + button!.width), name).toBeLessThan(4);
    }
    await page.setViewportSize(DESKTOP);

    // Delete asks in the page first; Cancel keeps the file, Yes deletes it.
    const row = page.locator('.attachment', { hasText: 'receipt.pdf' });
    await row.getByRole('button', { name: 'Delete' }).click();
    await page.getByRole('button', { name: 'Cancel' }).click();
    expect(await page.locator('.attachment').count()).toBe(2);
    await row.getByRole('button', { name: 'Delete' }).click();
    await page.getByRole('button', { name: 'Yes, delete' }).click();
    await page.getByText('File deleted.').waitFor();
    expect((await itemsOf(userId))[0]!.attachments.map((a) => a.filename)).toEqual(['image.png']);
  });

  it('drops a file on the capture box: a new item named by the typed text, or by the file, with the file', async () => {
    const { page, userId } = await t.signedUp();
    await page.goto('/inbox');
    await page.getByLabel('Capture a note or todo').fill('whiteboard from the planning meeting');
    await giveFile(page, 'form.capture', 'drop', 'board.png', PICTURE, 'image/png');
    await page.getByText('File added.').waitFor();
    await page.getByRole('heading', { name: 'whiteboard from the planning meeting' }).waitFor();

    await page.goto('/inbox');
    await giveFile(page, 'form.capture', 'paste', 'screenshot.png', PICTURE, 'image/png');
    await page.getByText('File added.').waitFor();
    const items = await itemsOf(userId);
    expect(items.map((i) => [i.title, i.attachments.map((a) => a.filename)]).sort()).toEqual([
      ['screenshot.png', ['screenshot.png']],
      ['whiteboard from the planning meeting', ['board.png']],
    ]);
  });

  it('says in the page when a file is too large, and stores nothing', async () => {
    const { page, userId } = await t.signedUp();
    const { item } = await t.services.capture.capture(await sessionUserOf(t, userId), { text: 'big scan' });
    await page.goto(`/inbox/items/${item.id}`);
    await giveFile(page, '#attachments', 'drop', 'scan.bin', Buffer.alloc(5 * 1024 * 1024 + 10, 1), 'application/octet-stream');
    await page.getByText(/larger than your plan allows/).waitFor();
    expect((await itemsOf(userId))[0]!.attachments).toEqual([]);
  });

  it('uploads with the plain form when the script is off', async () => {
    const { userId, email } = await t.signedUp();
    const page = await t.signedInPage(email, { ...NO_SCRIPT, viewport: PHONE });
    try {
      const { item } = await t.services.capture.capture(await sessionUserOf(t, userId), { text: 'no script here' });
      await page.goto(`/inbox/items/${item.id}`);
      await page.getByLabel('Add a file').setInputFiles({ name: 'note.txt', mimeType: 'text/plain', buffer: Buffer.from('plain words\n') });
      await page.getByRole('button', { name: 'Upload' }).click();
      await page.getByText('File added.').waitFor();
      await page.getByRole('link', { name: 'note.txt' }).waitFor();
    } finally {
      await page.context().close();
    }
    expect((await itemsOf(userId))[0]!.attachments.map((a) => [a.filename, a.content_type])).toEqual([['note.txt', 'text/plain; charset=utf-8']]);
  });

  it('takes an image from the phone share sheet (share target POST) onto a new item', async () => {
    const { page, userId } = await t.signedUp(PHONE);
    const manifest = await (await page.request.get('/manifest.webmanifest')).json();
    expect(manifest.share_target).toMatchObject({ method: 'POST', enctype: 'multipart/form-data' });
    // What the share sheet sends: the manifest's fields, no CSRF token, as a navigation of this app.
    await page.evaluate(`(() => {
      const form = document.createElement('form');
      form.method = 'post';
      form.action = '/share';
      form.enctype = 'multipart/form-data';
      form.innerHTML = '<input name="title" value="Shop opening hours"><input type="file" name="file">';
      form.id = 'share-sheet';
      document.body.append(form);
    })()`);
    await page.locator('#share-sheet input[type=file]').setInputFiles({ name: 'hours.png', mimeType: 'image/png', buffer: PICTURE });
    await page.locator('#share-sheet').evaluate((form) => (form as unknown as { submit(): void }).submit());
    await page.getByText('File added.').waitFor();
    await page.getByRole('heading', { name: 'Shop opening hours' }).waitFor();
    await page.locator('.attachment-thumb img').waitFor();
    await page.screenshot({ path: 'docs/screenshots/attachments-shared-phone.png', fullPage: true });
    const items = await itemsOf(userId);
    expect(items.map((i) => [i.title, i.attachments.map((a) => a.filename)])).toEqual([['Shop opening hours', ['hours.png']]]);
  });
});
