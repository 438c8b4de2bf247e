/** Raw RFC 5322 messages for the email-in tests (appended to dovecot by IMAP). */

let counter = 0;

export interface MailFields {
  to?: string;
  cc?: string;
  deliveredTo?: string;
  from?: string;
  subject?: string;
  messageId?: string;
  /** Headers after the addressing ones, each a full line without CRLF. */
  headers?: string[];
  /** The body after the blank line (CRLF line ends are made here). */
  body?: string;
  contentType?: string;
}

export function uniqueMessageId(): string {
  counter += 1;
  return `<t${counter}.${Date.now()}.${Math.random().toString(36).slice(2)}@sender.test>`;
}

export function rawMail(fields: MailFields): string {
  const lines = [
    ...(fields.deliveredTo ? [`Delivered-To: ${fields.deliveredTo}`] : []),
    `From: ${fields.from ?? 'Sam Sender <sam@sender.test>'}`,
    ...(fields.to ? [`To: ${fields.to}`] : []),
    ...(fields.cc ? [`Cc: ${fields.cc}`] : []),
    `Subject: ${fields.subject ?? 'A note'}`,
    `Message-ID: ${fields.messageId ?? uniqueMessageId()}`,
    'Date: Sat, 21 Nov 2026 10:00:00 +0000',
    'MIME-Version: 1.0',
    ...(fields.headers ?? []),
    ...(fields.contentType === '' ? [] : [`Content-Type: ${fields.contentType ?? 'text/plain; charset=utf-8'}`]),
  ];
  return `${lines.join('\r\n')}\r\n\r\n${(fields.body ?? 'hello').replace(/\r?\n/g, '\r\n')}\r\n`;
}
