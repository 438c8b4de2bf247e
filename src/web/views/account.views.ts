import type { SessionUser } from '../../modules/accounts/accounts.service.js';
import { PASSWORD_MAX, PASSWORD_MIN } from '../../modules/accounts/accounts.service.js';
import type { SessionSummary } from '../../modules/accounts/account-settings.service.js';
import { formatMoment, type DateContext } from '../dates.js';
import { sentence } from '../format.js';
import { html, type SafeHtml } from '../html.js';
import { csrfField, renderPage } from '../layout.js';
import { labelledInput } from './labelled-input.views.js';
import { emailInSection } from './email-in.views.js';

export interface AccountPageData {
  user: SessionUser;
  csrf: string;
  sessions: SessionSummary[];
  /** The user's zone and the browser's locale, for the dates shown. */
  dates: Pick<DateContext, 'zone' | 'locale'>;
  /** The email-in address; null when the server has email-in off. */
  emailAddress?: string | null;
  /** The zones to choose from, the user's own among them. */
  timeZones: readonly string[];
  notice?: string;
  /** A message per field of the forms (current_password, new_password, confirmation, import). */
  errors?: Partial<Record<'current_password' | 'new_password' | 'confirmation' | 'import' | 'timezone' | 'form', string>>;
  /** What was typed into the deletion confirmation, kept when it was refused. */
  confirmation?: string;
}

type Errors = NonNullable<AccountPageData['errors']>;

function input(id: keyof Errors, label: string, attrs: SafeHtml, errors: Errors, hint?: string): SafeHtml {
  return labelledInput({ id, label, attrs, error: errors[id], hint });
}

function passwordSection(d: AccountPageData, errors: Errors): SafeHtml {
  return html`<section class="card" aria-labelledby="password-heading"><h2 id="password-heading">Password</h2>
  <form method="post" action="/account/password">${csrfField(d.csrf)}
    <input type="text" name="username" value="${d.user.email}" autocomplete="username" hidden>
    ${input('current_password', 'Current password', html`type="password" autocomplete="current-password" required maxlength="${PASSWORD_MAX}"`, errors)}
    ${input('new_password', 'New password', html`type="password" autocomplete="new-password" required minlength="${PASSWORD_MIN}" maxlength="${PASSWORD_MAX}"`, errors, `At least ${PASSWORD_MIN} characters. Every other browser signed in to this account is signed out.`)}
    <button class="primary" type="submit">Change password</button>
  </form></section>`;
}

function sessionsSection(d: AccountPageData): SafeHtml {
  const zone = d.dates;
  return html`<section class="card sessions" aria-labelledby="sessions-heading"><h2 id="sessions-heading">Signed-in browsers</h2>
  <table><caption class="visually-hidden">Browsers signed in to this account</caption>
  <thead><tr><th scope="col">Signed in</th><th scope="col">Last seen</th><th scope="col"><span class="visually-hidden">Action</span></th></tr></thead>
  <tbody>${d.sessions.map(
    (s, i) => html`<tr>
    <td data-label="Signed in"><time datetime="${s.created_at}">${formatMoment(s.created_at, zone)}</time></td>
    <td data-label="Last seen"><time datetime="${s.last_seen_at}">${formatMoment(s.last_seen_at, zone)}</time></td>
    <td data-label="">${
      s.current
        ? html`<strong>This browser</strong>`
        : html`<form method="post" action="/account/sessions/${s.id}/end">${csrfField(d.csrf)}<button class="small" type="submit" aria-label="Sign out browser ${i + 1} (signed in ${formatMoment(s.created_at, zone)})">Sign out</button></form>`
    }</td>
  </tr>`,
  )}</tbody></table></section>`;
}

