import { createHash } from 'node:crypto';
import { simpleParser, type AddressObject, type EmailAddress, type HeaderValue, type ParsedMail } from 'mailparser';
import { cutRepliesAndSignature, htmlToMarkdown, safeNotes } from './mail-body.js';
import { CAPTURE_TEXT_MAX } from '../../lib/capture-text.js';

/*
 * One mail read into what a capture needs: who it is for (To, Cc, Delivered-To), the capture's
 * text (the subject as the first line, then the notes) and a client_id derived from the Message-ID.
 */

export interface MailCapture {
  recipients: string[];
  messageId: string | null;
  /** The subject line, a blank line, then the notes with every file listed; within capture's CAPTURE_TEXT_MAX characters. */
  text: string;
  clientId: string;
  /** The mail's files (images embedded in the HTML left out), to store as the item's attachments. */
  files: MailFile[];
  /** The text with only these files listed at the end of the notes (the ones not stored). */
  textListing(files: readonly MailFile[]): string;
}

export interface MailFile {
  filename: string | undefined;
  content: Buffer;
  size: number;
}

/** The notes stop short of the capture's limit, leaving room for the subject line and the cut note. */
const NOTES_MAX = CAPTURE_TEXT_MAX - 5_000;
const SUBJECT_MAX = 2_000;
const ATTACHMENTS_LISTED = 50;
const NO_SUBJECT = '(no subject)';

export async function readMail(source: Buffer): Promise<MailCapture> {
  const mail = await simpleParser(source, {
    // The HTML is turned into Markdown here, and nothing is rendered: skip mailparser's own conversions.
    skipHtmlToText: true,
    skipTextToHtml: true,
    skipImageLinks: true,
    keepCidLinks: true,
    checksumAlgo: false,
  });
  const messageId = mail.messageId?.trim() || null;
  const files: MailFile[] = mail.attachments.filter((a) => !a.related).map((a) => ({ filename: a.filename, content: a.content, size: a.size }));
  const subject = subjectOf(mail);
  const notes = notesOf(mail);
  const textListing = (listed: readonly MailFile[]) => {
    const listing = listingOf(listed);
    return `${subject}\n\n${listing === '' ? notes : `${notes}\n\n${listing}`.trim()}`.trim();
  };
  return {
    recipients: recipientsOf(mail),
    messageId,
    text: textListing(files),
    clientId: clientIdFor(messageId ?? createHash('sha256').update(source).digest('hex')),
    files,
    textListing,
  };
}

/** A UUID (version 8, RFC 9562: vendor-defined) from a hash of the Message-ID: one per message, any reader. */
export function clientIdFor(messageId: string): string {
  const hex = createHash('sha256').update(`email-in:${messageId}`).digest('hex').slice(0, 32).split('');
  hex[12] = '8';
  hex[16] = ((parseInt(hex[16] ?? '0', 16) & 0x3) | 0x8).toString(16);
  const h = hex.join('');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20, 32)}`;
}

function recipientsOf(mail: ParsedMail): string[] {
  const addresses: string[] = [];
  const collect = (list: EmailAddress[]) => {
    for (const entry of list) {
      if (entry.address) addresses.push(entry.address);
      if (entry.group) collect(entry.group);
    }
  };
  for (const header of [mail.to, mail.cc]) {
    for (const object of asArray<AddressObject>(header)) collect(object.value);
  }
  // Delivered-To (one per hop): mailparser gives it parsed as an address header, or as text.
  for (const value of asArray<HeaderValue>(mail.headers.get('delivered-to'))) {
    if (typeof value === 'string') addresses.push((/<([^>]+)>/.exec(value)?.[1] ?? value).trim());
    else if (typeof value === 'object' && 'value' in value && Array.isArray(value.value)) collect(value.value);
  }
  return addresses;
}

function asArray<T>(value: T | T[] | undefined): T[] {
  if (value === undefined) return [];
  return Array.isArray(value) ? value : [value];
}

/**
 * Reply and forward markers, stacked or not, in the forms mail clients write: Re, Fwd, Fw (any case),
 * German AW and WG, Scandinavian SV, Dutch Antw, with a count (`Re[2]:`), and the old forwarded
 * form wrapped in brackets (`[Fwd: …]`). The item is the matter, not the mail's history.
 */
const REPLY_PREFIXES = /^(?:\s*(?:re|fwd?|aw|wg|sv|antw)\s*(?:\[\d+\])?\s*:)+\s*/i;
const BRACKETED_FORWARD = /^\[\s*(?:fwd?|re)\s*:\s*(.*)\]$/i;

export function withoutReplyPrefixes(subject: string): string {
  let rest = subject.trim();
  // Bounded: each pass removes at least one marker, and nobody wraps a forward more than a few times.
  for (let pass = 0; pass < 10; pass += 1) {
    const next = rest.replace(REPLY_PREFIXES, '').replace(BRACKETED_FORWARD, '$1').trim();
    if (next === rest) break;
    rest = next;
  }
  return rest;
}

/** The subject on one line (folded or with stray newlines), without NULs or Re:/Fwd: prefixes; a placeholder when there is none. */
function subjectOf(mail: ParsedMail): string {
  const subject = withoutReplyPrefixes(clean(mail.subject ?? '').replace(/\s+/g, ' '));
  if (subject === '') return NO_SUBJECT;
  const chars = Array.from(subject);
  return chars.length > SUBJECT_MAX ? `${chars.slice(0, SUBJECT_MAX).join('')}…` : subject;
}

function notesOf(mail: ParsedMail): string {
  const body = typeof mail.text === 'string' && mail.text.trim() !== '' ? mail.text : typeof mail.html === 'string' ? htmlToMarkdown(mail.html) : '';
  let notes = cutRepliesAndSignature(safeNotes(clean(body)));
  const chars = Array.from(notes);
  if (chars.length > NOTES_MAX) notes = `${chars.slice(0, NOTES_MAX).join('')}\n\n(cut: the message was longer)`;
  return notes;
}

/** Files not stored (past the plan's limits): their names and sizes end the notes. */
function listingOf(files: readonly MailFile[]): string {
  if (files.length === 0) return '';
  const lines = files.slice(0, ATTACHMENTS_LISTED).map((a) => `- ${clean(a.filename ?? '').trim() || '(unnamed)'} (${formatSize(a.size)})`);
  if (files.length > ATTACHMENTS_LISTED) lines.push(`- and ${files.length - ATTACHMENTS_LISTED} more`);
  return `Attachments (not stored):\n${lines.join('\n')}`;
}

function formatSize(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(bytes < 10 * 1024 ? 1 : 0)} KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}

/** NUL cannot be stored in PostgreSQL text, and other C0 controls are never content (tab and newlines stay). */
function clean(text: string): string {
  // eslint-disable-next-line no-control-regex -- the point is to match control characters
  return text.replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/g, '');
}
