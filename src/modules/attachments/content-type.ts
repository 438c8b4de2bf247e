import { fileTypeFromBuffer } from 'file-type';

/*
 * What the service says about a file (contract "Attachments"): its type is read from its bytes,
 * never from the name or the uploader's Content-Type, so a PNG named `.html` is a PNG and an HTML
 * page is plain text. Downloads are inline only for types a browser shows without running them.
 */

const OCTET_STREAM = 'application/octet-stream';
const PLAIN_TEXT = 'text/plain; charset=utf-8';

/** C0 controls other than tab, line feed, form feed, carriage return and escape: a text file has none. */
// eslint-disable-next-line no-control-regex -- control characters are what this looks for
const BINARY_CONTROLS = /[\x00-\x08\x0b\x0e-\x1a\x1c-\x1f\x7f]/;

/** UTF-8 text without binary control characters (the head may end inside a character). */
function looksLikeText(head: Buffer): boolean {
  if (head.length === 0) return false;
  try {
    const text = new TextDecoder('utf-8', { fatal: true }).decode(head, { stream: true });
    return !BINARY_CONTROLS.test(text);
  } catch {
    return false;
  }
}

/** The content type the first bytes show: a known magic number, else UTF-8 text, else application/octet-stream. */
export async function sniffContentType(head: Buffer): Promise<string> {
  const found = await fileTypeFromBuffer(head);
  if (found) return found.mime;
  return looksLikeText(head) ? PLAIN_TEXT : OCTET_STREAM;
}

/** Shown in the browser: images other than SVG, PDF, audio and plain text; everything else is downloaded. */
export function isInline(contentType: string): boolean {
  const type = contentType.split(';')[0]!.trim().toLowerCase();
  if (type === 'image/svg+xml') return false;
  return type.startsWith('image/') || type.startsWith('audio/') || type === 'application/pdf' || type === 'text/plain';
}

// eslint-disable-next-line no-control-regex -- control characters (C0, DEL, C1) are what this removes
const CONTROLS = /[\x00-\x1f\x7f-\x9f]/g;
const MAX_FILENAME = 255;

/** The upload's base name without control characters, at most 255 characters; `file` when nothing is left. */
export function cleanFilename(given: string | undefined): string {
  const base = (given ?? '').split(/[/\\]/).pop() ?? '';
  const clean = [...base.replace(CONTROLS, '').trim()].slice(0, MAX_FILENAME).join('');
  return clean === '' || clean === '.' || clean === '..' ? 'file' : clean;
}

/** RFC 8187 (was 5987) value characters; the rest is percent-encoded from UTF-8. */
const encodeExtValue = (value: string): string => encodeURIComponent(value).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);

/** `attachment` or `inline`, with an ASCII `filename` and the exact name in `filename*`. */
export function contentDisposition(filename: string, contentType: string): string {
  const ascii = filename.replace(/[^\x20-\x7e]/g, '_').replace(/["\\]/g, '_');
  return `${isInline(contentType) ? 'inline' : 'attachment'}; filename="${ascii}"; filename*=UTF-8''${encodeExtValue(filename)}`;
}
