import type { SessionUser } from '../../modules/accounts/accounts.service.js';
import type { ChannelView } from '../../modules/deliveries/channels.service.js';
import { formatMoment, type DateContext } from '../dates.js';
import { sentence } from '../format.js';
import { html, type SafeHtml } from '../html.js';
import { csrfField, renderPage } from '../layout.js';
import { labelledInput } from './labelled-input.views.js';

export interface NotificationsPageData {
  user: SessionUser;
  csrf: string;
  channels: ChannelView[];
  /** Minutes before the due time, or null: no automatic reminder. */
  reminderDefault: number | null;
  /** The server's VAPID public key (base64url), the browser's applicationServerKey. */
  pushKey: string;
  /** Whether the server can send mail (SMTP_URL set). */
  smtp: boolean;
  dates: Pick<DateContext, 'zone' | 'locale'>;
  notice?: string;
  /** What a refused form said, per form. */
  errors?: Partial<Record<'ntfy_url' | 'ntfy_token' | 'address' | 'reminder_default' | 'form', string>>;
  /** What was typed into a refused form. */
  values?: { ntfy_url?: string; address?: string };
}

type Errors = NonNullable<NotificationsPageData['errors']>;

/** The default reminder's choices, in minutes before the due time; a value set through the API joins them. */
const DEFAULT_CHOICES: ReadonlyArray<[number, string]> = [
  [0, 'At the due time'],
  [5, '5 minutes before'],
  [10, '10 minutes before'],
  [15, '15 minutes before'],
  [30, '30 minutes before'],
  [60, '1 hour before'],
  [120, '2 hours before'],
  [1440, '1 day before'],
];

function minutesBefore(minutes: number): string {
  const known = DEFAULT_CHOICES.find(([m]) => m === minutes);
  if (known) return known[1];
  if (minutes % 1440 === 0) return `${minutes / 1440} days before`;
  if (minutes % 60 === 0) return `${minutes / 60} hours before`;
  return `${minutes} minutes before`;
}

const KIND_LABELS: Record<ChannelView['kind'], string> = { webpush: 'Web push', ntfy: 'ntfy', email: 'Email' };

function textField(id: keyof Errors, label: string, attrs: SafeHtml, errors: Errors, hint?: string): SafeHtml {
  const name = id === 'ntfy_url' ? 'url' : id === 'ntfy_token' ? 'token' : id;
  return labelledInput({ id, name, label, attrs, error: errors[id], hint });
}

/** Push needs the script: without it (or without the Push API) the text says so and the button stays hidden. */
function pushSection(d: NotificationsPageData): SafeHtml {
  return html`<section class="card" id="push" aria-labelledby="push-heading" data-push-key="${d.pushKey}" data-csrf="${d.csrf}">
  <h2 id="push-heading">Push to this browser</h2>
  <p id="push-state" role="status">Turning on push needs JavaScript, which is off or blocked on this page. An ntfy topic or email below works without it.</p>
  <button class="primary" type="button" id="push-on" hidden>Turn on push for this browser</button>
  <p class="hint">A click on the notification opens the item. On an iPhone or iPad (iOS 16.4 or later), web push reaches only the app added to the Home Screen: in Safari choose Share, then Add to Home Screen, open the app from there and turn push on in it. In a Safari tab it is refused.</p>
</section>`;
}

function defaultSection(d: NotificationsPageData, errors: Errors): SafeHtml {
  const current = d.reminderDefault;
  const choices =
    current === null || DEFAULT_CHOICES.some(([m]) => m === current)
      ? DEFAULT_CHOICES
      : [...DEFAULT_CHOICES, [current, minutesBefore(current)] as [number, string]];
  const error = errors.reminder_default;
  return html`<section class="card" aria-labelledby="default-heading"><h2 id="default-heading">Default reminder</h2>
  <form class="inline-form" method="post" action="/account/notifications/default">${csrfField(d.csrf)}
    <div class="field${error ? ' has-error' : ''}"><label for="reminder_default">When an item gets a due date, remind me</label>
      <p class="hint" id="reminder_default-hint">An item's own reminder (on its page) always wins.</p>
      <select id="reminder_default" name="reminder_default" aria-describedby="reminder_default-hint${error ? ' reminder_default-error' : ''}"${error ? html` aria-invalid="true"` : ''}>
        <option value=""${current === null ? html` selected` : ''}>Never (no automatic reminder)</option>
        ${choices.map(([m, label]) => html`<option value="${m}"${m === current ? html` selected` : ''}>${label}</option>`)}
      </select>
      ${error ? html`<p class="field-error" id="reminder_default-error">${sentence(error)}</p>` : ''}</div>
    <button type="submit">Save default</button>
  </form></section>`;
}

