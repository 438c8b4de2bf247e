import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../helpers/dialects.js';
import { capture, ok } from '../helpers/items.js';
import { client, createTestApp, createUser, type TestApp, type TestUser } from '../helpers/test-app.js';

/* Saved filters as read-only CalDAV collections (contract "Calendar apps: CalDAV and feeds"), on every dialect. */

const basic = (token: string) => `Basic ${Buffer.from(`anyone:${token}`).toString('base64')}`;
const PROPS =
  '<d:propfind xmlns:d="DAV:" xmlns:c="urn:ietf:params:xml:ns:caldav" xmlns:cs="http://calendarserver.org/ns/"><d:prop><d:displayname/><d:current-user-privilege-set/><c:supported-calendar-component-set/><d:sync-token/><cs:getctag/></d:prop></d:propfind>';
const SYNC = (token: string) =>
  `<d:sync-collection xmlns:d="DAV:"><d:sync-token>${token}</d:sync-token><d:sync-level>1</d:sync-level><d:prop><d:getetag/></d:prop></d:sync-collection>`;
const VTODO = [
  'BEGIN:VCALENDAR',
  'VERSION:2.0',
  'PRODID:-//Test//EN',
  'BEGIN:VTODO',
  'UID:x-1',
  'DTSTAMP:20261129T080000Z',
  'SUMMARY:new',
  'END:VTODO',
  'END:VCALENDAR',
  '',
].join('\r\n');

