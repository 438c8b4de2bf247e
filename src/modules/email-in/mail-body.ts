import TurndownService from 'turndown';
import { unlinkDisallowedMarkdown } from '../../lib/link-schemes.js';

/*
 * A mail's body as an item's notes: the text part, or the HTML part turned into Markdown
 * (turndown), with quoted replies and the signature cut. Hand-written: the cutting rules are a
 * few lines, and the npm reply parsers found were unmaintained ports of a Ruby library.
 */

/** HTML past this is not given to turndown (an "HTML bomb" would hold the event loop): tags are stripped instead. */
const HTML_TO_MARKDOWN_MAX = 512 * 1024;

const turndown = new TurndownService({ headingStyle: 'atx', codeBlockStyle: 'fenced', bulletListMarker: '-' });
// Nothing of these is content a person wrote.
turndown.remove(['style', 'script', 'head', 'title']);
/** The part of turndown's DOM node this reads (its type is the DOM's, which the server's types leave out). */
interface MarkupNode {
  nodeName: string;
  getAttribute(name: string): string | null;
}
const isEmbeddedImage = (node: MarkupNode): boolean => node.nodeName === 'IMG' && /^\s*cid:/i.test(node.getAttribute('src') ?? '');
// Images embedded in the mail (cid:) are parts of it, not stored: a link to them could only be broken.
turndown.addRule('embeddedImages', { filter: (node) => isEmbeddedImage(node as MarkupNode), replacement: () => '' });

/** Outlook's and others' text stand-in for an embedded image: `[cid:image001.png@01DA2B3C.4D5E6F70]`. */
const CID_PLACEHOLDER = /\[cid:[^\]\s]*\]/gi;

/**
 * The notes as stored: links the service does not keep (javascript:, data:, cid:, …) become their
 * text (lib/link-schemes), and text placeholders of embedded images are dropped.
 */
export function safeNotes(markdown: string): string {
  return unlinkDisallowedMarkdown(markdown.replace(CID_PLACEHOLDER, ''));
}

/** The signature delimiter (RFC 3676 4.3: "-- " on a line of its own; some clients drop the space). */
const SIGNATURE = /^-- ?$/;
/** The line clients put above a quoted reply ("On Tue, … Ann <a@b> wrote:"), in a few languages. */
const ATTRIBUTION = /^(on|am|le|el|op|il)\s.*(wrote|schrieb|a écrit|escribió|schreef|ha scritto)\s*:\s*$/i;
/** Outlook's and others' separators: everything below is the earlier message. */
const ORIGINAL_MESSAGE = /^(-{2,}\s*original message\s*-{2,}|_{20,})\s*$/i;
const QUOTED = /^\s*>/;

/** Cuts quoted replies and the signature; keeps everything the sender wrote above them. */
export function cutRepliesAndSignature(text: string): string {
  const lines = text.split(/\r\n|\r|\n/);
  const kept: string[] = [];
  for (let i = 0; i < lines.length; i += 1) {
    const line = lines[i] ?? '';
    const trimmed = line.trimEnd();
    if (SIGNATURE.test(line) || SIGNATURE.test(trimmed) || ORIGINAL_MESSAGE.test(trimmed.trim())) break;
    if (QUOTED.test(line)) continue;
    // An attribution line (it may wrap onto the next) only when quoted lines follow it.
    const joined = `${trimmed} ${(lines[i + 1] ?? '').trim()}`.trim();
    if (ATTRIBUTION.test(trimmed.trim()) && quotedFollows(lines, i + 1)) continue;
    if (!trimmed.trim().endsWith(':') && ATTRIBUTION.test(joined) && quotedFollows(lines, i + 2)) {
      i += 1;
      continue;
    }
    kept.push(trimmed);
  }
  return kept
    .join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}

function quotedFollows(lines: readonly string[], from: number): boolean {
  for (let i = from; i < lines.length; i += 1) {
    const line = lines[i] ?? '';
    if (line.trim() === '') continue;
    return QUOTED.test(line);
  }
  return true;
}

/** HTML as Markdown; a huge or pathological document falls back to its text without tags. */
export function htmlToMarkdown(html: string): string {
  if (html.length <= HTML_TO_MARKDOWN_MAX) {
    try {
      return turndown.turndown(html);
    } catch {
      // Deep nesting overflows turndown's recursion: the stripped text below is still the content.
    }
  }
  return stripTags(html);
}

/** A last resort for HTML turndown cannot take: drops markup, keeps text, one line per block. */
function stripTags(html: string): string {
  return html
    .slice(0, HTML_TO_MARKDOWN_MAX * 4)
    .replace(/<(style|script|head)\b[^>]*>[\s\S]*?<\/\1\s*>/gi, '')
    .replace(/<(br|\/p|\/div|\/li|\/h[1-6]|\/tr)\b[^>]*>/gi, '\n')
    .replace(/<[^>]*>/g, '')
    .replace(/&nbsp;/g, ' ')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, '&')
    .replace(/[ \t]+\n/g, '\n');
}
