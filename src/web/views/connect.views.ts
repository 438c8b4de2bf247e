import type { SessionUser } from '../../modules/accounts/accounts.service.js';
import type { PairingView } from '../../modules/pairing/pairing.service.js';
import { SCOPE_DESCRIPTIONS } from '../../modules/keys/scopes.js';
import { formatRelative, formatTime } from '../format.js';
import { html } from '../html.js';
import { csrfField, renderPage } from '../layout.js';

export interface ConnectPageData {
  user: SessionUser;
  csrf: string;
  state: string;
  pairing: PairingView;
  now: Date;
  /** Why the form came back (nothing ticked). */
  error?: string;
}

export function approvalPage(d: ConnectPageData): string {
  const zone = d.user.timezone;
  const p = d.pairing;
  const body = html`<div class="narrow">
<h1>Connect an app to your inbox</h1>
<div class="card">
  <p class="request-label">${p.label}</p>
  <p>asks for an API key to your inbox <strong>${d.user.email}</strong>.</p>
  <dl class="facts">
    <dt>Requested</dt><dd><time datetime="${p.created_at}">${formatTime(p.created_at, zone)}</time> (${formatRelative(p.created_at, d.now)})</dd>
    <dt>Link expires</dt><dd><time datetime="${p.expires_at}">${formatTime(p.expires_at, zone)}</time> (${formatRelative(p.expires_at, d.now)})</dd>
    <dt>Key works</dt><dd>${p.key_expires_in_days === null ? 'until you revoke it' : `for ${p.key_expires_in_days} day${p.key_expires_in_days === 1 ? '' : 's'} after approval, or until you revoke it`}</dd>
  </dl>
  <p class="alert warn">Approve only if you started this yourself just now. The app keeps what you allow until you revoke its key in Developer settings.</p>
  ${d.error ? html`<p class="alert error" role="alert">${d.error}</p>` : ''}
  <form method="post" action="/connect/agent">
    ${csrfField(d.csrf)}<input type="hidden" name="state" value="${d.state}">
    <input type="hidden" name="scope_choice" value="1">
    <fieldset class="scopes">
      <legend>The app asks to</legend>
      ${p.scopes.map((s) => html`<label><input type="checkbox" name="scope" value="${s}" checked> ${SCOPE_DESCRIPTIONS[s]}</label>`)}
      <p class="small muted">Untick anything the app should not be able to do.</p>
    </fieldset>
    <div class="decision">
      <button class="primary" type="submit" name="decision" value="approve">Approve</button>
      <button type="submit" name="decision" value="deny">Deny</button>
    </div>
  </form>
</div>
<p class="small muted">Not ${d.user.email}? Sign out above, then open the link again.</p>
</div>`;
  return renderPage({ title: 'Connect an app', section: 'connect', user: d.user, csrf: d.csrf, body });
}

export function decidedPage(o: { user: SessionUser; csrf: string; label: string; approved: boolean }): string {
  const body = o.approved
    ? html`<div class="narrow"><h1>Approved</h1><div class="card" role="status">
  <p><strong>${o.label}</strong> now gets an API key to your inbox. You can close this page and go back to it.</p>
  <p>The key is listed in <a href="/settings/keys">Developer settings</a>, where you can revoke it at any time.</p></div></div>`
    : html`<div class="narrow"><h1>Denied</h1><div class="card" role="status">
  <p><strong>${o.label}</strong> gets no key. You can close this page.</p></div></div>`;
  return renderPage({ title: o.approved ? 'Approved' : 'Denied', section: 'connect', user: o.user, csrf: o.csrf, body });
}

export type UnusableLink = 'unknown' | 'expired' | 'used';

export const UNUSABLE_LINKS: Record<UnusableLink, { status: number; title: string; message: string }> = {
  unknown: {
    status: 404,
    title: 'This link is not valid',
    message: 'No app is waiting on this link. Check that you opened the whole link, or start connecting again from the app.',
  },
  expired: {
    status: 410,
    title: 'This link has expired',
    message: 'Connection links work for 10 minutes. Start connecting again from the app to get a new one.',
  },
  used: {
    status: 409,
    title: 'This link was already used',
    message: 'Someone already approved or denied this request. To connect again, start over from the app.',
  },
};
