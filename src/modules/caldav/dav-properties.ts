import type { AuthUser } from '../../schemas/auth-user.js';
import type { Collection } from './collections.js';
import { cal, dav, href, node, NS, propstat, qkey, type QName, type XmlNode } from './dav-xml.js';
import { HOME, PRINCIPAL } from './dav-paths.js';
import type { DavObject } from './object-store.js';

/*
 * The live properties of each kind of resource, and a PROPFIND's answer for one resource: what it
 * has under 200, what was asked and it lacks under 404 (RFC 4918 section 9.1).
 */

/** A resource's properties: each builds its element when asked. */
export type Properties = Map<string, () => XmlNode>;

function props(entries: Array<[string, string, () => XmlNode[] | string | undefined]>): Properties {
  return new Map(
    entries.map(([ns, name, content]) => [
      qkey({ ns, name }),
      () => {
        const value = content();
        return node(ns, name, value);
      },
    ]),
  );
}

const privileges = (names: readonly string[]): XmlNode[] => names.map((n) => dav('privilege', [dav(n)]));
const READ = ['read', 'read-current-user-privilege-set'];
const WRITE = ['write', 'write-content', 'bind', 'unbind'];

function principalProps(user: AuthUser): Array<[string, string, () => XmlNode[] | string | undefined]> {
  return [
    [NS.dav, 'current-user-principal', () => [href(PRINCIPAL)]],
    [NS.dav, 'principal-URL', () => [href(PRINCIPAL)]],
    [NS.caldav, 'calendar-home-set', () => [href(HOME)]],
    [NS.caldav, 'calendar-user-address-set', () => [href(`mailto:${user.email}`)]],
    [NS.dav, 'principal-collection-set', () => [href(PRINCIPAL)]],
  ];
}

/** `/`, `/dav/` and the principal answer the discovery properties; the home adds nothing else. */
export function discoveryProperties(user: AuthUser, kind: 'root' | 'principal' | 'home'): Properties {
  const resourcetype = kind === 'principal' ? [dav('collection'), dav('principal')] : [dav('collection')];
  const displayname = kind === 'principal' ? user.email : kind === 'home' ? 'Calendars' : 'Capture Inbox';
  return props([
    [NS.dav, 'resourcetype', () => resourcetype],
    [NS.dav, 'displayname', () => displayname],
    [NS.dav, 'owner', () => [href(PRINCIPAL)]],
    [NS.dav, 'current-user-privilege-set', () => privileges(READ)],
    ...principalProps(user),
  ]);
}

export function collectionProperties(user: AuthUser, collection: Collection, token: string): Properties {
  const component = collection.kind === 'notes' ? 'VJOURNAL' : 'VTODO';
  // A saved filter's collection is read-only: no write privilege, so clients show it as such.
  const allowed = collection.kind === 'filter' ? READ : collection.kind === 'notes' ? [...READ, ...WRITE] : [...READ, ...WRITE, 'write-properties'];
  return props([
    [NS.dav, 'resourcetype', () => [dav('collection'), cal('calendar')]],
    [NS.dav, 'displayname', () => collection.displayName],
    [NS.caldav, 'supported-calendar-component-set', () => [cal('comp', undefined, { name: component })]],
    [NS.caldav, 'supported-calendar-data', () => [cal('calendar-data', undefined, { 'content-type': 'text/calendar', version: '2.0' })]],
    [NS.cs, 'getctag', () => token],
    [NS.dav, 'sync-token', () => token],
    [NS.dav, 'current-user-privilege-set', () => privileges(allowed)],
    [
      NS.dav,
      'supported-report-set',
      () => [cal('calendar-query'), cal('calendar-multiget'), dav('sync-collection')].map((r) => dav('supported-report', [dav('report', [r])])),
    ],
    [NS.dav, 'owner', () => [href(PRINCIPAL)]],
    ...principalProps(user).slice(0, 1),
  ]);
}

export function objectProperties(object: DavObject): Properties {
  const component = object.item.type === 'note' ? 'vjournal' : 'vtodo';
  return props([
    [NS.dav, 'resourcetype', () => []],
    [NS.dav, 'getetag', () => object.etag],
    [NS.dav, 'getcontenttype', () => `text/calendar; charset=utf-8; component=${component}`],
    [NS.dav, 'getlastmodified', () => new Date(object.item.updated_at).toUTCString()],
    [NS.caldav, 'calendar-data', () => object.ics()],
  ]);
}

/** Properties `allprop` leaves out because they are expensive (RFC 4791 section 9.6). */
const NOT_IN_ALLPROP = new Set([qkey({ ns: NS.caldav, name: 'calendar-data' })]);

/** What a PROPFIND or REPORT asked for: named properties, all of them, or their names. */
export type PropRequest = { kind: 'prop'; names: QName[] } | { kind: 'allprop' } | { kind: 'propname' };

export function propResponse(path: string, available: Properties, request: PropRequest): XmlNode {
  if (request.kind !== 'prop') {
    const keys = [...available.keys()].filter((k) => !NOT_IN_ALLPROP.has(k));
    const nodes = keys.map((k) => {
      const built = available.get(k)!();
      return request.kind === 'propname' ? node(built.q.ns, built.q.name) : built;
    });
    return dav('response', [href(path), propstat(nodes, '200 OK')]);
  }
  const found: XmlNode[] = [];
  const missing: XmlNode[] = [];
  for (const name of request.names) {
    const build = available.get(qkey(name));
    if (build) found.push(build());
    else missing.push(node(name.ns, name.name));
  }
  const stats = [...(found.length > 0 ? [propstat(found, '200 OK')] : []), ...(missing.length > 0 ? [propstat(missing, '404 Not Found')] : [])];
  return dav('response', [href(path), ...(stats.length > 0 ? stats : [propstat([], '200 OK')])]);
}
