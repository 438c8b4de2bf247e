import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startListeningApp, type ListeningApp } from '../clients/listening-app.js';
import { DIALECTS } from '../helpers/dialects.js';
import { client } from '../helpers/test-app.js';
import { openSse, type SseReader } from '../helpers/sse-reader.js';
import { waitFor } from '../helpers/wait.js';
import { signedInBrowser, type WebClient } from '../helpers/web-client.js';

/*
 * GET /live (issue 33 point 5, decision 0049): the change stream of the signed-in user for an open
 * page, under the session cookie. The same service as GET /api/v1/changes/stream: same events,
 * same cursor rules, and the same cap of open streams a user, counted across both routes.
 */
describe.each(DIALECTS)('GET /live, the web page stream (%s)', (dialect) => {
  let t: ListeningApp;
  const open: SseReader[] = [];
  const cookieOf = (web: WebClient) => [...web.jar].map(([k, v]) => `${k}=${v}`).join('; ');
  const live = async (web: WebClient | null, query = '', headers: Record<string, string> = {}) => {
    const reader = await openSse(`${t.baseUrl}/live${query}`, { ...(web ? { cookie: cookieOf(web) } : {}), ...headers });
    open.push(reader);
    return reader;
  };
  /** A signed-in browser and an API key of the same user (what another device uses). */
  const person = async () => {
    const browser = await signedInBrowser(t);
    const { token } = await t.services.keys.mint(browser.userId, 'phone');
    return { ...browser, api: client(t.app, token) };
  };

  beforeAll(async () => {
    t = await startListeningApp(dialect, { live: { keepAliveMs: 100, maxStreamsPerUser: 3 } });
    // The first account is the server's owner; the tests below are ordinary users.
    await signedInBrowser(t);
  });
  afterAll(async () => {
    for (const reader of open) reader.close();
    await t?.close();
  });

  it('refuses a browser without a session with 401, not a redirect and not a stream', async () => {
    const anonymous = await live(null);
    await anonymous.waitForEnd();
    expect(anonymous.status).toBe(401);
    expect(anonymous.headers['content-type']).toMatch(/^text\/html/);
    expect(anonymous.headers.location).toBeUndefined();
    const forged = await live(null, '', { cookie: 'cin_session=AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA' });
    await forged.waitForEnd();
    expect(forged.status).toBe(401);
    // An API key is not a session: the page stream is for pages.
    const { api } = await person();
    expect((await api.get('/live')).status).toBe(401);
  });

  it("sends a change made through the API as the API's stream does, and resumes after Last-Event-ID", async () => {
    const { web, api } = await person();
    const s = await live(web);
    expect(s.status).toBe(200);
    expect(s.headers['content-type']).toMatch(/^text\/event-stream/);
    const first = await api.post('capture', { text: 'captured on the phone' });
    expect(first.status).toBe(201);
    const [event] = await s.waitForEvents(1);
    expect(event!.event).toBe('change');
    const change = JSON.parse(event!.data);
    expect(event!.id).toBe(change.cursor);
    expect(change.data.item.title).toBe('captured on the phone');
    // A capture from another tab (the web form) wakes it too.
    expect((await web.submit('/', '/inbox/capture', { text: 'from another tab', return: '/' })).status).toBe(303);
    await s.waitForEvents(2);
    expect(JSON.parse(s.events[1]!.data).data.item.title).toBe('from another tab');
    // EventSource's reconnect: after the last id it saw, nothing again, then only what is new.
    s.close();
    await api.post('capture', { text: 'while away' });
    const again = await live(web, '', { 'last-event-id': s.events[0]!.id! });
    const resumed = await again.waitForEvents(2);
    expect(resumed.map((e) => JSON.parse(e.data).data.item.title)).toEqual(['from another tab', 'while away']);
    const bad = await live(web, '?cursor=not-a-cursor');
    await bad.waitForEnd();
    expect(bad.status).toBe(400);
  });

  it("counts the page's streams in the user's cap together with the API's, and frees the place when one closes", async () => {
    const { web, userId } = await person();
    const { token } = await t.services.keys.mint(userId, 'sync');
    const apiStream = await openSse(`${t.baseUrl}/api/v1/changes/stream`, { authorization: `Bearer ${token}` });
    open.push(apiStream);
    expect(apiStream.status).toBe(200);
    const tabs = [await live(web), await live(web)];
    expect(tabs.map((s) => s.status)).toEqual([200, 200]);
    const fourth = await live(web);
    await fourth.waitForEnd();
    expect(fourth.status).toBe(429);
    expect(fourth.body).toContain('most 3 change streams may be open');
    const viaApi = await openSse(`${t.baseUrl}/api/v1/changes/stream`, { authorization: `Bearer ${token}` });
    open.push(viaApi);
    await viaApi.waitForEnd();
    expect(viaApi.status).toBe(429);
    tabs[0]!.close();
    // The server hears the close on its next turn: a new tab gets the place then.
    const next = await waitFor(async () => {
      const s = await live(web);
      if (s.status === 200) return s;
      await s.waitForEnd();
      return undefined;
    });
    expect(next.status).toBe(200);
  });

  it('ends the stream of a session that was signed out elsewhere instead of sending it the next change', async () => {
    const { web, api } = await person();
    const s = await live(web);
    expect(s.status).toBe(200);
    const signOut = await web.submit('/', '/logout', {});
    expect(signOut.status).toBe(303);
    await api.post('capture', { text: 'after signing out' });
    await s.waitForEnd();
    expect(s.events).toHaveLength(0);
    expect(s.ended).toBe(true);
  });
});
