import { describe, expect, it } from 'vitest';
import { html, SafeHtml } from '../../src/web/html.js';
import { settingsPage, type WebhookSummary } from '../../src/web/views/settings.views.js';

describe('html``', () => {
  it('escapes interpolated text and keeps nested html as markup', () => {
    const name = `<img src=x onerror="alert('1')"> & co`;
    const out = html`<p title="${name}">${name}${html`<b>ok</b>`}</p>`;
    expect(out).toBeInstanceOf(SafeHtml);
    expect(out.value).toBe(
      '<p title="&lt;img src=x onerror=&quot;alert(&#39;1&#39;)&quot;&gt; &amp; co">&lt;img src=x onerror=&quot;alert(&#39;1&#39;)&quot;&gt; &amp; co<b>ok</b></p>',
    );
  });

  it('renders arrays, and nothing for null, undefined and booleans', () => {
    expect(html`${[1, html`<i>2</i>`, '<3']}|${null}|${undefined}|${false}|${true}`.value).toBe('1<i>2</i>&lt;3||||');
    expect(html`<ul>${[['a&b', [html`<li>x</li>`, null, "it's"]], 'plain']}</ul>`.value).toBe('<ul>a&amp;b<li>x</li>it&#39;splain</ul>');
  });
});

describe('developer settings webhooks section', () => {
  const base = {
    user: { id: 'u', email: 'a@example.test', plan: 'pro' as const, timezone: 'Europe/Berlin' },
    csrf: 'token',
    keys: [],
    dates: { zone: 'Europe/Berlin', locale: 'en-GB' },
    timeZones: ['UTC', 'Europe/Berlin'],
  };
  const hook = (overrides: Partial<WebhookSummary>): WebhookSummary => ({
    id: 'w1',
    url: 'https://hooks.example.test/in',
    events: ['item.created', 'item.completed'],
    description: 'CI <bot>',
    created_at: '2026-11-21T10:00:00.000Z',
    last_failure_status: null,
    last_failure_reason: null,
    last_failure_at: null,
    ...overrides,
  });

  it('is left out when the server has no webhooks', () => {
    expect(settingsPage({ ...base, webhooks: null })).not.toContain('Webhooks');
  });

  it('lists each webhook read-only with its events and last failure, in the user’s time zone', () => {
    const page = settingsPage({
      ...base,
      webhooks: [
        hook({}),
        hook({
          id: 'w2',
          url: 'https://down.example.test/',
          last_failure_status: 503,
          last_failure_reason: 'http_status',
          last_failure_at: '2026-11-21T10:00:00.000Z',
        }),
        hook({
          id: 'w3',
          url: 'https://slow.example.test/',
          last_failure_status: 0,
          last_failure_reason: 'timeout',
          last_failure_at: '2026-11-21T10:00:00.000Z',
        }),
      ],
    });
    expect(page).toContain('<h2 id="webhooks-heading">Webhooks</h2>');
    expect(page).toContain('<code>https://hooks.example.test/in</code>');
    expect(page).toContain('CI &lt;bot&gt;');
    expect(page).toContain('item.created, item.completed');
    expect(page).toMatch(/<td data-label="Last failure">None<\/td>/);
    expect(page).toMatch(/HTTP 503, <time datetime="2026-11-21T10:00:00.000Z">21 Nov 2026, 11:00<\/time>/);
    expect(page).toMatch(/timeout, <time/);
    expect(page).not.toMatch(/<form[^>]*webhooks/);
  });

  it('says so when the user has none', () => {
    expect(settingsPage({ ...base, webhooks: [] })).toContain('No webhooks.');
  });

  it('writes dates in the browser locale, as the other pages do', () => {
    const failing = [hook({ last_failure_status: 503, last_failure_reason: 'http_status', last_failure_at: '2026-11-21T16:00:00.000Z' })];
    expect(settingsPage({ ...base, dates: { zone: 'Europe/Berlin', locale: 'en-US' }, webhooks: failing })).toContain('Nov 21, 2026, 5 PM</time>');
    expect(settingsPage({ ...base, dates: { zone: 'Europe/Berlin', locale: 'de-DE' }, webhooks: failing })).toContain('21. Nov. 2026, 17:00</time>');
  });
});
