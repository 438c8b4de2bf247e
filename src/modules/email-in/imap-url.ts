/** EMAIL_IN_IMAP_URL (`imaps://user:pass@host:993/INBOX`) as imapflow's connection options and the mailbox read. */
export interface ImapTarget {
  host: string;
  port: number;
  secure: boolean;
  user: string;
  pass: string;
  mailbox: string;
}

export function parseImapUrl(url: string): ImapTarget {
  const parsed = new URL(url);
  const secure = parsed.protocol === 'imaps:';
  if (!secure && parsed.protocol !== 'imap:') throw new Error('EMAIL_IN_IMAP_URL must start with imap:// or imaps://');
  const mailbox = decodeURIComponent(parsed.pathname.replace(/^\/+/, ''));
  return {
    // URL keeps brackets around an IPv6 literal; sockets want the bare address.
    host: parsed.hostname.replace(/^\[(.*)\]$/, '$1'),
    port: parsed.port === '' ? (secure ? 993 : 143) : Number(parsed.port),
    secure,
    user: decodeURIComponent(parsed.username),
    pass: decodeURIComponent(parsed.password),
    mailbox: mailbox === '' ? 'INBOX' : mailbox,
  };
}

/** The URL without its password, for logs. */
export function redactedImapUrl(url: string): string {
  const parsed = new URL(url);
  if (parsed.password !== '') parsed.password = '***';
  return parsed.toString();
}
