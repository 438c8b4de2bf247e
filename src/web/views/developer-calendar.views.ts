import type { SessionUser } from '../../modules/accounts/accounts.service.js';
import type { FeedView } from '../../modules/feeds/feeds.service.js';
import { sentence } from '../format.js';
import { html, type SafeHtml } from '../html.js';
import { csrfField, renderPage } from '../layout.js';

/*
 * "Connect a calendar app" (contract "Calendar apps: CalDAV and feeds"): the server's CalDAV
 * address with per-app steps, a button that makes an app password, and the user's .ics feeds.
 * Server-rendered forms only; the copy buttons are the one enhancement (copy-buttons.ts).
 */

export interface FeedSource {
  /** `all`, `project:{id}` or `filter:{id}`: the form's value for it. */
  value: string;
  label: string;
}

export interface CalendarPageData {
  user: SessionUser;
  csrf: string;
  /** PUBLIC_URL without a trailing slash. */
  publicUrl: string;
  feeds: FeedView[];
  /** What a feed can show: everything, each project, each saved filter. */
  sources: FeedSource[];
  /** An app password just made: in this response only. */
  minted?: string;
  notice?: string;
  error?: string;
}

const KEY_LABEL = 'Calendar app';

function appPassword(d: CalendarPageData): SafeHtml {
  return html`<section class="card" aria-labelledby="password-heading">
  <h2 id="password-heading">1. Make an app password</h2>
  <p>Calendar apps sign in with your email as the user name and an API key as the password. Make one
    for each device, so you can revoke one without the others (they are listed under
    <a href="/settings/keys">Developer settings</a>, labelled “${KEY_LABEL}”).</p>
  ${
    d.minted
      ? html`<div class="alert success" role="status">
  <p><strong>Your app password.</strong> Copy it into the app now: it is shown only this once.</p>
  <div class="token">
    <textarea id="app-password" rows="2" readonly aria-label="App password" spellcheck="false">${d.minted}</textarea>
    <button type="button" data-copy="app-password" hidden>Copy</button>
  </div>
</div>`
      : ''
  }
  <form method="post" action="/settings/calendar/key">${csrfField(d.csrf)}
    <button class="primary" type="submit">Make an app password</button>
    <span class="muted small">It may read and change your items (scopes <code>read</code>, <code>write</code>).</span>
  </form>
</section>`;
}

function appSteps(d: CalendarPageData): SafeHtml {
  const dav = `${d.publicUrl}/dav/`;
  const principal = `${d.publicUrl}/dav/principal/`;
  const { host, protocol } = new URL(d.publicUrl);
  const secure = protocol === 'https:';
  return html`<section class="card" aria-labelledby="apps-heading">
  <h2 id="apps-heading">2. Add the account in your app</h2>
  <dl class="facts">
    <dt>Server (CalDAV)</dt><dd><input id="caldav-url" type="text" readonly value="${dav}" aria-label="CalDAV server address"> <button type="button" class="small" data-copy="caldav-url" hidden>Copy</button></dd>
    <dt>User name</dt><dd>${d.user.email}</dd>
    <dt>Password</dt><dd>the app password from step 1</dd>
  </dl>
  <p class="small muted">Each project is a list, Notes is a journal, and each saved filter is a read-only list.</p>
  <details open><summary><strong>iPhone, iPad and Mac: Reminders</strong></summary>
    <ol>
      <li>iPhone or iPad: Settings → Apps → Reminders (or Calendar) → Accounts → Add Account → Other → Add CalDAV Account.
        Mac: System Settings → Internet Accounts → Add Other Account → CalDAV Account, account type Manual.</li>
      <li>Server: <code>${host}</code>; user name: your email; password: the app password.</li>
      <li>If it cannot find the account: Advanced (Mac: Server Address) → <code>${principal}</code>${secure ? ', SSL on' : ', SSL off'}.</li>
      <li>Turn on Reminders for the account. Your projects appear as lists.</li>
    </ol></details>
  <details><summary><strong>Android: DAVx⁵ with Tasks.org</strong></summary>
    <ol>
      <li>Install DAVx⁵ and Tasks.org (both on F-Droid and Google Play).</li>
      <li>In DAVx⁵: + → Login with URL and user name. Base URL: <code>${dav}</code>; user name: your email; password: the app password.</li>
      <li>Create the account, open it, and tick the lists under CalDAV to sync.</li>
      <li>Tasks.org shows them under DAVx⁵ (in DAVx⁵'s settings, choose Tasks.org as the tasks app if asked).</li>
    </ol></details>
  <details><summary><strong>Thunderbird</strong></summary>
    <ol>
      <li>Open Tasks (or Calendar) → New Calendar → On the Network.</li>
      <li>User name: your email; location: <code>${dav}</code>; Find Calendars, then give the app password when asked.</li>
      <li>Tick the lists to subscribe to; tasks show in the Tasks view.</li>
    </ol></details>
</section>`;
}

