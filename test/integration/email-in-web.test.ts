import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../helpers/dialects.js';
import { client, createTestApp, type TestApp } from '../helpers/test-app.js';
import { signedInBrowser, webClient } from '../helpers/web-client.js';

/** The account page's "Email to inbox" card and its rotate action; the reader is not started here. */
describe.each(DIALECTS)('web account page: email to inbox (%s)', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    // Nothing listens on port 9: the card only needs the address pattern.
    t = await createTestApp(dialect, { emailIn: { imapUrl: 'imap://reader:secret@127.0.0.1:9/INBOX', address: 'in+{token}@mail.example.test' } });
    await signedInBrowser(t);
  });
  afterAll(async () => t?.close());

  it('shows the address with a copy button, and a rotate form that works without JavaScript', async () => {
    const { web, userId } = await signedInBrowser(t);
    const address = await t.services.emailIn.address(userId);
    const page = await web.get('/account');
    expect(page.status).toBe(200);
    expect(page.body).toContain(`<input id="email-in-address" type="text" readonly value="${address}"`);
    expect(page.body).toContain('<button type="button" data-copy="email-in-address" hidden>Copy</button>');

    const rotated = await web.submit('/account', '/account/email/rotate');
    expect(rotated.status).toBe(303);
    expect(rotated.location).toBe('/account?done=email#email-in');
    const fresh = await t.services.emailIn.address(userId);
    expect(fresh).not.toBe(address);
    const after = await web.get('/account?done=email');
    expect(after.body).toContain(`value="${fresh}"`);
    expect(after.body).toContain('A new email-in address is ready.');
  });

  it('refuses the rotate form without the CSRF token, and sends signed-out browsers to sign in', async () => {
    const { web, userId } = await signedInBrowser(t);
    const address = await t.services.emailIn.address(userId);
    const forged = await web.postRaw('/account/email/rotate', {});
    expect(forged.status).toBe(403);
    expect(await t.services.emailIn.address(userId)).toBe(address);
    const stranger = await webClient(t.app).postRaw('/account/email/rotate', {});
    expect([303, 403]).toContain(stranger.status);
  });

  it('leaves the card out when email-in is off', async () => {
    const off = await createTestApp(dialect);
    try {
      const { web } = await signedInBrowser(off);
      expect((await web.get('/account')).body).not.toContain('email-in-address');
    } finally {
      await off.close();
    }
  });

  it('GET /api/v1/me/email needs a key with read', async () => {
    expect((await client(t.app).get('me/email')).status).toBe(401);
  });
});
