import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clientIdFor } from '../../src/modules/email-in/mail-message.js';
import { DIALECTS } from '../helpers/dialects.js';
import { startDovecot, type Dovecot } from '../helpers/dovecot.js';
import { capturingLogger } from '../helpers/log-capture.js';
import { rawMail, uniqueMessageId, type MailFields } from '../helpers/mail.js';
import { DOVECOT, lacking } from '../helpers/system-programs.js';
import { UNLIMITED, client, createTestApp, createUser, type JsonBody, type TestApp, type TestUser } from '../helpers/test-app.js';
import { waitFor } from '../helpers/wait.js';

/** Contract "Email to inbox": a real dovecot mailbox, read by the reader into items, over HTTP. */

const ADDRESS = 'inbox+{token}@mail.example.test';
/** Short waits so a test is not slow; the behaviour is the production reader's. */
const FAST = { pollMs: 300, standbyMs: 100, backoffMs: [100, 400] as const, recheckDeferredMs: 200 };

interface Reader {
  user: TestUser;
  address: string;
  items(): Promise<JsonBody[]>;
}

describe.skipIf(lacking(DOVECOT))('email to inbox', () => {
  describe.each(DIALECTS)('(%s)', (dialect) => {
    let dovecot: Dovecot;
    let t: TestApp;
    const log = capturingLogger();

    beforeAll(async () => {
      dovecot = await startDovecot();
      t = await createTestApp(dialect, { emailIn: { imapUrl: dovecot.imapUrl, address: ADDRESS }, emailInReader: FAST, logger: log.logger });
      t.services.emailInReader!.start();
    }, 30_000);
    afterAll(async () => {
      await t?.close();
      await dovecot?.destroy();
    });

    async function person(plan: 'free' | 'pro' = 'free'): Promise<Reader> {
      const user = await createUser(t, plan);
      const c = client(t.app, user.token);
      const res = await c.get('me/email');
      expect(res.status).toBe(200);
      return {
        user,
        address: (res.body as { address: string }).address,
        items: async () => ((await c.get('items')).body as { items: JsonBody[] }).items,
      };
    }

    async function send(fields: MailFields): Promise<string> {
      const messageId = fields.messageId ?? uniqueMessageId();
      await dovecot.append(rawMail({ ...fields, messageId }));
      return messageId;
    }

    /** Waits until the message is in the folder, and answers it. */
    async function landed(folder: 'Processed' | 'Rejected', messageId: string, copies = 1) {
      return waitFor(
        async () => {
          const found = (await dovecot.list(folder)).filter((m) => m.messageId === messageId);
          return found.length >= copies ? found : undefined;
        },
        { timeoutMs: 20_000, intervalMs: 100, what: `${messageId} in ${folder}` },
      );
    }

    async function onlyItem(reader: Reader): Promise<JsonBody> {
      const items = await reader.items();
      expect(items).toHaveLength(1);
      return items[0];
    }

    it('answers a secret address of the pattern, the same each time', async () => {
      const a = await person();
      expect(a.address).toMatch(/^inbox\+[a-z0-9]{24}@mail\.example\.test$/);
      const again = await client(t.app, a.user.token).get('me/email');
      expect(again.body).toEqual({ address: a.address });
    });

    it('turns a text mail into an item: the subject read by quick add, the body as notes without the signature', async () => {
      const a = await person();
      const id = await send({ to: a.address, subject: 'Call the plumber @home', body: 'About the kitchen tap.\nIt drips.\n-- \nSam\nSent from my phone' });
      const [moved] = await landed('Processed', id);
      expect(moved!.seen).toBe(true);
      const item = await onlyItem(a);
      expect(item.title).toBe('Call the plumber');
      expect(item.tags).toEqual(['home']);
      expect(item.content_md).toBe('About the kitchen tap.\nIt drips.');
      expect(item.project_id).toBe(a.user.inboxId);
    });

    it('turns an HTML-only mail into Markdown notes', async () => {
      const a = await person();
      const id = await send({
        to: a.address,
        subject: 'Reading list',
        contentType: 'text/html; charset=utf-8',
        body: '<html><head><style>p{color:red}</style></head><body><p>Read <b>this</b> <a href="https://example.test/a">article</a></p><ul><li>one</li><li>two</li></ul></body></html>',
      });
      await landed('Processed', id);
      const item = await onlyItem(a);
      expect(item.title).toBe('Reading list');
      expect(item.content_md).toBe('Read **this** [article](https://example.test/a)\n\n-   one\n-   two');
    });

    it("stores the mail's files as the item's attachments, not listed in the notes", async () => {
      const a = await person();
      const pdf = Buffer.alloc(3000, 7).toString('base64');
      const id = await send({
        to: a.address,
        subject: 'Invoice',
        contentType: 'multipart/mixed; boundary="b1"',
        body: [
          '--b1',
          'Content-Type: text/plain; charset=utf-8',
          '',
          'The invoice for November.',
          '--b1',
          'Content-Type: application/pdf; name="invoice.pdf"',
          'Content-Disposition: attachment; filename="invoice.pdf"',
          'Content-Transfer-Encoding: base64',
          '',
          pdf,
          '--b1',
          'Content-Type: text/csv; name="rows.csv"',
          'Content-Disposition: attachment; filename="rows.csv"',
          '',
          'a,b',
          '--b1--',
        ].join('\n'),
      });
      await landed('Processed', id);
      const item = await onlyItem(a);
      expect(item.content_md).toBe('The invoice for November.');
      expect(item.attachments.map((f: JsonBody) => [f.filename, f.size])).toEqual([
        ['invoice.pdf', 3000],
        ['rows.csv', 3],
      ]);
    });

    it("keeps a forward's matter: no Fwd:/Re: markers in the title, no embedded image, a javascript: link as its text (issue 45)", async () => {
      const a = await person();
      const id = await send({
        to: a.address,
        subject: 'Fwd: RE: AW: Quarterly report',
        contentType: 'text/html; charset=utf-8',
        body: '<p><img src="cid:image001.png@01DA2B3C" alt="logo"><a href="javascript:alert(document.cookie)">Open</a> the <a href="https://example.test/r">report</a></p>',
      });
      await landed('Processed', id);
      const item = await onlyItem(a);
      expect(item.title).toBe('Quarterly report');
      expect(item.content_md).toBe('Open the [report](https://example.test/r)');
    });

    it('cuts a quoted reply and its attribution line', async () => {
      const a = await person();
      const id = await send({
        to: a.address,
        subject: 'Re: the offsite',
        body: 'Yes, book the room.\n\nOn Tue, 24 Nov 2026 at 09:12, Ann Other <ann@sender.test> wrote:\n> Shall we book the room?\n> > earlier\n',
      });
      await landed('Processed', id);
      expect((await onlyItem(a)).content_md).toBe('Yes, book the room.');
    });

    it('makes one item of a Message-ID read twice, also when the first capture committed but the mail was not moved', async () => {
      const a = await person();
      const id = uniqueMessageId();
      await send({ to: a.address, subject: 'Once only', messageId: id });
      await send({ to: a.address, subject: 'Once only', messageId: id });
      await landed('Processed', id, 2);
      expect(await a.items()).toHaveLength(1);

      // A reader that stopped between the commit and the move reads the message again: the client_id replays.
      const crashed = uniqueMessageId();
      const c = client(t.app, a.user.token);
      expect((await c.post('capture', { text: 'Committed before the crash', client_id: clientIdFor(crashed) })).status).toBe(201);
      await send({ to: a.address, subject: 'Committed before the crash', messageId: crashed });
      await landed('Processed', crashed);
      expect(await a.items()).toHaveLength(2);
    });

    it('finds the address in Cc and in Delivered-To', async () => {
      const a = await person();
      const cc = await send({ to: 'someone@else.test', cc: `Me <${a.address.toUpperCase()}>`, subject: 'By Cc' });
      const delivered = await send({ to: 'list@lists.test', deliveredTo: a.address, subject: 'By Delivered-To' });
      await landed('Processed', cc);
      await landed('Processed', delivered);
      expect((await a.items()).map((i: JsonBody) => i.title).sort()).toEqual(['By Cc', 'By Delivered-To']);
    });

    it('moves mail for no known address to Rejected, unread and unanswered, with the reason logged', async () => {
      const id = await send({ to: 'inbox+0123456789abcdef01234567@mail.example.test', subject: 'Who?' });
      const [moved] = await landed('Rejected', id);
      expect(moved!.seen).toBe(false);
      await waitFor(() => log.lines.find((l) => l.msg === 'email-in: message rejected' && l.reason === 'unknown_address'));
      const other = await send({ to: 'nobody@else.test', subject: 'Not for us' });
      await landed('Rejected', other);
    });

    it('rotates the address: the old one stops at once, the new one works', async () => {
      const a = await person();
      const c = client(t.app, a.user.token);
      const rotated = await c.post('me/email/rotate');
      expect(rotated.status).toBe(200);
      const fresh = (rotated.body as { address: string }).address;
      expect(fresh).not.toBe(a.address);
      expect((await c.get('me/email')).body).toEqual({ address: fresh });
      const old = await send({ to: a.address, subject: 'To the old address' });
      const now = await send({ to: fresh, subject: 'To the new address' });
      await landed('Rejected', old);
      await landed('Processed', now);
      expect((await a.items()).map((i: JsonBody) => i.title)).toEqual(['To the new address']);
    });

    it('keeps two users apart, and gives each addressed user an item of one mail', async () => {
      const a = await person();
      const b = await person('pro');
      const toA = await send({ to: a.address, subject: 'For A' });
      const toB = await send({ to: b.address, subject: 'For B' });
      const both = await send({ to: `${a.address}, ${b.address}`, subject: 'For both' });
      for (const id of [toA, toB, both]) await landed('Processed', id);
      expect((await a.items()).map((i: JsonBody) => i.title).sort()).toEqual(['For A', 'For both']);
      expect((await b.items()).map((i: JsonBody) => i.title).sort()).toEqual(['For B', 'For both']);
    });

    it('survives bad input: malformed MIME, broken charsets, a 10,000-character subject, an HTML bomb, a 20 MB attachment', async () => {
      const a = await person();
      const malformed = await send({
        to: a.address,
        subject: 'Broken MIME',
        contentType: 'multipart/mixed; boundary="never"',
        body: '--nope\r\nContent-Type: text/plain\r\n\r\nhalf a part',
      });
      const charset = await send({
        to: a.address,
        subject: '=?x-no-such-charset?B?//79/A==?= tail',
        contentType: 'text/plain; charset="x-unknown-8bit"',
        headers: ['Content-Transfer-Encoding: quoted-printable'],
        body: 'caf=E9 =FF=FE=00 and a bad =ZZ escape',
      });
      const longSubject = await send({ to: a.address, subject: 'x'.repeat(10_000), body: 'long subject' });
      const bomb = await send({
        to: a.address,
        subject: 'HTML bomb',
        contentType: 'text/html; charset=utf-8',
        body: `${'<div>'.repeat(50_000)}deep${'</div>'.repeat(50_000)}`,
      });
      const big = Buffer.alloc(20 * 1024 * 1024, 1)
        .toString('base64')
        .replace(/.{76}/g, '$&\r\n');
      const huge = await send({
        to: a.address,
        subject: 'Big attachment',
        contentType: 'multipart/mixed; boundary="b2"',
        body: `--b2\r\nContent-Type: text/plain\r\n\r\nsee attached\r\n--b2\r\nContent-Type: application/octet-stream; name="big.bin"\r\nContent-Disposition: attachment; filename="big.bin"\r\nContent-Transfer-Encoding: base64\r\n\r\n${big}\r\n--b2--`,
      });
      for (const id of [malformed, charset, longSubject, bomb, huge]) {
        await waitFor(
          async () => (await dovecot.list('Processed')).some((m) => m.messageId === id) || (await dovecot.list('Rejected')).some((m) => m.messageId === id),
          {
            timeoutMs: 60_000,
            intervalMs: 200,
            what: `${id} handled`,
          },
        );
      }
      const items = await a.items();
      const byTitle = new Map(items.map((i: JsonBody) => [i.title as string, i]));
      expect(byTitle.get('Big attachment')?.content_md).toBe('see attached\n\nAttachments (not stored):\n- big.bin (20.0 MB)');
      expect(byTitle.get('HTML bomb')?.content_md).toContain('deep');
      const long = items.find((i: JsonBody) => (i.title as string).startsWith('xxxx'));
      expect(Array.from(long.title as string)).toHaveLength(500);
      expect(items.length).toBeGreaterThanOrEqual(4);
      // The reader goes on for everyone after them.
      const after = await send({ to: a.address, subject: 'Still reading' });
      await landed('Processed', after);
    }, 120_000);

    it('counts messages read, captured and rejected by reason in GET /metrics', async () => {
      const text = (await t.app.inject({ method: 'GET', url: '/metrics' })).body;
      expect(Number(/capture_inbox_email_in_messages_read_total (\d+)/.exec(text)?.[1])).toBeGreaterThan(5);
      expect(Number(/capture_inbox_email_in_captured_total (\d+)/.exec(text)?.[1])).toBeGreaterThan(5);
      expect(text).toMatch(/capture_inbox_email_in_rejected_total\{reason="unknown_address"\} [1-9]/);
      expect(text).toMatch(/capture_inbox_email_in_duplicates_total [1-9]/);
    });

    it('reconnects when the IMAP server goes away and comes back, logging the outage once', async () => {
      const a = await person();
      const before = log.lines.length;
      await dovecot.stop();
      // Several back-off rounds pass while the server is down.
      await waitFor(() => !t.services.emailInReader!.reading, {
        timeoutMs: 10_000,
        what: () => JSON.stringify(log.lines.slice(before)) + dovecot.log().slice(-1500),
      });
      await new Promise((resolve) => setTimeout(resolve, 1_500));
      await dovecot.start();
      const id = await send({ to: a.address, subject: 'After the outage' });
      await landed('Processed', id);
      const since = log.lines.slice(before);
      expect(since.filter((l) => String(l.msg).startsWith('email-in: cannot read the mailbox'))).toHaveLength(1);
      expect(since.filter((l) => l.msg === 'email-in: reading the mailbox again')).toHaveLength(1);
      expect((await a.items()).map((i: JsonBody) => i.title)).toEqual(['After the outage']);
    }, 60_000);

    it('polls when IDLE is not used', async () => {
      const a = await person();
      await t.services.emailInReader!.stop();
      const polling = await createTestApp(dialect, {
        db: t.db,
        emailIn: { imapUrl: dovecot.imapUrl, address: ADDRESS },
        emailInReader: { ...FAST, idle: false },
      });
      try {
        polling.services.emailInReader!.start();
        const id = await send({ to: a.address, subject: 'Found by a poll' });
        await landed('Processed', id);
        expect((await a.items()).map((i: JsonBody) => i.title)).toEqual(['Found by a poll']);
      } finally {
        await polling.close();
        t.services.emailInReader!.start();
      }
    }, 30_000);

    it('finishes a move cut short by a crash (flagged captured, still in the mailbox) and leaves other read mail alone', async () => {
      const a = await person();
      const id = await send({ to: a.address, subject: 'Moved twice' });
      await landed('Processed', id);
      // The same message again as a crash leaves it (flagged, not moved), and one a person has read.
      const readByHand = uniqueMessageId();
      await dovecot.append(rawMail({ to: a.address, subject: 'Read by hand', messageId: readByHand }), 'INBOX', ['\\Seen']);
      await dovecot.append(rawMail({ to: a.address, subject: 'Moved twice', messageId: id }), 'INBOX', ['\\Seen', '$CaptureInboxCaptured']);
      await landed('Processed', id, 2);
      expect((await a.items()).map((i: JsonBody) => i.title)).toEqual(['Moved twice']);
      const inbox = await dovecot.list('INBOX');
      expect(inbox.map((m) => m.messageId)).toContain(readByHand);
      expect(inbox.map((m) => m.messageId)).not.toContain(id);
    }, 30_000);

    it('goes on where it stopped after a restart in the middle of a mailbox, and one process reads at a time', async () => {
      const a = await person();
      await t.services.emailInReader!.stop();
      const ids: string[] = [];
      for (let i = 0; i < 24; i += 1) ids.push(await send({ to: a.address, subject: `Batch ${i}` }));
      // A second instance on the same database: its reader waits for the lease while the first reads.
      const second = await createTestApp(dialect, {
        db: t.db,
        emailIn: { imapUrl: dovecot.imapUrl, address: ADDRESS },
        emailInReader: { ...FAST, batch: 4 },
      });
      try {
        t.services.emailInReader!.start();
        second.services.emailInReader!.start();
        await waitFor(async () => (await a.items()).length >= 6, { timeoutMs: 20_000 });
        expect(t.services.emailInReader!.reading && second.services.emailInReader!.reading).toBe(false);
        // The first process stops in the middle; the second takes the lease over and reads the rest.
        await t.services.emailInReader!.stop();
        await waitFor(async () => (await dovecot.list('Processed')).filter((m) => ids.includes(m.messageId)).length === ids.length, {
          timeoutMs: 30_000,
          intervalMs: 200,
        });
        expect(second.services.emailInReader!.reading).toBe(true);
        const titles = (await a.items()).map((i: JsonBody) => i.title as string);
        expect(titles).toHaveLength(24);
        expect(new Set(titles).size).toBe(24);
      } finally {
        await second.close();
        t.services.emailInReader!.start();
      }
    }, 60_000);
  });

  describe.each(DIALECTS)('over the limits (%s)', (dialect) => {
    let dovecot: Dovecot;
    let t: TestApp;
    beforeAll(async () => {
      dovecot = await startDovecot();
      t = await createTestApp(dialect, {
        emailIn: { imapUrl: dovecot.imapUrl, address: ADDRESS },
        emailInReader: FAST,
        limits: { ...UNLIMITED, free: { perMinute: 1000, perDay: 3 } },
      });
      t.services.emailInReader!.start();
    }, 30_000);
    afterAll(async () => {
      await t?.close();
      await dovecot?.destroy();
    });

    it('leaves mail over a user limit unread in the mailbox and reads it in a later window', async () => {
      const user = await createUser(t, 'free');
      // Asked of the service: an HTTP request would count against the same daily limit.
      const address = (await t.services.emailIn.address(user.id))!;
      for (let i = 0; i < 5; i += 1) await dovecot.append(rawMail({ to: address, subject: `Mail ${i}` }));
      const items = async () => (await t.services.items.list(user.id, {})).items;
      await waitFor(async () => (await items()).length === 3, { timeoutMs: 20_000 });
      await waitFor(() => t.services.metrics.emailIn.deferred.get().then((m) => (m.values[0]?.value ?? 0) >= 2), { timeoutMs: 10_000 });
      const waiting = await dovecot.list('INBOX');
      expect(waiting).toHaveLength(2);
      expect(waiting.every((m) => !m.seen)).toBe(true);
      expect(await dovecot.list('Rejected')).toEqual([]);
      // The next day's window takes them.
      t.clock.advance(24 * 60 * 60 * 1000);
      await waitFor(async () => (await items()).length === 5, { timeoutMs: 20_000 });
      await waitFor(async () => (await dovecot.list('INBOX')).length === 0, { timeoutMs: 10_000 });
    }, 60_000);
  });
});

describe.each(DIALECTS)('email to inbox switched off (%s)', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(dialect);
  });
  afterAll(async () => {
    await t?.close();
  });

  it('answers a null address and runs no reader', async () => {
    const user = await createUser(t);
    const c = client(t.app, user.token);
    expect((await c.get('me/email')).body).toEqual({ address: null });
    expect((await c.post('me/email/rotate')).body).toEqual({ address: null });
    expect(t.services.emailInReader).toBeUndefined();
  });
});