function feedRow(d: CalendarPageData, feed: FeedView, index: number): SafeHtml {
  const source = feed.all
    ? 'Everything'
    : (d.sources.find((s) => s.value === (feed.project_id ? `project:${feed.project_id}` : `filter:${feed.filter_id}`))?.label ?? 'Deleted list');
  return html`<tr>
  <td data-label="Shows">${source}, as ${feed.as}</td>
  <td data-label="URL"><input id="feed-url-${index}" type="text" readonly value="${feed.url}" aria-label="Feed URL of ${source}">
    <button type="button" class="small" data-copy="feed-url-${index}" hidden>Copy</button></td>
  <td data-label=""><form method="post" action="/settings/calendar/feeds/${feed.id}/rotate" data-confirm="Give this feed a new URL? Apps subscribed to the old one stop getting it.">${csrfField(d.csrf)}<button class="small" type="submit" aria-label="New URL for ${source}">New URL</button></form>
    <form method="post" action="/settings/calendar/feeds/${feed.id}/delete" data-confirm="Delete this feed? Its URL stops at once.">${csrfField(d.csrf)}<button class="small danger" type="submit" aria-label="Delete the feed of ${source}">Delete</button></form></td>
</tr>`;
}

function feedsSection(d: CalendarPageData): SafeHtml {
  return html`<section class="card" aria-labelledby="feeds-heading">
  <h2 id="feeds-heading">Calendar feeds</h2>
  <p>For apps that only subscribe to a URL (Google Calendar: Other calendars → From URL; Outlook:
    Add calendar → Subscribe from web). Read-only; anyone with the URL can read it, so keep it
    private, and give it a new URL if it leaks. As events, items without a due date are left out.</p>
  <form class="inline-form" method="post" action="/settings/calendar/feeds">${csrfField(d.csrf)}
    <div class="field"><label for="feed-source">Shows</label>
      <select id="feed-source" name="source">${d.sources.map((s) => html`<option value="${s.value}">${s.label}</option>`)}</select></div>
    <div class="field"><label for="feed-as">As</label>
      <select id="feed-as" name="as"><option value="events">Events on due dates</option><option value="todos">Todos</option></select></div>
    <button class="primary" type="submit">Make a feed</button>
  </form>
  ${
    d.feeds.length > 0
      ? html`<table><caption class="visually-hidden">Your calendar feeds</caption>
  <thead><tr><th scope="col">Shows</th><th scope="col">URL</th><th scope="col"><span class="visually-hidden">Actions</span></th></tr></thead>
  <tbody>${d.feeds.map((f, i) => feedRow(d, f, i))}</tbody></table>`
      : html`<p class="muted">No feeds yet.</p>`
  }
</section>`;
}

export function calendarPage(d: CalendarPageData): string {
  const body = html`<div id="calendar-apps"><h1>Connect a calendar app</h1>
<p><a href="/settings/keys">← Developer settings</a></p>
${d.notice ? html`<div class="alert success" role="status">${d.notice}</div>` : ''}
${d.error ? html`<div class="alert error" role="alert">${sentence(d.error)}</div>` : ''}
${appPassword(d)}
${appSteps(d)}
${feedsSection(d)}</div>`;
  return renderPage({ title: 'Connect a calendar app', section: 'settings', user: d.user, csrf: d.csrf, body });
}

export const CALENDAR_KEY_LABEL = KEY_LABEL;
