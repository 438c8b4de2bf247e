import type { SessionUser } from '../../modules/accounts/accounts.service.js';
import type { KeyView } from '../../modules/keys/keys.service.js';
import { SCOPE_DESCRIPTIONS, SCOPES } from '../../modules/keys/scopes.js';
import { formatMoment, type DateContext } from '../dates.js';
import { sentence } from '../format.js';
import { html, type SafeHtml } from '../html.js';
import { csrfField, renderPage } from '../layout.js';

/** A webhook as developer settings show it (the contract's webhook record, read-only here). */
export interface WebhookSummary {
  id: string;
  url: string;
  events: string[];
  description: string | null;
  created_at: string;
  last_failure_status: number | null;
  last_failure_reason: string | null;
  last_failure_at: string | null;
}

export interface SettingsPageData {
  user: SessionUser;
  csrf: string;
  keys: KeyView[];
  /** The user's zone and the browser's locale, for the dates shown. */
  dates: Pick<DateContext, 'zone' | 'locale'>;
  /** null when this server has no webhooks: the section is left out. */
  webhooks: WebhookSummary[] | null;
  /** The server's owner sees a link to the admin page. */
  isOwner?: boolean;
  /** A key just minted: its token is in this response and nowhere else. */
  minted?: { label: string; token: string };
  notice?: string;
  error?: string;
}

function accountSection(d: SettingsPageData): SafeHtml {
  return html`<section class="card" aria-labelledby="account-heading">
  <h2 id="account-heading">Account</h2>
  <dl class="facts">
    <dt>Email</dt><dd>${d.user.email}</dd>
    <dt>Plan</dt><dd>${d.user.plan === 'pro' ? 'Pro' : 'Free'}</dd>
  </dl>
  <p class="small">Time zone: ${d.user.timezone} (<a href="/account#timezone">change it under Account</a>).</p>
</section>`;
}

function mintedNotice(minted: { label: string; token: string }): SafeHtml {
  return html`<div class="alert success" role="status">
  <p><strong>Your new key “${minted.label}”.</strong> Copy it now: it is shown only this once.</p>
  <div class="token">
    <textarea id="new-token" rows="2" readonly aria-label="New API key" spellcheck="false">${minted.token}</textarea>
    <button type="button" data-copy="new-token" hidden>Copy</button>
  </div>
</div>`;
}

function keyRow(d: SettingsPageData, key: KeyView): SafeHtml {
  const zone = d.dates;
  const revoked = key.revoked_at !== null;
  return html`<tr${revoked ? html` class="revoked"` : ''}>
  <td data-label="Label">${key.label}</td>
  <td data-label="Key"><code>cin_${key.prefix}_…</code></td>
  <td data-label="Created"><time datetime="${key.created_at}">${formatMoment(key.created_at, zone)}</time></td>
  <td data-label="Last used">${key.last_used_at ? html`<time datetime="${key.last_used_at}">${formatMoment(key.last_used_at, zone)}</time>` : 'Never'}</td>
  <td data-label="Scopes">${key.scopes.join(', ')}</td>
  <td data-label="Expires">${key.expires_at ? html`<time datetime="${key.expires_at}">${formatMoment(key.expires_at, zone)}</time>` : 'Never'}</td>
  <td data-label="${revoked ? 'Status' : ''}">${
    revoked
      ? html`<span>Revoked <time datetime="${key.revoked_at}">${formatMoment(key.revoked_at!, zone)}</time></span>`
      : html`<form method="post" action="/settings/keys/${key.id}/revoke" data-confirm="Revoke “${key.label}”? Programs using it stop working at once.">${csrfField(d.csrf)}<button class="small danger" type="submit" aria-label="Revoke “${key.label}” (cin_${key.prefix}_…)">Revoke</button></form>`
  }</td>
</tr>`;
}

/** The expiry offered when minting: never, or whole days (the CLI takes --expires-in-days). */
const EXPIRY_CHOICES: ReadonlyArray<readonly [string, string]> = [
  ['', 'Never'],
  ['7', 'In 7 days'],
  ['30', 'In 30 days'],
  ['90', 'In 90 days'],
  ['365', 'In a year'],
];

