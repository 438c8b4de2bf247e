import type { SessionUser } from '../../modules/accounts/accounts.service.js';
import type { SignupState } from '../../modules/instance/instance.service.js';
import type { UserListEntry } from '../../modules/users/users.service.js';
import { formatMoment, type DateContext } from '../dates.js';
import { html, type SafeHtml } from '../html.js';
import { csrfField, renderPage } from '../layout.js';

export interface AdminPageData {
  user: SessionUser;
  csrf: string;
  users: UserListEntry[];
  dates: Pick<DateContext, 'zone' | 'locale'>;
  signup: SignupState;
  defaultPlan: 'free' | 'pro';
  notice?: string;
}

function signupSection(d: AdminPageData): SafeHtml {
  const state = d.signup.open ? 'open: anyone who reaches this server can create an account' : 'closed: only you create accounts';
  return html`<section class="card" aria-labelledby="signup-heading">
  <h2 id="signup-heading">Sign-up</h2>
  <p>Sign-up is <strong data-signup-state="${d.signup.open ? 'open' : 'closed'}">${state}</strong>. New accounts get the ${d.defaultPlan === 'pro' ? 'Pro' : 'Free'} plan (<code>DEFAULT_PLAN</code>).</p>
  ${
    d.signup.closedBySetting
      ? html`<p class="muted">Closed by the server's setting <code>ALLOW_SIGNUP=false</code>; change it there to open sign-up.</p>`
      : html`<form method="post" action="/admin/signup">${csrfField(d.csrf)}<input type="hidden" name="open" value="${d.signup.open ? 'false' : 'true'}">
    <button type="submit">${d.signup.open ? 'Close sign-up' : 'Open sign-up'}</button></form>`
  }
  <p class="muted small">Create an account while sign-up is closed: <code>npm run --silent admin -- user create --email E</code>, then <code>user set-password</code>.</p>
</section>`;
}

function userRow(d: AdminPageData, u: UserListEntry): SafeHtml {
  const other = u.plan === 'pro' ? 'free' : 'pro';
  return html`<tr>
  <td data-label="Email"><span class="cell">${u.email}${u.owner ? html` <span class="muted small">(owner)</span>` : ''}</span></td>
  <td data-label="Plan">${u.plan === 'pro' ? 'Pro' : 'Free'}</td>
  <td data-label="Created"><time datetime="${u.created_at}">${formatMoment(u.created_at, d.dates)}</time></td>
  <td><form method="post" action="/admin/users/${u.id}/plan">${csrfField(d.csrf)}<input type="hidden" name="plan" value="${other}">
    <button class="small" type="submit" aria-label="Set ${u.email} to ${other === 'pro' ? 'Pro' : 'Free'}">Make ${other === 'pro' ? 'Pro' : 'Free'}</button></form></td>
</tr>`;
}

/** The owner's page: every user with their plan, and whether sign-up is open. */
export function adminPage(d: AdminPageData): string {
  const body = html`<h1>Server administration</h1>
${d.notice ? html`<div class="alert success" role="status">${d.notice}</div>` : ''}
${signupSection(d)}
<section class="card" aria-labelledby="users-heading">
  <h2 id="users-heading">Users</h2>
  <table><caption class="visually-hidden">Users of this server</caption>
  <thead><tr><th scope="col">Email</th><th scope="col">Plan</th><th scope="col">Created</th><th scope="col"><span class="visually-hidden">Change plan</span></th></tr></thead>
  <tbody>${d.users.map((u) => userRow(d, u))}</tbody></table>
</section>`;
  return renderPage({ title: 'Server administration', section: 'settings', user: d.user, csrf: d.csrf, body });
}
