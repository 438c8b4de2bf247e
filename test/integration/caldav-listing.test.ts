import { DOMParser } from '@xmldom/xmldom';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../helpers/dialects.js';
import { client, createTestApp, createUser, type TestApp } from '../helpers/test-app.js';
import { seedItems } from '../helpers/seed-items.js';

/*
 * Listings longer than a page (decisions/0095): calendar-query and PROPFIND Depth 1 are written a
 * page of 500 at a time, and a sync-collection reads its changed items in one batch. The answer
 * must be one well-formed multistatus holding every object once, whatever the page edges.
 */

const basic = (token: string) => `Basic ${Buffer.from(`anyone:${token}`).toString('base64')}`;
const TOTAL = 1_201;
const DAV = 'DAV:';
const CALDAV = 'urn:ietf:params:xml:ns:caldav';

function responses(xml: string): Array<{ href: string; data: string | undefined; status: string | undefined }> {
  const doc = new DOMParser().parseFromString(xml, 'application/xml');
  expect(doc.documentElement?.localName).toBe('multistatus');
  const list = doc.getElementsByTagNameNS(DAV, 'response');
  return Array.from({ length: list.length }, (_, i) => {
    const el = list.item(i)!;
    return {
      href: el.getElementsByTagNameNS(DAV, 'href').item(0)?.textContent ?? '',
      data: el.getElementsByTagNameNS(CALDAV, 'calendar-data').item(0)?.textContent ?? undefined,
      status: el.getElementsByTagNameNS(DAV, 'status').item(0)?.textContent ?? undefined,
    };
  });
}

describe.each(DIALECTS)('caldav listings over many pages (%s)', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(dialect);
  });
  afterAll(async () => {
    await t?.close();
  });

  // Generous: 1,201 objects rendered three times on a loaded CI machine.
  it('answers calendar-query, PROPFIND Depth 1 and sync-collection of 1,201 todos whole, each object once', { timeout: 120_000 }, async () => {
    const user = await createUser(t);
    const api = client(t.app, user.token);
    const project = (await api.post('projects', { name: 'Long list' })).body;
    const created = new Date('2026-11-01T00:00:00.000Z').getTime();
    const seeded = await seedItems(
      t,
      user.id,
      Array.from({ length: TOTAL }, (_, i) => ({
        title: `todo ${i}`,
        content_md: null,
        type: 'todo' as const,
        status: i % 4 === 0 ? ('done' as const) : ('todo' as const),
        is_completed: i % 4 === 0,
        project_id: project.id as string,
        due_at: null,
        created_at: new Date(created + i * 1000).toISOString(),
        tags: [],
      })),
    );
    const coll = `/dav/calendars/${project.id}/`;
    const dav = async (method: string, body: string, depth = '1') => {
      const res = await t.app.inject({
        method: method as 'GET',
        url: coll,
        headers: { authorization: basic(user.token), depth, 'content-type': 'application/xml' },
        payload: body,
      });
      expect(res.statusCode).toBe(207);
      expect(res.headers['content-type']).toBe('application/xml; charset=utf-8');
      return responses(res.body);
    };
    const query = (filter: string) =>
      `<c:calendar-query xmlns:d="DAV:" xmlns:c="${CALDAV}"><d:prop><d:getetag/><c:calendar-data/></d:prop><c:filter><c:comp-filter name="VCALENDAR"><c:comp-filter name="VTODO">${filter}</c:comp-filter></c:comp-filter></c:filter></c:calendar-query>`;

    const all = await dav('REPORT', query(''));
    expect(all).toHaveLength(TOTAL);
    expect(new Set(all.map((r) => r.href)).size).toBe(TOTAL);
    expect(new Set(all.map((r) => r.href))).toEqual(new Set(seeded.map((s) => `${coll}${s.id}.ics`)));
    expect(all.every((r) => /BEGIN:VTODO[\s\S]*SUMMARY:todo \d+/.test(r.data ?? ''))).toBe(true);

    const open = await dav('REPORT', query('<c:prop-filter name="COMPLETED"><c:is-not-defined/></c:prop-filter>'));
    expect(open).toHaveLength(seeded.filter((s) => !s.is_completed).length);

    const listing = await dav('PROPFIND', '<d:propfind xmlns:d="DAV:"><d:prop><d:getetag/></d:prop></d:propfind>');
    expect(listing).toHaveLength(TOTAL + 1);
    expect(listing[0]!.href).toBe(coll);

    const token = /<d:sync-token>([^<]+)<\/d:sync-token>/.exec(
      (
        await t.app.inject({
          method: 'PROPFIND' as 'GET',
          url: coll,
          headers: { authorization: basic(user.token), depth: '0' },
          payload: '<d:propfind xmlns:d="DAV:"><d:prop><d:sync-token/></d:prop></d:propfind>',
        })
      ).body,
    )![1]!;
    const edited = seeded.slice(0, 120);
    for (const item of edited) expect((await api.patch(`items/${item.id}`, { title: `edited ${item.title}` })).status).toBe(200);
    const deleted = seeded[TOTAL - 1]!;
    expect([200, 204]).toContain((await api.delete(`items/${deleted.id}`)).status);
    const changes = await dav(
      'REPORT',
      `<d:sync-collection xmlns:d="DAV:" xmlns:c="${CALDAV}"><d:sync-token>${token}</d:sync-token><d:sync-level>1</d:sync-level><d:prop><d:getetag/><c:calendar-data/></d:prop></d:sync-collection>`,
    );
    const changed = changes.filter((r) => r.data !== undefined);
    expect(new Set(changed.map((r) => r.href))).toEqual(new Set(edited.map((s) => `${coll}${s.id}.ics`)));
    expect(changed.every((r) => /SUMMARY:edited todo \d+/.test(r.data!))).toBe(true);
    expect(changes.filter((r) => r.status === 'HTTP/1.1 404 Not Found').map((r) => r.href)).toEqual([`${coll}${deleted.id}.ics`]);
  });
});