function dataSection(d: AccountPageData, errors: Errors): SafeHtml {
  return html`<section class="card" aria-labelledby="data-heading"><h2 id="data-heading">Your data</h2>
  <p>Download everything: <a href="/settings/export?format=json" download>export (JSON)</a>, which this or another server can import, or
    <a href="/settings/export?format=markdown" download>export (Markdown)</a> to read.</p>
  <form class="inline-form" method="post" action="/account/import" enctype="multipart/form-data">
    ${csrfField(d.csrf)}
    <div class="field${errors.import ? ' has-error' : ''}"><label for="import-file">Import <span class="hint">(a Capture Inbox export, or a Todoist CSV; items already here are skipped)</span></label>
      <input id="import-file" name="file" type="file" accept=".json,.csv,application/json,text/csv" required${errors.import ? html` aria-invalid="true" aria-describedby="import-error"` : ''}>
      ${errors.import ? html`<p class="field-error" id="import-error">${sentence(errors.import)}</p>` : ''}</div>
    <button type="submit">Import</button>
  </form></section>`;
}

function deleteSection(d: AccountPageData, errors: Errors): SafeHtml {
  return html`<section class="card danger-zone" aria-labelledby="delete-heading"><h2 id="delete-heading">Delete the account</h2>
  <p>Deletes your items, projects, tags, API keys and webhooks at once. Programs using your keys stop working. This cannot be undone: download your data first.</p>
  <form method="post" action="/account/delete" data-confirm="Delete your account and everything in it? This cannot be undone.">${csrfField(d.csrf)}
    ${input('confirmation', 'Type your email address to confirm', html`type="text" autocomplete="off" required value="${d.confirmation ?? ''}"`, errors, d.user.email)}
    <button class="danger" type="submit">Delete my account</button>
  </form></section>`;
}

export function accountPage(d: AccountPageData): string {
  const errors = d.errors ?? {};
  const body = html`<h1>Account</h1>
${d.notice ? html`<div class="alert success" role="status">${d.notice}</div>` : ''}
${errors.form ? html`<div class="alert error" role="alert">${sentence(errors.form)}</div>` : ''}
<section class="card" aria-labelledby="about-heading"><h2 id="about-heading">You</h2>
  <dl class="facts"><dt>Email</dt><dd>${d.user.email}</dd><dt>Plan</dt><dd>${d.user.plan === 'pro' ? 'Pro' : 'Free'}</dd></dl>
  <form class="inline-form" method="post" action="/account/timezone">${csrfField(d.csrf)}
    <div class="field${errors.timezone ? ' has-error' : ''}"><label for="timezone">Time zone <span class="hint">(Today, Upcoming and due dates use it)</span></label>
      <select id="timezone" name="timezone"${errors.timezone ? html` aria-invalid="true" aria-describedby="timezone-error"` : ''}>${d.timeZones.map((z) => html`<option${z === d.user.timezone ? html` selected` : ''}>${z}</option>`)}</select>
      ${errors.timezone ? html`<p class="field-error" id="timezone-error">${sentence(errors.timezone)}</p>` : ''}</div>
    <button type="submit">Save time zone</button>
  </form>
</section>
<section class="card" aria-labelledby="notifications-heading"><h2 id="notifications-heading">Notifications</h2>
  <p>Reminders can reach this browser (web push), your phone through an ntfy topic, or your email. <a href="/account/notifications">Notification settings</a></p>
</section>
${emailInSection(d.emailAddress ?? null, d.csrf)}
${passwordSection(d, errors)}
${sessionsSection(d)}
${dataSection(d, errors)}
${deleteSection(d, errors)}`;
  return renderPage({ title: 'Account', section: 'account', user: d.user, csrf: d.csrf, body });
}

export function accountDeletedPage(csrf: string): string {
  const body = html`<div class="narrow"><h1>Your account was deleted</h1>
<p class="alert success" role="status">Everything in it is gone, and its API keys no longer work.</p>
<p><a href="/signup">Create a new inbox</a></p></div>`;
  return renderPage({ title: 'Account deleted', section: 'login', user: null, csrf, body });
}
