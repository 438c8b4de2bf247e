import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDAVClient } from 'tsdav';
import { DIALECTS } from '../helpers/dialects.js';
import { client, createUser } from '../helpers/test-app.js';
import { startListeningApp, type ListeningApp } from './listening-app.js';

/* npm tsdav, a CalDAV client library, against a real server: discovery, listing, create, update, delete. */

describe.each(DIALECTS)('tsdav against the CalDAV server (%s)', (dialect) => {
  let t: ListeningApp;
  beforeAll(async () => {
    t = await startListeningApp(dialect);
  });
  afterAll(async () => {
    await t?.close();
  });

  it('discovers the home, lists todo calendars, and creates, updates and deletes a todo', async () => {
    const user = await createUser(t);
    const api = client(t.app, user.token);
    await api.post('capture', { text: 'made in the web app' });
    const dav = await createDAVClient({
      serverUrl: `${t.baseUrl}/.well-known/caldav`,
      credentials: { username: user.email, password: user.token },
      authMethod: 'Basic',
      defaultAccountType: 'caldav',
    });
    const calendars = await dav.fetchCalendars();
    const inbox = calendars.find((c) => c.url.endsWith(`/dav/calendars/${user.inboxId}/`));
    expect(inbox?.displayName).toBe('Inbox');
    expect(inbox?.components).toContain('VTODO');
    expect(calendars.find((c) => c.url.endsWith('/dav/calendars/notes/'))?.components).toContain('VJOURNAL');

    const listed = await dav.fetchCalendarObjects({
      calendar: inbox!,
      filters: [{ 'comp-filter': { _attributes: { name: 'VCALENDAR' }, 'comp-filter': { _attributes: { name: 'VTODO' } } } }],
    });
    expect(listed.map((o) => String(o.data))).toEqual([expect.stringContaining('SUMMARY:made in the web app')]);

    const ics = [
      'BEGIN:VCALENDAR',
      'VERSION:2.0',
      'PRODID:-//tsdav test//EN',
      'BEGIN:VTODO',
      'UID:tsdav-1',
      'DTSTAMP:20261129T080000Z',
      'SUMMARY:from tsdav',
      'END:VTODO',
      'END:VCALENDAR',
      '',
    ].join('\r\n');
    const created = await dav.createCalendarObject({ calendar: inbox!, filename: 'tsdav-1.ics', iCalString: ics });
    expect(created.status).toBe(201);
    const etag = created.headers.get('etag');
    expect(etag).toMatch(/^"/);
    const updated = await dav.updateCalendarObject({
      calendarObject: { url: `${inbox!.url}tsdav-1.ics`, data: ics.replace('SUMMARY:from tsdav', 'SUMMARY:edited in tsdav'), etag: etag! },
    });
    expect(updated.status).toBe(204);
    expect(((await api.get('items')).body.items as Array<{ title: string }>).map((i) => i.title).sort()).toEqual(['edited in tsdav', 'made in the web app']);
    const deleted = await dav.deleteCalendarObject({ calendarObject: { url: `${inbox!.url}tsdav-1.ics`, etag: updated.headers.get('etag')! } });
    expect(deleted.status).toBe(204);
    expect((await api.get('items')).body.items).toHaveLength(1);
  });
});