function keysSection(d: SettingsPageData): SafeHtml {
  return html`<section class="card" aria-labelledby="keys-heading">
  <h2 id="keys-heading">API keys</h2>
  <p class="muted small">Programs and agents use a key as <code>Authorization: Bearer cin_…</code>. Treat it like a password.</p>
  ${d.minted ? mintedNotice(d.minted) : ''}
  <form class="inline-form" method="post" action="/settings/keys">
    ${csrfField(d.csrf)}
    <div class="field"><label for="key-label">Label</label><input id="key-label" name="label" type="text" required maxlength="100" placeholder="e.g. laptop script"></div>
    <input type="hidden" name="scope_choice" value="1">
    <fieldset class="scopes"><legend>The key may</legend>
      ${SCOPES.map((s) => html`<label><input type="checkbox" name="scope" value="${s}" checked> ${SCOPE_DESCRIPTIONS[s]} <code>${s}</code></label>`)}
    </fieldset>
    <div class="field"><label for="key-expiry">Expires</label>
      <select id="key-expiry" name="expires_in_days">${EXPIRY_CHOICES.map(([days, label]) => html`<option value="${days}">${label}</option>`)}</select></div>
    <button class="primary" type="submit">Create key</button>
  </form>
  ${
    d.keys.length > 0
      ? html`<table><caption class="visually-hidden">Your API keys</caption>
  <thead><tr><th scope="col">Label</th><th scope="col">Key</th><th scope="col">Created</th><th scope="col">Last used</th><th scope="col">Scopes</th><th scope="col">Expires</th><th scope="col"><span class="visually-hidden">Status</span></th></tr></thead>
  <tbody>${d.keys.map((k) => keyRow(d, k))}</tbody></table>`
      : html`<p class="muted">No keys yet.</p>`
  }
</section>`;
}

function failure(d: SettingsPageData, hook: WebhookSummary): SafeHtml | string {
  if (hook.last_failure_status === null) return 'None';
  const what = hook.last_failure_status === 0 ? (hook.last_failure_reason ?? 'no response') : `HTTP ${hook.last_failure_status}`;
  return html`${what}${hook.last_failure_at ? html`, <time datetime="${hook.last_failure_at}">${formatMoment(hook.last_failure_at, d.dates)}</time>` : ''}`;
}

function webhooksSection(d: SettingsPageData, hooks: WebhookSummary[]): SafeHtml {
  return html`<section class="card" aria-labelledby="webhooks-heading">
  <h2 id="webhooks-heading">Webhooks</h2>
  ${
    hooks.length > 0
      ? html`<table><caption class="visually-hidden">Your webhooks</caption>
  <thead><tr><th scope="col">URL</th><th scope="col">Events</th><th scope="col">Last failure</th></tr></thead>
  <tbody>${hooks.map(
    (h) => html`<tr>
    <td data-label="URL"><code>${h.url}</code>${h.description ? html`<br><span class="muted small">${h.description}</span>` : ''}</td>
    <td data-label="Events">${h.events.join(', ')}</td>
    <td data-label="Last failure">${failure(d, h)}</td></tr>`,
  )}</tbody></table>`
      : html`<p class="muted">No webhooks. Pro users create them with <code>POST /api/v1/webhooks</code>.</p>`
  }
</section>`;
}

function dataSection(d: SettingsPageData): SafeHtml {
  return html`<section class="card" aria-labelledby="data-heading">
  <h2 id="data-heading">Your data</h2>
  <p>Download everything: <a href="/settings/export?format=json" download>export (JSON)</a>, which this or another server can import, or
    <a href="/settings/export?format=markdown" download>export (Markdown)</a> to read.</p>
  <form class="inline-form" method="post" action="/settings/import" enctype="multipart/form-data">
    ${csrfField(d.csrf)}
    <div class="field"><label for="import-file">Import <span class="hint">(a Capture Inbox export, or a Todoist CSV; items already here are skipped)</span></label>
      <input id="import-file" name="file" type="file" accept=".json,.csv,application/json,text/csv" required></div>
    <button type="submit">Import</button>
  </form>
</section>`;
}

export function settingsPage(d: SettingsPageData): string {
  const body = html`<h1>Developer settings</h1>
${d.notice ? html`<div class="alert success" role="status">${d.notice}</div>` : ''}
${d.error ? html`<div class="alert error" role="alert">${sentence(d.error)}</div>` : ''}
${keysSection(d)}
<p class="card"><a href="/settings/calendar"><strong>Connect a calendar app</strong></a>: Apple Reminders, DAVx⁵ with Tasks.org, Thunderbird, and calendar feed URLs for Google Calendar and Outlook.</p>
${accountSection(d)}
${dataSection(d)}
${d.webhooks ? webhooksSection(d, d.webhooks) : ''}
${d.isOwner ? html`<p><a href="/admin">Server administration</a>: users, plans and sign-up.</p>` : ''}
<p class="small muted">API reference: <a href="/docs">/docs</a></p>`;
  return renderPage({ title: 'Developer settings', section: 'settings', user: d.user, csrf: d.csrf, body });
}
