import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../helpers/dialects.js';
import { createUser, type TestUser } from '../helpers/test-app.js';
import { makeHome, runCin } from './cin-process.js';
import { startListeningApp, type ListeningApp } from './listening-app.js';

/** `cin whoami` shows the email-in address (issue 34); the reader is not started here. */
describe.each(DIALECTS)('cin whoami with email-in (%s)', (dialect) => {
  let t: ListeningApp;
  let user: TestUser;
  const home = makeHome();
  beforeAll(async () => {
    t = await startListeningApp(dialect, { emailIn: { imapUrl: 'imap://reader:secret@127.0.0.1:9/INBOX', address: 'in+{token}@mail.example.test' } });
    user = await createUser(t);
  });
  afterAll(async () => {
    await t?.close();
    home.dispose();
  });

  it('prints the address, and leaves it out for a key that cannot read', async () => {
    const env = { CAPTURE_INBOX_URL: t.baseUrl, CAPTURE_INBOX_TOKEN: user.token };
    const address = await t.services.emailIn.address(user.id);
    const plain = await runCin(home.dir, ['whoami'], { env });
    expect(plain.code, plain.stderr).toBe(0);
    expect(plain.stdout).toContain(`email-in  ${address}\n`);
    const json = await runCin(home.dir, ['whoami', '--json'], { env });
    expect(JSON.parse(json.stdout)).toMatchObject({ email: user.email, email_in: address });

    const captureOnly = await t.services.keys.mint(user.id, 'capture only', { scopes: ['capture'] });
    const limited = await runCin(home.dir, ['whoami'], { env: { ...env, CAPTURE_INBOX_TOKEN: captureOnly.token } });
    expect(limited.code, limited.stderr).toBe(0);
    expect(limited.stdout).toContain(`email     ${user.email}`);
    expect(limited.stdout).not.toContain('email-in');
  });
});
