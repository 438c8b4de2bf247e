import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fingerprint } from '../helpers/db-fingerprint.js';
import { DIALECTS } from '../helpers/dialects.js';
import { ok } from '../helpers/items.js';
import { client, createTestApp, type TestApp } from '../helpers/test-app.js';
import { newState, signedInBrowser, webClient, type WebClient } from '../helpers/web-client.js';

interface FoundForm {
  page: string;
  action: string;
  fields: Record<string, string>;
}

/** Every POST target of a page (a form's action and its buttons' formaction), with the form's fields. */
function formsOf(page: string, body: string): FoundForm[] {
  return [...body.matchAll(/<form[^>]*method="post"[^>]*action="([^"]+)"[^>]*>([\s\S]*?)<\/form>/g)].flatMap(([whole, action, inner]) => {
    const fields: Record<string, string> = {};
    for (const [, name, options] of inner!.matchAll(/<select[^>]*name="([^"]+)"[^>]*>([\s\S]*?)<\/select>/g)) {
      const selected = /<option(?: value="([^"]*)")? selected>([^<]*)/.exec(options!) ?? /<option(?: value="([^"]*)")?[^>]*>([^<]*)/.exec(options!);
      fields[name!] = selected?.[1] ?? selected?.[2] ?? '';
    }
    for (const [, name, value] of inner!.matchAll(/<(?:input|textarea|button)[^>]*name="([^"]+)"(?:[^>]*value="([^"]*)")?/g)) {
      fields[name!] ??= value ?? 'some text';
    }
    // A form whose only submitters sit outside it (`form="act"`, the list rows' done buttons) is posted to their formaction.
    const id = /id="([^"]+)"/.exec(whole.slice(0, whole.indexOf('>')))?.[1];
    const outside = id ? [...body.matchAll(new RegExp(`<button[^>]*form="${id}"[^>]*formaction="([^"]+)"`, 'g'))].map((m) => m[1]!) : [];
    const own = /<button(?![^>]*type="button")/.test(inner!) ? [action!] : [];
    const targets = [...own, ...[...inner!.matchAll(/formaction="([^"]+)"/g)].map((m) => m[1]!), ...outside];
    return targets.map((target) => ({ page, action: target.replaceAll('&amp;', '&'), fields }));
  });
}

/** The forms the page script builds in each row's ⋯ menu (client/regions/row-menu.ts): the row's done form's fields, other routes. */
function menuForms(forms: readonly FoundForm[], inbox: string): FoundForm[] {
  const toggle = forms.find((f) => f.action.endsWith('/toggle'))!;
  const base = toggle.action.replace(/\/toggle$/, '');
  // The page's project choices (its <template id="project-options">) feed the Move list.
  const projectId = /<template id="project-options"><option value="([^"]+)"/.exec(inbox)![1]!;
  const fields = { ...toggle.fields, due_date: '2026-12-01', due_time: '', project_id: projectId };
  return ['due', 'move', 'archive', 'delete'].map((action) => ({ ...toggle, action: `${base}/${action}`, fields }));
}

