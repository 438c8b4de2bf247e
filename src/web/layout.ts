import type { FastifyReply } from 'fastify';
import type { SessionUser } from '../modules/accounts/accounts.service.js';
import { SCRIPT, STYLESHEET } from './assets.js';
import { html, type SafeHtml } from './html.js';

export type Section = 'inbox' | 'settings' | 'login' | 'signup' | 'connect' | 'error';

export interface PageOptions {
  title: string;
  section: Section;
  user: SessionUser | null;
  /** The CSRF token for the page's forms (the sign-out button included); null on error pages without one. */
  csrf: string | null;
  body: SafeHtml;
}

/** Frames, inline script and foreign origins are all refused; the approval page must never be framed. */
export const CONTENT_SECURITY_POLICY = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "form-action 'self'",
  "base-uri 'none'",
  "frame-ancestors 'none'",
].join('; ');

export function setPageHeaders(reply: FastifyReply): void {
  void reply.headers({
    'content-security-policy': CONTENT_SECURITY_POLICY,
    'x-frame-options': 'DENY',
    'x-content-type-options': 'nosniff',
    // Pairing links carry their state in the URL; it must not travel to another site in a Referer.
    // (no-referrer would also make Chrome send `Origin: null` on this site's own forms.)
    'referrer-policy': 'same-origin',
    // Pages hold CSRF tokens, keys shown once and private items: nothing may be cached.
    'cache-control': 'no-store',
  });
}

export const csrfField = (csrf: string): SafeHtml => html`<input type="hidden" name="_csrf" value="${csrf}">`;

function navigation(o: PageOptions): SafeHtml {
  const link = (href: string, label: string, section: Section) =>
    html`<a href="${href}"${o.section === section ? html` aria-current="page"` : ''}>${label}</a>`;
  if (o.user) {
    return html`${link('/', 'Inbox', 'inbox')}${link('/settings/keys', 'Developer settings', 'settings')}
      <form method="post" action="/logout">${o.csrf ? csrfField(o.csrf) : ''}<button class="link" type="submit">Sign out</button></form>`;
  }
  return html`${link('/login', 'Sign in', 'login')}${link('/signup', 'Sign up', 'signup')}`;
}

export function renderPage(o: PageOptions): string {
  return html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light dark">
<title>${o.title} · Capture Inbox</title>
<link rel="stylesheet" href="${STYLESHEET.path}">
<script src="${SCRIPT.path}" defer></script>
</head>
<body>
<a class="skip" href="#main">Skip to content</a>
<header class="top"><nav aria-label="Main"><a class="brand" href="/">Capture Inbox</a><div class="links">${navigation(o)}</div></nav></header>
<main id="main">
${o.body}
</main>
</body>
</html>
`.value;
}

export function sendPage(reply: FastifyReply, status: number, page: string): FastifyReply {
  setPageHeaders(reply);
  return reply.status(status).type('text/html; charset=utf-8').send(page);
}
