import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../helpers/dialects.js';
import { client, createTestApp, createUser, type TestApp, type TestUser } from '../helpers/test-app.js';

/* The CalDAV server (contract "Calendar apps: CalDAV and feeds") through HTTP, on every dialect. */

const basic = (token: string) => `Basic ${Buffer.from(`anyone:${token}`).toString('base64')}`;

function vtodo(uid: string, lines: string[] = []): string {
  return [
    'BEGIN:VCALENDAR',
    'VERSION:2.0',
    'PRODID:-//Test//EN',
    'BEGIN:VTODO',
    `UID:${uid}`,
    'DTSTAMP:20261129T080000Z',
    ...lines,
    'END:VTODO',
    'END:VCALENDAR',
    '',
  ].join('\r\n');
}

const PROPFIND_ETAGS = '<d:propfind xmlns:d="DAV:"><d:prop><d:getetag/></d:prop></d:propfind>';

describe.each(DIALECTS)('caldav (%s)', (dialect) => {
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
        headers: {
          authorization: basic(user.token),
          ...(body !== undefined ? { 'content-type': headers['content-type'] ?? 'application/xml' } : {}),
          ...headers,
        },
        ...(body !== undefined ? { payload: body } : {}),
      });
      return { status: res.statusCode, text: res.body, headers: res.headers };
    };
  }

  it('asks for Basic sign-in: 401 with WWW-Authenticate for a missing or wrong key', async () => {
    const anon = await t.app.inject({ method: 'PROPFIND' as 'GET', url: '/dav/' });
    expect(anon.statusCode).toBe(401);
    expect(anon.headers['www-authenticate']).toMatch(/^Basic realm="Capture Inbox"/);
    const wrong = await t.app.inject({
      method: 'PROPFIND' as 'GET',
      url: '/dav/',
      headers: { authorization: basic('cin_abcdefgh_wrongwrongwrongwrongwrongwrongwrong') },
    });
    expect(wrong.statusCode).toBe(401);
    expect(wrong.headers['content-type']).toMatch(/text\/plain/);
  });

  it('discovers: /.well-known/caldav redirects, OPTIONS says DAV, PROPFIND / names principal and home', async () => {
    const user = await createUser(t);
    const req = dav(user);
    const wk = await t.app.inject({ method: 'GET', url: '/.well-known/caldav' });
    expect(wk.statusCode).toBe(301);
    expect(wk.headers.location).toBe('/dav/');
    const wkp = await t.app.inject({ method: 'PROPFIND' as 'GET', url: '/.well-known/caldav' });
    expect(wkp.statusCode).toBe(301);
    const options = await t.app.inject({ method: 'OPTIONS', url: '/dav/calendars/' });
    expect(options.headers.dav).toBe('1, 3, calendar-access');
    expect(options.headers.allow).toContain('REPORT');
    for (const url of ['/', '/dav/', '/dav/principal/']) {
      const res = await req(
        'PROPFIND',
        url,
        '<A:propfind xmlns:A="DAV:"><A:prop><A:current-user-principal/><B:calendar-home-set xmlns:B="urn:ietf:params:xml:ns:caldav"/><A:displayname/></A:prop></A:propfind>',
        { depth: '0' },
      );
      expect(res.status).toBe(207);
      expect(res.text).toContain('<d:href>/dav/principal/</d:href>');
      expect(res.text).toContain('<d:href>/dav/calendars/</d:href>');
    }
  });

  it('lists a collection per project and notes, with ctag, sync-token, components and privileges', async () => {
    const user = await createUser(t);
    const api = client(t.app, user.token);
    const project = (await api.post('projects', { name: 'Garden' })).body;
    const res = await dav(user)(
      'PROPFIND',
      '/dav/calendars/',
      '<d:propfind xmlns:d="DAV:" xmlns:c="urn:ietf:params:xml:ns:caldav" xmlns:x="http://calendarserver.org/ns/"><d:prop><d:displayname/><d:resourcetype/><c:supported-calendar-component-set/><x:getctag/><d:sync-token/><d:current-user-privilege-set/><d:supported-report-set/></d:prop></d:propfind>',
      { depth: '1' },
    );
    expect(res.status).toBe(207);
    expect(res.text).toContain(`<d:href>/dav/calendars/${user.inboxId}/</d:href>`);
    expect(res.text).toContain(`<d:href>/dav/calendars/${project.id}/</d:href>`);
    expect(res.text).toContain('<d:href>/dav/calendars/notes/</d:href>');
    expect(res.text).toContain('<d:displayname>Garden</d:displayname>');
    expect(res.text).toContain('<c:comp name="VTODO"/>');
    expect(res.text).toContain('<c:comp name="VJOURNAL"/>');
    expect(res.text).toMatch(/<cs:getctag>urn:capture-inbox:sync:[^<]+<\/cs:getctag>/);
    expect(res.text).toContain('<c:calendar-multiget/>');
  });

  it('creates by PUT, keeps what it does not map, and maps summary, status, due, categories', async () => {
    const user = await createUser(t);
    const req = dav(user);
    const api = client(t.app, user.token);
    const body = vtodo('client-uid-1', [
      'SUMMARY:Buy seeds',
      'DESCRIPTION:tomatoes',
      'DUE:20261201T100000Z',
      'CATEGORIES:garden,shop',
      'PRIORITY:1',
      'X-APPLE-SORT-ORDER:42',
      'GEO:37.3;-122.0',
    ]);
    const put = await req('PUT', `/dav/calendars/${user.inboxId}/seeds.ics`, body, { 'content-type': 'text/calendar', 'if-none-match': '*' });
    expect(put.status).toBe(201);
    expect(put.headers.etag).toMatch(/^"/);
    const items = (await api.get('items')).body.items;
    expect(items).toHaveLength(1);
    expect(items[0]).toMatchObject({
      title: 'Buy seeds',
      content_md: 'tomatoes',
      due_at: '2026-12-01T10:00:00.000Z',
      tags: ['garden', 'shop'],
      status: 'todo',
    });
    const got = await req('GET', `/dav/calendars/${user.inboxId}/seeds.ics`);
    expect(got.status).toBe(200);
    expect(got.headers.etag).toBe(put.headers.etag);
    expect(got.text).toContain('UID:client-uid-1');
    expect(got.text).toContain('PRIORITY:1');
    expect(got.text).toContain('X-APPLE-SORT-ORDER:42');
    expect(got.text).toContain('GEO:37.3;-122');
    // A change made in the API shows, the rest stays.
    await api.patch(`items/${items[0].id}`, { status: 'done', title: 'Bought seeds' });
    const after = await req('GET', `/dav/calendars/${user.inboxId}/seeds.ics`);
    expect(after.text).toContain('SUMMARY:Bought seeds');
    expect(after.text).toContain('STATUS:COMPLETED');
    expect(after.text).toMatch(/COMPLETED:\d{8}T\d{6}Z/);
    expect(after.text).toContain('X-APPLE-SORT-ORDER:42');
    // Conditions: a stale If-Match and If-None-Match * on an existing object are 412, nothing changes.
    const stale = await req('PUT', `/dav/calendars/${user.inboxId}/seeds.ics`, vtodo('client-uid-1', ['SUMMARY:Stale']), {
      'content-type': 'text/calendar',
      'if-match': put.headers.etag as string,
    });
    expect(stale.status).toBe(412);
    const again = await req('PUT', `/dav/calendars/${user.inboxId}/seeds.ics`, vtodo('client-uid-1', ['SUMMARY:Again']), {
      'content-type': 'text/calendar',
      'if-none-match': '*',
    });
    expect(again.status).toBe(412);
    expect((await api.get(`items/${items[0].id}`)).body.title).toBe('Bought seeds');
    // An update with the current ETag is 204 with the new ETag; completion from the phone maps back.
    const update = await req('PUT', `/dav/calendars/${user.inboxId}/seeds.ics`, vtodo('client-uid-1', ['SUMMARY:Seeds again', 'STATUS:NEEDS-ACTION']), {
      'content-type': 'text/calendar',
      'if-match': after.headers.etag as string,
    });
    expect(update.status).toBe(204);
    const item = (await api.get(`items/${items[0].id}`)).body;
    expect(item).toMatchObject({ title: 'Seeds again', is_completed: false, status: 'todo', tags: [] });
    expect(update.headers.etag).toBe((await api.get(`items/${items[0].id}`)).headers.etag);
  });

  it('serves an item made elsewhere at {id}.ics with UID = id, and DELETE removes it', async () => {
    const user = await createUser(t);
    const api = client(t.app, user.token);
    const item = (await api.post('capture', { text: 'Call Ana' })).body;
    const req = dav(user);
    const got = await req('GET', `/dav/calendars/${user.inboxId}/${item.id}.ics`);
    expect(got.status).toBe(200);
    expect(got.text).toContain(`UID:${item.id}`);
    expect(got.text).toContain('SUMMARY:Call Ana');
    expect((await req('DELETE', `/dav/calendars/${user.inboxId}/${item.id}.ics`, undefined, { 'if-match': '"nope"' })).status).toBe(412);
    expect((await req('DELETE', `/dav/calendars/${user.inboxId}/${item.id}.ics`)).status).toBe(204);
    expect((await api.get(`items/${item.id}`)).status).toBe(404);
    expect((await req('GET', `/dav/calendars/${user.inboxId}/${item.id}.ics`)).status).toBe(404);
  });

  it('links children that arrive before their parent, and a parent re-sent without children keeps them', async () => {
    const user = await createUser(t);
    const req = dav(user);
    const api = client(t.app, user.token);
    const put = (name: string, body: string) => req('PUT', `/dav/calendars/${user.inboxId}/${name}`, body, { 'content-type': 'text/calendar' });
    expect((await put('child.ics', vtodo('kid', ['SUMMARY:Child', 'RELATED-TO;RELTYPE=PARENT:mom']))).status).toBe(201);
    expect((await put('mom.ics', vtodo('mom', ['SUMMARY:Parent']))).status).toBe(201);
    const items = (await api.get('items')).body.items as Array<{ id: string; title: string; parent_id: string | null }>;
    const parent = items.find((i) => i.title === 'Parent')!;
    expect(items.find((i) => i.title === 'Child')!.parent_id).toBe(parent.id);
    expect((await put('mom.ics', vtodo('mom', ['SUMMARY:Parent renamed']))).status).toBe(204);
    expect(((await api.get('items')).body.items as typeof items).find((i) => i.title === 'Child')!.parent_id).toBe(parent.id);
    const child = await req('GET', `/dav/calendars/${user.inboxId}/child.ics`);
    expect(child.text).toContain('RELATED-TO;RELTYPE=PARENT:mom');
  });

  it('puts notes as VJOURNAL into notes (landing in the Inbox) and refuses the wrong component', async () => {
    const user = await createUser(t);
    const req = dav(user);
    const api = client(t.app, user.token);
    const journal = [
      'BEGIN:VCALENDAR',
      'VERSION:2.0',
      'PRODID:-//T//EN',
      'BEGIN:VJOURNAL',
      'UID:j1',
      'DTSTAMP:20261129T080000Z',
      'SUMMARY:Idea',
      'END:VJOURNAL',
      'END:VCALENDAR',
      '',
    ].join('\r\n');
    expect((await req('PUT', '/dav/calendars/notes/j1.ics', journal, { 'content-type': 'text/calendar' })).status).toBe(201);
    const notes = (await api.get('items')).body.items;
    expect(notes[0]).toMatchObject({ type: 'note', title: 'Idea', project_id: user.inboxId });
    const wrong = await req('PUT', `/dav/calendars/${user.inboxId}/j2.ics`, journal.replace('UID:j1', 'UID:j2'), { 'content-type': 'text/calendar' });
    expect(wrong.status).toBe(403);
    expect(wrong.text).toContain('supported-calendar-component');
    const todoInNotes = await req('PUT', '/dav/calendars/notes/t.ics', vtodo('t1', ['SUMMARY:x']), { 'content-type': 'text/calendar' });
    expect(todoInNotes.status).toBe(403);
  });

  it('answers calendar-query, calendar-multiget and sync-collection from the change feed', async () => {
    const user = await createUser(t);
    const req = dav(user);
    const api = client(t.app, user.token);
    const a = (await api.post('capture', { text: 'A' })).body;
    const b = (await api.post('capture', { text: 'B' })).body;
    await api.post('capture', { text: 'a note', type: 'note' });
    const coll = `/dav/calendars/${user.inboxId}/`;
    const query = await req(
      'REPORT',
      coll,
      '<c:calendar-query xmlns:d="DAV:" xmlns:c="urn:ietf:params:xml:ns:caldav"><d:prop><d:getetag/><c:calendar-data/></d:prop><c:filter><c:comp-filter name="VCALENDAR"><c:comp-filter name="VTODO"/></c:comp-filter></c:filter></c:calendar-query>',
      { depth: '1' },
    );
    expect(query.status).toBe(207);
    expect(query.text).toContain(`${a.id}.ics`);
    expect(query.text).toContain(`${b.id}.ics`);
    expect(query.text).not.toContain('a note');
    const multiget = await req(
      'REPORT',
      coll,
      `<c:calendar-multiget xmlns:d="DAV:" xmlns:c="urn:ietf:params:xml:ns:caldav"><d:prop><d:getetag/><c:calendar-data/></d:prop><d:href>${coll}${a.id}.ics</d:href><d:href>${coll}missing.ics</d:href></c:calendar-multiget>`,
    );
    expect(multiget.text).toContain('SUMMARY:A');
    expect(multiget.text).toMatch(/missing\.ics<\/d:href>\s*<d:status>HTTP\/1.1 404 Not Found/);

    const syncBody = (token: string) =>
      `<d:sync-collection xmlns:d="DAV:"><d:sync-token>${token}</d:sync-token><d:sync-level>1</d:sync-level><d:prop><d:getetag/></d:prop></d:sync-collection>`;
    const first = await req('REPORT', coll, syncBody(''));
    expect(first.status).toBe(207);
    const token = /<d:sync-token>([^<]+)<\/d:sync-token>/.exec(first.text)![1]!;
    expect(first.text).toContain(`${a.id}.ics`);
    await api.patch(`items/${a.id}`, { title: 'A changed' });
    await api.delete(`items/${b.id}`);
    const next = await req('REPORT', coll, syncBody(token));
    expect(next.status).toBe(207);
    expect(next.text).toMatch(new RegExp(`${a.id}\\.ics</d:href>\\s*<d:propstat>`));
    expect(next.text).toMatch(new RegExp(`${b.id}\\.ics</d:href>\\s*<d:status>HTTP/1.1 404 Not Found`));
    const newToken = /<d:sync-token>([^<]+)<\/d:sync-token>/.exec(next.text)![1]!;
    expect(newToken).not.toBe(token);
    const quiet = await req('REPORT', coll, syncBody(newToken));
    expect(quiet.text).not.toContain('.ics');

    const bogus = await req('REPORT', coll, syncBody('urn:capture-inbox:sync:garbage'));
    expect(bogus.status).toBe(403);
    expect(bogus.text).toContain('valid-sync-token');
    const foreign = await req('REPORT', coll, syncBody('http://example.com/token/1'));
    expect(foreign.status).toBe(403);
    const unknown = await req('REPORT', coll, '<d:expand-property xmlns:d="DAV:"/>');
    expect(unknown.status).toBe(403);
    expect(unknown.text).toContain('supported-report');
  });

  it('PROPPATCH renames a project, refuses other properties whole; MKCALENDAR makes one; DELETE of the Inbox is 403', async () => {
    const user = await createUser(t);
    const req = dav(user);
    const api = client(t.app, user.token);
    const made = await req(
      'MKCALENDAR',
      '/dav/calendars/errands/',
      '<c:mkcalendar xmlns:d="DAV:" xmlns:c="urn:ietf:params:xml:ns:caldav"><d:set><d:prop><d:displayname>Errands</d:displayname></d:prop></d:set></c:mkcalendar>',
    );
    expect(made.status).toBe(201);
    const project = ((await api.get('projects')).body.projects as Array<{ id: string; name: string }>).find((p) => p.name === 'Errands')!;
    expect(project).toBeDefined();
    const rename = await req(
      'PROPPATCH',
      '/dav/calendars/errands/',
      '<d:propertyupdate xmlns:d="DAV:"><d:set><d:prop><d:displayname>Chores</d:displayname></d:prop></d:set></d:propertyupdate>',
    );
    expect(rename.status).toBe(207);
    expect(rename.text).toContain('200 OK');
    expect((await api.get(`projects/${project.id}`)).body.name).toBe('Chores');
    const mixed = await req(
      'PROPPATCH',
      '/dav/calendars/errands/',
      '<d:propertyupdate xmlns:d="DAV:" xmlns:a="http://apple.com/ns/ical/"><d:set><d:prop><d:displayname>Other</d:displayname><a:calendar-color>#FF0000</a:calendar-color></d:prop></d:set></d:propertyupdate>',
    );
    expect(mixed.text).toContain('403 Forbidden');
    expect(mixed.text).toContain('424 Failed Dependency');
    expect((await api.get(`projects/${project.id}`)).body.name).toBe('Chores');
    expect((await req('DELETE', `/dav/calendars/${user.inboxId}/`)).status).toBe(403);
    expect((await req('DELETE', '/dav/calendars/errands/')).status).toBe(204);
    expect((await api.get(`projects/${project.id}`)).status).toBe(404);
  });

  it('refuses bad input with a clear 4xx and changes nothing', async () => {
    const user = await createUser(t);
    const req = dav(user);
    const api = client(t.app, user.token);
    const coll = `/dav/calendars/${user.inboxId}/`;
    const laughs =
      '<?xml version="1.0"?><!DOCTYPE l [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;">]><d:propfind xmlns:d="DAV:"><d:prop>&b;</d:prop></d:propfind>';
    expect((await req('PROPFIND', coll, laughs)).status).toBe(400);
    expect((await req('PROPFIND', coll, '<d:propfind xmlns:d="DAV:"><d:prop>')).status).toBe(400);
    const malformed = await req('PUT', `${coll}x.ics`, 'BEGIN:VCALENDAR\r\nthis is not ical', { 'content-type': 'text/calendar' });
    expect(malformed.status).toBe(400);
    expect(malformed.headers['content-type']).toMatch(/^text\/plain/);
    expect(malformed.text).toMatch(/iCalendar/);
    const many = vtodo('many', ['SUMMARY:tags', `CATEGORIES:${Array.from({ length: 10_000 }, (_, i) => `t${i}`).join(',')}`]);
    const started = Date.now();
    expect((await req('PUT', `${coll}many.ics`, many, { 'content-type': 'text/calendar' })).status).toBe(400);
    expect(Date.now() - started).toBeLessThan(2000);
    const huge = await req('PUT', `${coll}huge.ics`, vtodo('huge', [`DESCRIPTION:${'x'.repeat(20 * 1024 * 1024)}`]), { 'content-type': 'text/calendar' });
    expect(huge.status).toBe(413);
    // Another user's item id as UID makes a new item of this user; the other's stays unseen and unchanged.
    const other = await createUser(t);
    const theirs = (await client(t.app, other.token).post('capture', { text: 'secret' })).body;
    expect((await req('PUT', `${coll}steal.ics`, vtodo(theirs.id, ['SUMMARY:mine']), { 'content-type': 'text/calendar' })).status).toBe(201);
    expect((await client(t.app, other.token).get(`items/${theirs.id}`)).body.title).toBe('secret');
    expect((await req('GET', `/dav/calendars/${other.inboxId}/${theirs.id}.ics`)).status).toBe(404);
    expect((await api.get('items')).body.items.map((i: { title: string }) => i.title)).toEqual(['mine']);
  });

  it('needs read for reading and write for writing (403, nothing changed)', async () => {
    const user = await createUser(t);
    const { token } = await t.services.keys.mint(user.id, 'read only', { scopes: ['read'] });
    const readOnly = dav({ ...user, token });
    expect((await readOnly('PROPFIND', '/dav/calendars/', PROPFIND_ETAGS, { depth: '1' })).status).toBe(207);
    const put = await readOnly('PUT', `/dav/calendars/${user.inboxId}/a.ics`, vtodo('a', ['SUMMARY:a']), { 'content-type': 'text/calendar' });
    expect(put.status).toBe(403);
    expect((await client(t.app, user.token).get('items')).body.items).toHaveLength(0);
  });
});
