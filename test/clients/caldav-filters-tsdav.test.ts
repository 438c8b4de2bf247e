import { createDAVClient } from 'tsdav';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../helpers/dialects.js';
import { capture, ok } from '../helpers/items.js';
import { client, createUser } from '../helpers/test-app.js';
import { startListeningApp, type ListeningApp } from './listening-app.js';

/* npm tsdav against a real server: a saved filter is a read-only calendar, named after it, that refuses writes. */

describe.each(DIALECTS)('tsdav and saved-filter collections (%s)', (dialect) => {
  let t: ListeningApp;
  beforeAll(async () => {
    t = await startListeningApp(dialect);
  });
  afterAll(async () => {
    await t?.close();
  });

  it('discovers the filter calendar, lists what its query picks, and is refused a write', async () => {
    const user = await createUser(t);
    const api = client(t.app, user.token);
    await capture(api, 'call Ana', { parse: false, tags: ['calls'] });
    await capture(api, 'write the report', { parse: false });
    const filter = ok(await api.post('filters', { name: 'Phone calls', query: '@calls' }), 201).filter;

    const dav = await createDAVClient({
      serverUrl: `${t.baseUrl}/.well-known/caldav`,
      credentials: { username: user.email, password: user.token },
      authMethod: 'Basic',
      defaultAccountType: 'caldav',
    });
    const calendars = await dav.fetchCalendars();
    const view = calendars.find((c) => c.url.endsWith(`/dav/calendars/filter-${filter.id}/`));
    expect(view?.displayName).toBe('Phone calls');
    expect(view?.components).toEqual(['VTODO']);

    const listed = await dav.fetchCalendarObjects({
      calendar: view!,
      filters: [{ 'comp-filter': { _attributes: { name: 'VCALENDAR' }, 'comp-filter': { _attributes: { name: 'VTODO' } } } }],
    });
    expect(listed.map((o) => String(o.data))).toEqual([expect.stringContaining('SUMMARY:call Ana')]);

    const ics = [
      'BEGIN:VCALENDAR',
      'VERSION:2.0',
      'PRODID:-//tsdav test//EN',
      'BEGIN:VTODO',
      'UID:tsdav-view-1',
      'DTSTAMP:20261129T080000Z',
      'SUMMARY:sneaked in',
      'END:VTODO',
      'END:VCALENDAR',
      '',
    ].join('\r\n');
    const refused = await dav.createCalendarObject({ calendar: view!, filename: 'tsdav-view-1.ics', iCalString: ics });
    expect(refused.status).toBe(403);
    const removed = await dav.deleteCalendarObject({ calendarObject: { url: listed[0]!.url, etag: listed[0]!.etag ?? '' } });
    expect(removed.status).toBe(403);
    expect((ok(await api.get('items')).items as Array<{ title: string }>).map((i) => i.title).sort()).toEqual(['call Ana', 'write the report']);
  });
});