function addSection(d: NotificationsPageData, errors: Errors): SafeHtml {
  const v = d.values ?? {};
  return html`<section class="card" aria-labelledby="ntfy-heading"><h2 id="ntfy-heading">Add an ntfy topic</h2>
  <p>Install the ntfy app (Android, iOS) or open ntfy in a browser, subscribe to a topic, and add the same topic's address here. Anyone who knows a topic on ntfy.sh can read it: choose a long, random name.</p>
  <form method="post" action="/account/notifications/ntfy">${csrfField(d.csrf)}
    ${textField('ntfy_url', 'Topic URL', html`type="url" required maxlength="2000" autocomplete="off" spellcheck="false" placeholder="https://ntfy.sh/my-long-random-topic" value="${v.ntfy_url ?? ''}"`, errors, 'HTTPS, on ntfy.sh or your own ntfy server. One on your own network (plain http too) works once the server owner lists it in PRIVATE_TARGETS_ALLOW.')}
    ${textField('ntfy_token', 'Access token (optional)', html`type="password" maxlength="500" autocomplete="off"`, errors, 'For a protected topic on your own server (ntfy token add); it is never shown again.')}
    <button type="submit">Add ntfy topic</button>
  </form></section>
<section class="card" aria-labelledby="email-heading"><h2 id="email-heading">Add an email address</h2>
  ${
    d.smtp
      ? html`<form method="post" action="/account/notifications/email">${csrfField(d.csrf)}
    ${textField('address', 'Email address', html`type="email" required maxlength="254" autocomplete="email" value="${v.address ?? d.user.email}"`, errors)}
    <button type="submit">Add email address</button>
  </form>`
      : html`<p id="email-off">This server cannot send email: its administrator has not set <code>SMTP_URL</code>. Use push or an ntfy topic, or ask them to set it up (see the reminders guide).</p>
  ${errors.address ? html`<p class="field-error" role="alert">${sentence(errors.address)}</p>` : ''}`
  }
</section>`;
}

function channelsSection(d: NotificationsPageData): SafeHtml {
  return html`<section class="card" id="channels" aria-labelledby="channels-heading"><h2 id="channels-heading">Where reminders go</h2>
  ${
    d.channels.length === 0
      ? html`<p class="muted">Nowhere yet: reminders are only in the change feed and webhooks. Add a channel above.</p>`
      : html`<table><caption class="visually-hidden">Your notification channels</caption>
  <thead><tr><th scope="col">Kind</th><th scope="col">Where</th><th scope="col">Added</th><th scope="col"><span class="visually-hidden">Actions</span></th></tr></thead>
  <tbody>${d.channels.map((c) => {
    const where = c.address ?? c.url ?? '';
    const name = `${KIND_LABELS[c.kind]} ${c.kind === 'webpush' ? `(${new URL(where).hostname})` : where}`;
    return html`<tr id="channel-${c.id}">
    <td data-label="Kind">${KIND_LABELS[c.kind]}</td>
    <td data-label="Where"><code>${c.kind === 'webpush' ? `a browser, via ${new URL(where).hostname}` : where}</code></td>
    <td data-label="Added"><time datetime="${c.created_at}">${formatMoment(c.created_at, d.dates)}</time></td>
    <td data-label=""><div class="actions-row">
      <form method="post" action="/account/notifications/${c.id}/test">${csrfField(d.csrf)}<button class="small" type="submit" aria-label="Send a test to ${name}">Send test</button></form>
      <form method="post" action="/account/notifications/${c.id}/delete">${csrfField(d.csrf)}<button class="small danger" type="submit" aria-label="Remove ${name}">Remove</button></form>
    </div></td></tr>`;
  })}</tbody></table>`
  }
</section>`;
}

export function notificationsPage(d: NotificationsPageData): string {
  const errors = d.errors ?? {};
  const body = html`<nav class="crumbs" aria-label="Breadcrumb"><a href="/account">Account</a> › Notifications</nav>
<h1>Notifications</h1>
<p>When an item's reminder comes due, it is sent to every place listed under “Where reminders go”. Set an item's reminder and repeat on its page.</p>
${d.notice ? html`<div class="alert success" role="status">${d.notice}</div>` : ''}
${errors.form ? html`<div class="alert error" role="alert">${sentence(errors.form)}</div>` : ''}
${channelsSection(d)}
${pushSection(d)}
${addSection(d, errors)}
${defaultSection(d, errors)}`;
  return renderPage({ title: 'Notifications', section: 'account', user: d.user, csrf: d.csrf, body });
}