describe.each(DIALECTS)('caldav saved-filter collections (%s)', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(dialect);
  });
  afterAll(async () => {
    await t?.close();
  });

  function dav(user: TestUser) {
    return async (method: string, url: string, body?: string, headers: Record<string, string> = {}) => {
      const res = await t.app.inject({
        method: method as 'GET',
        url,
        headers: { authorization: basic(user.token), ...(body !== undefined ? { 'content-type': 'application/xml' } : {}), ...headers },
        ...(body !== undefined ? { payload: body } : {}),
      });
      return { status: res.statusCode, text: res.body, headers: res.headers };
    };
  }

  it('lists a filter as a read-only VTODO collection named after it, holding the todos its query picks', async () => {
    const user = await createUser(t);
    const api = client(t.app, user.token);
    const req = dav(user);
    const call = await capture(api, 'call Ana', { parse: false, tags: ['calls'] });
    await capture(api, 'write the report', { parse: false });
    await capture(api, 'a note on calls', { parse: false, tags: ['calls'], type: 'note' });
    const filter = ok(await api.post('filters', { name: 'Phone calls', query: '@calls' }), 201).filter;
    const segment = `filter-${filter.id}`;

    const home = await req('PROPFIND', '/dav/calendars/', PROPS, { depth: '1' });
    expect(home.status).toBe(207);
    const collection = home.text.split('<d:response>').find((r) => r.includes(`/dav/calendars/${segment}/`));
    expect(collection).toContain('<d:displayname>Phone calls</d:displayname>');
    expect(collection).toContain('<c:comp name="VTODO"/>');
    expect(collection).toContain('<d:read/>');
    expect(collection).not.toContain('<d:write/>');
    expect(collection).not.toContain('<d:bind/>');

    const listed = await req(
      'REPORT',
      `/dav/calendars/${segment}/`,
      '<c:calendar-query xmlns:d="DAV:" xmlns:c="urn:ietf:params:xml:ns:caldav"><d:prop><d:getetag/><c:calendar-data/></d:prop><c:filter><c:comp-filter name="VCALENDAR"><c:comp-filter name="VTODO"/></c:comp-filter></c:filter></c:calendar-query>',
      { depth: '1' },
    );
    expect(listed.status).toBe(207);
    expect(listed.text).toContain(`/dav/calendars/${segment}/${call.id}.ics`);
    expect(listed.text).toContain('SUMMARY:call Ana');
    expect(listed.text).not.toContain('write the report');
    expect(listed.text).not.toContain('a note on calls');
    const got = await req('GET', `/dav/calendars/${segment}/${call.id}.ics`);
    expect(got.status).toBe(200);
    expect(got.text).toContain(`UID:${call.id}`);
  });

  it('refuses PUT, DELETE, PROPPATCH and collection DELETE with 403 and changes nothing', async () => {
    const user = await createUser(t);
    const api = client(t.app, user.token);
    const req = dav(user);
    const call = await capture(api, 'call Ana', { parse: false, tags: ['calls'] });
    const filter = ok(await api.post('filters', { name: 'Calls', query: '@calls' }), 201).filter;
    const base = `/dav/calendars/filter-${filter.id}/`;
    const before = ok(await api.get('items')).items;

    const put = await req('PUT', `${base}x-1.ics`, VTODO, { 'content-type': 'text/calendar' });
    expect(put.status).toBe(403);
    expect(put.text).toContain('need-privileges');
    expect((await req('PUT', `${base}${call.id}.ics`, VTODO.replace('UID:x-1', `UID:${call.id}`), { 'content-type': 'text/calendar' })).status).toBe(403);
    expect((await req('DELETE', `${base}${call.id}.ics`)).status).toBe(403);
    expect((await req('DELETE', base)).status).toBe(403);
    const patch = await req(
      'PROPPATCH',
      base,
      '<d:propertyupdate xmlns:d="DAV:"><d:set><d:prop><d:displayname>Renamed</d:displayname></d:prop></d:set></d:propertyupdate>',
    );
    expect(patch.text).toContain('403 Forbidden');
    expect(ok(await api.get('items')).items).toEqual(before);
    expect(ok(await api.get(`filters/${filter.id}`)).filter.name).toBe('Calls');
  });

  it('sync-collection: changes of members come as changed; when the members change, the token is refused so the client lists afresh', async () => {
    const user = await createUser(t);
    const api = client(t.app, user.token);
    const req = dav(user);
    const call = await capture(api, 'call Ana', { parse: false, tags: ['calls'] });
    const filter = ok(await api.post('filters', { name: 'Calls', query: '@calls' }), 201).filter;
    const base = `/dav/calendars/filter-${filter.id}/`;
    const first = await req('REPORT', base, SYNC(''));
    expect(first.status).toBe(207);
    expect(first.text).toContain(`${call.id}.ics`);
    const token = /<d:sync-token>([^<]+)<\/d:sync-token>/.exec(first.text)![1]!;
    const props = await req('PROPFIND', base, PROPS, { depth: '0' });
    expect(props.text).toContain(`<d:sync-token>${token}</d:sync-token>`);

    ok(await api.patch(`items/${call.id}`, { title: 'call Ana back' }));
    // On PostgreSQL the change feed holds a change back while an older transaction of the cluster is
    // still open (another database's, on a shared server): ask again, a bounded number of times.
    let edited = await req('REPORT', base, SYNC(token));
    for (let i = 0; i < 50 && !edited.text.includes(`${call.id}.ics`); i += 1) {
      await new Promise((r) => setTimeout(r, 100));
      edited = await req('REPORT', base, SYNC(token));
    }
    expect(edited.status).toBe(207);
    expect(edited.text).toContain(`${call.id}.ics`);
    const next = /<d:sync-token>([^<]+)<\/d:sync-token>/.exec(edited.text)![1]!;

    ok(await api.patch(`items/${call.id}`, { tags: [] }));
    const refused = await req('REPORT', base, SYNC(next));
    expect(refused.status).toBe(403);
    expect(refused.text).toContain('valid-sync-token');
    const afresh = await req('REPORT', base, SYNC(''));
    expect(afresh.status).toBe(207);
    expect(afresh.text).not.toContain(`${call.id}.ics`);
  });

  it("another user's filter collection is 404", async () => {
    const owner = await createUser(t);
    const filter = ok(await client(t.app, owner.token).post('filters', { name: 'Mine', query: 'today' }), 201).filter;
    const stranger = dav(await createUser(t));
    expect((await stranger('PROPFIND', `/dav/calendars/filter-${filter.id}/`, PROPS, { depth: '0' })).status).toBe(404);
  });
});
