import type { FastifyReply } from 'fastify';
import type { SessionUser } from '../modules/accounts/accounts.service.js';
import { SCRIPT, STYLESHEET } from './assets.js';
import { html, SafeHtml } from './html.js';

export type Section = 'today' | 'upcoming' | 'inbox' | 'filters' | 'items' | 'projects' | 'account' | 'settings' | 'login' | 'signup' | 'connect' | 'error';

export interface PageOptions {
  title: string;
  section: Section;
  user: SessionUser | null;
  /** The CSRF token for the page's forms (the sign-out button included); null on error pages without one. */
  csrf: string | null;
  body: SafeHtml;
  /** Pages with a sidebar use the wider column. */
  wide?: boolean;
}

/** Frames, inline script and foreign origins are all refused; the approval page must never be framed. */
const CONTENT_SECURITY_POLICY = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  // Audio attachments play in the item page (web/attachments-view.ts).
  "media-src 'self'",
  "connect-src 'self'",
  // The install manifest and the service worker: without manifest-src, default-src 'none' blocks the manifest (issue 47).
  "manifest-src 'self'",
  "worker-src 'self'",
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

/**
 * Where the user's saved filters go in the navigation, after the Inbox: one marker that
 * web/filters-nav.ts replaces in every signed-in page as it is sent, so no page has to load them (decision 0087).
 */
export const SAVED_VIEWS_SLOT = '<!--saved-views-->';

export const csrfField = (csrf: string): SafeHtml => html`<input type="hidden" name="_csrf" value="${csrf}">`;

function navigation(o: PageOptions): SafeHtml {
  const link = (href: string, label: string, section: Section) =>
    html`<a href="${href}"${o.section === section ? html` aria-current="page"` : ''}>${label}</a>`;
  if (o.user) {
    return html`${link('/', 'Today', 'today')}${link('/upcoming', 'Upcoming', 'upcoming')}${link('/inbox', 'Inbox', 'inbox')}${new SafeHtml(SAVED_VIEWS_SLOT)}${link('/filters', 'Filters', 'filters')}${link('/projects', 'Projects', 'projects')}${link('/items', 'All items', 'items')}${link('/account', 'Account', 'account')}${link('/settings/keys', 'Developer settings', 'settings')}
      <form method="post" action="/logout">${o.csrf ? csrfField(o.csrf) : ''}<button class="link" type="submit">Sign out</button></form>`;
  }
  return html`${link('/login', 'Sign in', 'login')}${link('/signup', 'Sign up', 'signup')}`;
}

/**
 * Phones (≤ 600 px, stylesheet): the sections at the thumb (issue 47 item 9), and a floating
 * capture button that opens the capture box (client/bottom-bar.ts; without the script it leads to
 * Today's box). "More" opens the main navigation above the bar, whatever entries it holds.
 */
function bottomBar(o: PageOptions): SafeHtml {
  const link = (href: string, label: string, section: Section) =>
    html`<li><a href="${href}"${o.section === section ? html` aria-current="page"` : ''}>${label}</a></li>`;
  return html`<nav class="bottom-bar" aria-label="Sections"><ul>${link('/', 'Today', 'today')}${link('/upcoming', 'Upcoming', 'upcoming')}${link('/inbox', 'Inbox', 'inbox')}${link('/projects', 'Projects', 'projects')}<li><a href="#site-nav" data-more-nav aria-controls="site-nav" aria-expanded="false">More</a></li></ul></nav>
<a class="fab" href="/#capture" data-capture-fab aria-label="Capture"><span aria-hidden="true">+</span></a>`;
}

/** Opened with `?` (assets.ts); closed with Escape or its button. */
const shortcutsDialog = html`<dialog id="shortcuts" aria-labelledby="shortcuts-heading">
<h2 id="shortcuts-heading">Keyboard shortcuts</h2>
<dl class="facts">
  <dt><kbd>c</kbd></dt><dd>Capture: jump to the capture box (from any page)</dd>
  <dt><kbd>/</kbd></dt><dd>Search</dd>
  <dt><kbd>j</kbd> / <kbd>k</kbd></dt><dd>Next / previous item</dd>
  <dt><kbd>x</kbd></dt><dd>Mark the item done (or not)</dd>
  <dt><kbd>e</kbd></dt><dd>Open the item to edit it</dd>
  <dt><kbd>#</kbd></dt><dd>Move the item to a project</dd>
  <dt><kbd>Enter</kbd></dt><dd>In the capture box: save (on a touch screen: new line, save with the button)</dd>
  <dt><kbd>Shift</kbd>+<kbd>Enter</kbd></dt><dd>In the capture box: new line</dd>
  <dt><kbd>Esc</kbd></dt><dd>Leave a text field</dd>
  <dt><kbd>g</kbd> then <kbd>t</kbd></dt><dd>Go to Today</dd>
  <dt><kbd>g</kbd> then <kbd>u</kbd></dt><dd>Go to Upcoming</dd>
  <dt><kbd>g</kbd> then <kbd>i</kbd></dt><dd>Go to the Inbox</dd>
  <dt><kbd>g</kbd> then <kbd>p</kbd></dt><dd>Go to projects</dd>
  <dt><kbd>?</kbd></dt><dd>Show this list</dd>
</dl>
<form method="dialog"><button type="submit">Close</button></form>
</dialog>`;

export function renderPage(o: PageOptions): string {
  return html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light dark">
<meta name="theme-color" content="#2451b7">
<link rel="manifest" href="/manifest.webmanifest">
<link rel="icon" href="/icons/icon-192.png" type="image/png">
<link rel="apple-touch-icon" href="/icons/icon-192.png">
<title>${o.title} · Capture Inbox</title>
<link rel="stylesheet" href="${STYLESHEET.path}">
<script src="${SCRIPT.path}" defer></script>
</head>
<body class="${o.wide ? 'wide ' : ''}${o.user ? 'signed-in' : 'signed-out'}"${o.user ? html` data-user="${o.user.id}"` : ''}>
<a class="skip" href="#main">Skip to content</a>
<header class="top"><nav aria-label="Main" id="site-nav"><a class="brand" href="/">Capture Inbox</a><div class="links">${navigation(o)}</div></nav></header>
<main id="main"${o.wide ? html` class="wide"` : ''}>
${o.body}
</main>
${o.user ? html`${bottomBar(o)}${shortcutsDialog}` : ''}
</body>
</html>
`.value;
}

export function sendPage(reply: FastifyReply, status: number, page: string): FastifyReply {
  setPageHeaders(reply);
  return reply.status(status).type('text/html; charset=utf-8').send(page);
}