describe.each(DIALECTS)('every web form (%s)', (dialect) => {
  let t: TestApp;
  let web: WebClient;
  let userId: string;

  beforeAll(async () => {
    t = await createTestApp(dialect);
    ({ web, userId } = await signedInBrowser(t));
  });
  afterAll(async () => t?.close());

  async function allForms(): Promise<FoundForm[]> {
    await web.submit('/inbox', '/inbox/capture', { text: 'an item with buttons', return: '/inbox' });
    await web.submit('/settings/keys', '/settings/keys', { label: 'a key with a revoke button' });
    const state = newState();
    ok(await client(t.app).post('connect/start', { state, label: 'agent' }));
    const pages = ['/inbox', '/settings/keys', `/connect/agent?state=${state}`];
    const forms = (await Promise.all(pages.map(async (p) => formsOf(p, (await web.get(p)).body)))).flat();
    const anonymous = webClient(t.app);
    for (const p of ['/login', '/signup']) forms.push(...formsOf(p, (await anonymous.get(p)).body));
    return [...forms, ...menuForms(forms, (await web.get('/inbox')).body)];
  }

  it('is refused with 403 and writes nothing when posted without its CSRF token', async () => {
    const forms = await allForms();
    const actions = new Set(forms.map((f) => f.action.replace(/[0-9a-f-]{36}/, '{id}')));
    // The forms the app has: each must be found, so none escapes this test.
    expect([...actions].sort()).toEqual([
      '/connect/agent',
      '/inbox/capture',
      '/inbox/items/{id}/archive',
      '/inbox/items/{id}/delete',
      '/inbox/items/{id}/due',
      '/inbox/items/{id}/move',
      '/inbox/items/{id}/toggle',
      '/login',
      '/logout',
      '/settings/import',
      '/settings/keys',
      '/settings/keys/{id}/revoke',
      '/signup',
    ]);
    for (const form of forms) {
      expect(form.fields._csrf, `${form.page} → ${form.action} has a token`).toBeDefined();
      const { _csrf: _token, ...rest } = form.fields;
      const before = await fingerprint(t.services.db);
      const res = await web.postRaw(form.action, rest);
      expect(res.status, `${form.page} → ${form.action}`).toBe(403);
      expect(res.body).toContain('This form has expired');
      expect(await fingerprint(t.services.db)).toEqual(before);
    }
    // Still signed in: the refused sign-out did not happen.
    expect((await web.get('/')).status).toBe(200);
  });

  it('is accepted with it', async () => {
    // The import form needs a file in a multipart body (web-admin.test.ts sends one).
    const forms = (await allForms()).filter((f) => !['/login', '/signup', '/logout', '/settings/import'].includes(f.action));
    for (const form of forms) {
      const res = await web.postRaw(form.action, { ...form.fields, text: 'posted with its token', label: 'key' });
      expect(res.status, `${form.page} → ${form.action}: ${res.body.slice(0, 200)}`).toBeLessThan(400);
    }
    expect((await t.services.keys.list(userId)).length).toBeGreaterThan(0);
  });
});

describe.each(DIALECTS)('web error pages (%s)', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(dialect);
  });
  afterAll(async () => t?.close());

  it('a browser asking for a page that does not exist gets an HTML 404; the API keeps its JSON 404', async () => {
    const page = await t.app.inject({ method: 'GET', url: '/no/such/page', headers: { accept: 'text/html' } });
    expect(page.statusCode).toBe(404);
    expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(page.body).toContain('Page not found');
    for (const headers of [{ accept: 'text/html' }, {}]) {
      const api = await t.app.inject({ method: 'GET', url: '/api/v1/no/such/route', headers });
      expect(api.statusCode).toBe(404);
      expect(JSON.parse(api.body)).toMatchObject({ error: 'not_found' });
    }
    expect(JSON.parse((await t.app.inject({ method: 'GET', url: '/no/such/page' })).body)).toMatchObject({ error: 'not_found' });
  });

  it('a form of another shape, or too large, gets an HTML page, not JSON', async () => {
    const web = webClient(t.app);
    await web.get('/login');
    const wrongType = await t.app.inject({ method: 'POST', url: '/login', headers: { 'content-type': 'text/plain' }, payload: 'x' });
    expect(wrongType.statusCode).toBe(415);
    expect(wrongType.headers['content-type']).toBe('text/html; charset=utf-8');
    const huge = await t.app.inject({
      method: 'POST',
      url: '/login',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: `email=${'x'.repeat(1024 * 1024 + 10)}`,
    });
    expect(huge.statusCode).toBe(413);
    expect(huge.headers['content-type']).toBe('text/html; charset=utf-8');
    const repeated = await t.app.inject({ method: 'GET', url: '/login?next=/a&next=/b', headers: { accept: 'text/html' } });
    expect(repeated.statusCode).toBe(400);
    expect(repeated.headers['content-type']).toBe('text/html; charset=utf-8');
  });
});
