/*
 * Which links the service keeps as links: http, https and mailto, and URLs without a scheme
 * (relative, `//host`, `#part`). Everything else (javascript:, data:, vbscript:, file:, cid:, a
 * custom app scheme) runs code, reads local files or points nowhere for the reader, so notes that
 * come from outside (mail, import, CalDAV) keep such a link as its text, and the web app never
 * renders one as a link whatever the notes hold.
 */

const ALLOWED_SCHEMES = new Set(['http', 'https', 'mailto']);
const SCHEME = /^([a-z][a-z0-9+.-]*):/i;
const NAMED_ENTITIES: Record<string, string> = { colon: ':', tab: '\t', newline: '\n', sol: '/', lpar: '(', rpar: ')' };

/**
 * The URL as a browser would read its scheme: entities decoded (Markdown and HTML decode them in a
 * destination), backslash escapes removed, tabs and newlines (also percent-encoded) dropped anywhere
 * and leading spaces and controls trimmed, so `java&#x09;script&colon;` is still javascript:. Where
 * this is stricter than a browser, a link is refused that would have been harmless: the safe side.
 */
function schemeView(url: string): string {
  return (
    url
      .replace(/&#(x[0-9a-f]+|\d+);?/gi, (_m, code: string) => {
        const point = code[0] === 'x' || code[0] === 'X' ? parseInt(code.slice(1), 16) : Number(code);
        return point > 0 && point <= 0x10ffff ? String.fromCodePoint(point) : '';
      })
      .replace(/&([a-z]+);/gi, (m, name: string) => NAMED_ENTITIES[name.toLowerCase()] ?? m)
      .replace(/\\([!-/:-@[-`{-~])/g, '$1')
      // The URL standard removes these; Markdown renderers percent-encode them first.
      .replace(/[\t\n\r]|%0[9ad]/gi, '')
      // eslint-disable-next-line no-control-regex -- leading C0 controls and spaces are trimmed by browsers
      .replace(/^[\u0000-\u0020]+/, '')
  );
}

/** Whether `url` may be a link: http, https, mailto, or no scheme at all. */
export function isAllowedLinkUrl(url: string): boolean {
  const scheme = SCHEME.exec(schemeView(url))?.[1];
  return scheme === undefined || ALLOWED_SCHEMES.has(scheme.toLowerCase());
}

/** An inline link or image: `[text](dest "title")`, the destination with one level of parentheses, or `<dest>`. */
const INLINE_LINK =
  /(?<!\\)(!?)\[((?:[^[\]\\]|\\.|\[(?:[^[\]\\]|\\.)*\])*)\]\(\s*(<[^<>\n]*>|(?:[^\s()\\]|\\.|\((?:[^\s()\\]|\\.)*\))*)(?:\s+(?:"[^"\n]*"|'[^'\n]*'|\([^()\n]*\)))?\s*\)/g;
/** An autolink: `<scheme:...>`. */
const AUTOLINK = /(?<!\\)<([a-z][a-z0-9+.-]*:[^\s<>]*)>/gi;
/** A link reference definition: `[label]: dest "title"` on a line of its own. */
const DEFINITION = /^( {0,3})\[((?:[^[\]\\]|\\.)+)\]:[ \t]*(<[^<>\n]*>|\S+)(.*)$/gm;

const destination = (raw: string): string => (raw.startsWith('<') && raw.endsWith('>') ? raw.slice(1, -1) : raw);

/**
 * Markdown with every link and image whose URL is not allowed turned into its text: `[text](javascript:…)`
 * becomes `text`, an image its alt text, `<javascript:…>` the bare address (not a link: linkify only
 * picks up web and mail addresses), and a reference definition with such a URL is dropped (its uses
 * stay as bracketed text). Allowed links are left byte for byte as they were.
 */
export function unlinkDisallowedMarkdown(markdown: string): string {
  return markdown
    .replace(INLINE_LINK, (whole, _bang: string, text: string, dest: string) => (isAllowedLinkUrl(destination(dest)) ? whole : text))
    .replace(AUTOLINK, (whole, url: string) => (isAllowedLinkUrl(url) ? whole : url))
    .replace(DEFINITION, (whole, _indent: string, _label: string, dest: string) => (isAllowedLinkUrl(destination(dest)) ? whole : ''));
}
