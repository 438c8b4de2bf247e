import { PASSWORD_MAX, PASSWORD_MIN } from '../../modules/accounts/accounts.service.js';
import { sentence } from '../format.js';
import { html, type SafeHtml } from '../html.js';
import { csrfField, renderPage } from '../layout.js';

export interface AuthFormState {
  csrf: string;
  /** Where to go after signing in (a local path), kept through the form. */
  next: string;
  email?: string;
  error?: string;
}

const errorAlert = (error: string | undefined): SafeHtml | string =>
  error ? html`<div class="alert error" role="alert" id="form-error">${sentence(error)}</div>` : '';

const nextField = (next: string): SafeHtml | string => (next !== '/' ? html`<input type="hidden" name="next" value="${next}">` : '');

const withNext = (path: string, next: string): string => (next !== '/' ? `${path}?next=${encodeURIComponent(next)}` : path);

export function loginPage(s: AuthFormState): string {
  const body = html`<div class="narrow">
<h1>Sign in</h1>
${s.next.startsWith('/connect/agent') ? html`<p class="alert warn">Sign in to review the app that asked to connect to your inbox.</p>` : ''}
<form class="card" method="post" action="/login">
  ${errorAlert(s.error)}
  ${csrfField(s.csrf)}${nextField(s.next)}
  <div class="field"><label for="email">Email</label>
    <input id="email" name="email" type="email" autocomplete="username" required value="${s.email ?? ''}"${s.error ? html` aria-describedby="form-error"` : ''}${s.email ? '' : html` autofocus`}></div>
  <div class="field"><label for="password">Password</label>
    <input id="password" name="password" type="password" autocomplete="current-password" required${s.email ? html` autofocus` : ''}></div>
  <button class="primary" type="submit">Sign in</button>
</form>
<p>No account yet? <a href="${withNext('/signup', s.next)}">Sign up</a></p>
</div>`;
  return renderPage({ title: 'Sign in', section: 'login', user: null, csrf: s.csrf, body });
}

export function signupPage(s: AuthFormState): string {
  const body = html`<div class="narrow">
<h1>Create your inbox</h1>
<form class="card" method="post" action="/signup">
  ${errorAlert(s.error)}
  ${csrfField(s.csrf)}${nextField(s.next)}
  <input type="hidden" name="timezone" value="" data-timezone>
  <div class="field"><label for="email">Email</label>
    <input id="email" name="email" type="email" autocomplete="email" required value="${s.email ?? ''}"${s.error ? html` aria-describedby="form-error"` : ''} autofocus></div>
  <div class="field"><label for="password">Password <span class="hint">(at least ${PASSWORD_MIN} characters)</span></label>
    <input id="password" name="password" type="password" autocomplete="new-password" minlength="${PASSWORD_MIN}" maxlength="${PASSWORD_MAX}" required></div>
  <button class="primary" type="submit">Sign up</button>
</form>
<p>Already have an account? <a href="${withNext('/login', s.next)}">Sign in</a></p>
</div>`;
  return renderPage({ title: 'Sign up', section: 'signup', user: null, csrf: s.csrf, body });
}

/** Sign-up closed by the owner or by ALLOW_SIGNUP=false. */
export function signupClosedPage(s: AuthFormState): string {
  const body = html`<div class="narrow">
<h1>Sign-up is closed</h1>
<p class="alert warn" role="status">This server does not take new accounts. Its owner creates them.</p>
<p>Already have an account? <a href="${withNext('/login', s.next)}">Sign in</a></p>
</div>`;
  return renderPage({ title: 'Sign-up closed', section: 'signup', user: null, csrf: s.csrf, body });
}
