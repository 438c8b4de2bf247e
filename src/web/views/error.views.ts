import type { SessionUser } from '../../modules/accounts/accounts.service.js';
import { sentence } from '../format.js';
import { html, type SafeHtml } from '../html.js';
import { renderPage } from '../layout.js';

export interface ErrorPageOptions {
  title: string;
  message: string;
  user: SessionUser | null;
  csrf: string | null;
  /** Extra content under the message, e.g. a link to start again. */
  extra?: SafeHtml;
}

export function errorPage(o: ErrorPageOptions): string {
  const body = html`<div class="narrow"><h1>${o.title}</h1><div class="card"><p>${sentence(o.message)}</p>${o.extra ?? ''}
<p><a href="/">Go to your inbox</a></p></div></div>`;
  return renderPage({ title: o.title, section: 'error', user: o.user, csrf: o.csrf, body });
}
