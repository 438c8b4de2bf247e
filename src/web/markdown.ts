import { createRequire } from 'node:module';
import type { default as MarkdownItConstructor, MarkdownIt } from 'markdown-it';
import { isAllowedLinkUrl } from '../lib/link-schemes.js';

/*
 * Notes are Markdown written by the user, shown to the same user: still rendered inert, because
 * an item can arrive from an import, an agent with a key or a shared page. Raw HTML is off (it
 * shows as text), a link is one only when it is http, https, mailto or scheme-less
 * (lib/link-schemes; markdown-it's own check refused only javascript:, vbscript:, file: and data:),
 * else it stays text, and images are off (the page's CSP would block foreign ones anyway, and they
 * would leak reads).
 */
function createRenderer(): MarkdownIt {
  // Required at the first note shown, not at start: markdown-it, its entities and linkify's patterns
  // were about 170 KB of the server bundle to compile and set up on every start, for the web pages only.
  const Renderer = createRequire(import.meta.url)('markdown-it') as typeof MarkdownItConstructor;
  const md = new Renderer({ html: false, linkify: true, typographer: false, breaks: true });
  md.disable('image');
  md.validateLink = isAllowedLinkUrl;
  const defaultLinkOpen = md.renderer.rules.link_open ?? ((tokens, idx, options, _env, self) => self.renderToken(tokens, idx, options));
  md.renderer.rules.link_open = (tokens, idx, options, env, self) => {
    const token = tokens[idx]!;
    token.attrSet('rel', 'noopener noreferrer nofollow');
    token.attrSet('target', '_blank');
    return defaultLinkOpen(tokens, idx, options, env, self);
  };
  return md;
}

let renderer: MarkdownIt | undefined;
const markdown = (): MarkdownIt => (renderer ??= createRenderer());

/** Rendering is linear in the input; the contract caps notes at 100,000 characters, this is a backstop. */
const RENDER_MAX = 200_000;

/** HTML for a note; safe to insert as is. */
export function renderMarkdown(source: string): string {
  return markdown().render(source.length > RENDER_MAX ? source.slice(0, RENDER_MAX) : source);
}

/** A note's words without Markdown syntax, for the one-glance excerpt in lists (the start is enough). */
export function markdownExcerpt(source: string, maxChars = 400): string {
  const lines: string[] = [];
  for (const token of markdown().parse(source.slice(0, maxChars * 2), {})) {
    if (token.type !== 'inline') continue;
    const text = (token.children ?? [])
      .map((c) => (c.type === 'text' || c.type === 'code_inline' ? c.content : c.type === 'softbreak' || c.type === 'hardbreak' ? ' ' : ''))
      .join('');
    if (text.trim() !== '') lines.push(text);
  }
  const joined = lines.join('\n');
  return joined.length > maxChars ? `${joined.slice(0, maxChars)}…` : joined;
}
