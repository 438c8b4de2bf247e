import { describe, expect, it } from 'vitest';
import { addressPattern } from '../../src/modules/email-in/address-pattern.js';
import { cutRepliesAndSignature } from '../../src/modules/email-in/mail-body.js';
import { clientIdFor, readMail, withoutReplyPrefixes } from '../../src/modules/email-in/mail-message.js';
import { parseImapUrl } from '../../src/modules/email-in/imap-url.js';
import { rawMail } from '../helpers/mail.js';

describe('email-in mail reading', () => {
  it('finds recipients in To, Cc and Delivered-To', async () => {
    const cc = await readMail(Buffer.from(rawMail({ to: 'someone@else.test', cc: 'Me <INBOX+ABCDEF0123@MAIL.EXAMPLE.TEST>', subject: 'By Cc' })));
    expect(cc.recipients).toEqual(['someone@else.test', 'INBOX+ABCDEF0123@MAIL.EXAMPLE.TEST']);
    const delivered = await readMail(Buffer.from(rawMail({ to: 'list@lists.test', deliveredTo: 'inbox+abc12345@x.test', subject: 'By Delivered-To' })));
    expect(delivered.recipients).toEqual(['list@lists.test', 'inbox+abc12345@x.test']);
  });

  it('matches the address pattern case-insensitively and nothing else', () => {
    const pattern = addressPattern('inbox+{token}@mail.example.test');
    expect(pattern.addressFor('abcdef0123')).toBe('inbox+abcdef0123@mail.example.test');
    expect(
      pattern.tokensIn([
        'INBOX+ABCDEF0123@MAIL.EXAMPLE.TEST',
        'inbox+abcdef0123@mail.example.test',
        'inbox+zz@mail.example.test',
        'x+abcdef0123@mail.example.test',
      ]),
    ).toEqual(['abcdef0123']);
  });

  it('derives one UUID per Message-ID', () => {
    expect(clientIdFor('<a@b>')).toBe(clientIdFor('<a@b>'));
    expect(clientIdFor('<a@b>')).not.toBe(clientIdFor('<a@c>'));
    expect(clientIdFor('<a@b>')).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-8[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  });

  it('cuts quoted replies, Outlook separators and signatures', () => {
    expect(cutRepliesAndSignature('Yes.\n\nOn Tue, 24 Nov 2026, Ann <a@b.test>\nwrote:\n> old\n')).toBe('Yes.');
    expect(cutRepliesAndSignature('Fine.\n-----Original Message-----\nFrom: x')).toBe('Fine.');
    expect(cutRepliesAndSignature('Body\n--\nSig')).toBe('Body');
    expect(cutRepliesAndSignature('On the list:\n- milk')).toBe('On the list:\n- milk');
  });

  it.each([
    ['Fwd: Invoice', 'Invoice'],
    ['RE: Fw: AW: WG: re: Invoice', 'Invoice'],
    ['FW:Invoice', 'Invoice'],
    ['Re[2]: Invoice', 'Invoice'],
    ['SV: Antw: Invoice', 'Invoice'],
    ['[Fwd: Invoice #Work]', 'Invoice #Work'],
    ['Fwd: [Fwd: Re: Invoice]', 'Invoice'],
    ['Re: [list] Invoice', '[list] Invoice'],
    ['Fwd:', ''],
    ['Regarding: the offer', 'Regarding: the offer'],
    ['Area: 51', 'Area: 51'],
    ['Rework the plan', 'Rework the plan'],
  ])('drops reply and forward prefixes: %j is %j', (subject, expected) => {
    expect(withoutReplyPrefixes(subject)).toBe(expected);
  });

  it('keeps only http, https and mailto links of an HTML body, and no embedded image (issue 45)', async () => {
    const mail = await readMail(
      Buffer.from(
        rawMail({
          to: 'a@b.test',
          subject: 'Fwd: Offer',
          contentType: 'text/html; charset=utf-8',
          body: '<p><a href="javascript:alert(1)">Click</a> <a href="https://example.test/o">offer</a> <a href="mailto:s@x.test">Sam</a> <img src="cid:image001.png@01DA" alt="logo"> <img src="data:image/png;base64,AA" alt="pixel"></p>',
        }),
      ),
    );
    expect(mail.text).toBe('Offer\n\nClick [offer](https://example.test/o) [Sam](mailto:s@x.test)  pixel');
    const text = await readMail(
      Buffer.from(rawMail({ to: 'a@b.test', subject: 'x', body: 'See [cid:image001.png@01DA2B3C.4D5E6F70] and [here](vbscript:x)' })),
    );
    expect(text.text).toBe('x\n\nSee  and here');
  });

  it('reads EMAIL_IN_IMAP_URL', () => {
    expect(parseImapUrl('imaps://me%40x.test:p%3Ass@imap.x.test/Inbox%2FCapture')).toEqual({
      host: 'imap.x.test',
      port: 993,
      secure: true,
      user: 'me@x.test',
      pass: 'p:ss',
      mailbox: 'Inbox/Capture',
    });
    expect(parseImapUrl('imap://u:p@127.0.0.1:1143').mailbox).toBe('INBOX');
  });
});
