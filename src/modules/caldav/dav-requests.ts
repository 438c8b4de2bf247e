import type { Document, Element } from '@xmldom/xmldom';
import { AppError, badRequest } from '../../errors.js';
import type { AuthUser } from '../../schemas/auth-user.js';
import type { CaldavService } from './caldav.service.js';
import type { Collection } from './collections.js';
import { unsupportedReport } from './dav-error.js';
import { collectionHref, objectHref, parseObjectHref } from './dav-paths.js';
import { collectionProperties, discoveryProperties, objectProperties, propResponse, type PropRequest } from './dav-properties.js';
import {
  childElement,
  childElements,
  dav,
  descendants,
  href,
  isElement,
  nameOf,
  node,
  NS,
  parseDavBody,
  propstat,
  serialize,
  streamMultistatus,
  type XmlNode,
} from './dav-xml.js';
import type { DavObject } from './object-store.js';

/* PROPFIND, REPORT, PROPPATCH and MKCALENDAR: a parsed body in, a DAV answer out. */

export interface DavAnswer {
  status: number;
  headers?: Record<string, string>;
  /** The whole body, or its parts as they are made (a listing of a collection: decisions/0095). */
  body?: string | AsyncIterable<string>;
}

export type DavTarget =
  { kind: 'root' | 'principal' | 'home'; path: string } | { kind: 'collection'; segment: string } | { kind: 'object'; segment: string; name: string };

const XML_TYPE = 'application/xml; charset=utf-8';
const multistatus = (responses: XmlNode[]): DavAnswer => ({
  status: 207,
  headers: { 'content-type': XML_TYPE },
  body: serialize(dav('multistatus', responses)),
});
/** A multistatus of `first` and then each page's responses, written as the pages are read. */
const streamed = (first: XmlNode[], pages: AsyncIterable<XmlNode[]>): DavAnswer => ({
  status: 207,
  headers: { 'content-type': XML_TYPE },
  body: streamMultistatus(first, pages),
});

async function* mapPages<T>(pages: AsyncIterable<T[]>, each: (page: T[]) => XmlNode[]): AsyncGenerator<XmlNode[]> {
  for await (const page of pages) yield each(page);
}

const Q = {
  propfind: { ns: NS.dav, name: 'propfind' },
  prop: { ns: NS.dav, name: 'prop' },
  allprop: { ns: NS.dav, name: 'allprop' },
  propname: { ns: NS.dav, name: 'propname' },
  href: { ns: NS.dav, name: 'href' },
  syncToken: { ns: NS.dav, name: 'sync-token' },
  set: { ns: NS.dav, name: 'set' },
  remove: { ns: NS.dav, name: 'remove' },
  displayname: { ns: NS.dav, name: 'displayname' },
  compFilter: { ns: NS.caldav, name: 'comp-filter' },
  propFilter: { ns: NS.caldav, name: 'prop-filter' },
  isNotDefined: { ns: NS.caldav, name: 'is-not-defined' },
} as const;

/** The properties an element's DAV:prop child names, or allprop when it has none. */
function propRequestIn(parent: Element | undefined): PropRequest {
  if (!parent) return { kind: 'allprop' };
  if (childElement(parent, Q.propname)) return { kind: 'propname' };
  const prop = childElement(parent, Q.prop);
  return prop ? { kind: 'prop', names: childElements(prop).map(nameOf) } : { kind: 'allprop' };
}

function rootOf(doc: Document | undefined, expected: { ns: string; name: string }): Element | undefined {
  const root = doc?.documentElement ?? undefined;
  if (root && !isElement(root, expected)) throw badRequest(`the body must be a ${expected.name} element of ${expected.ns}`);
  return root;
}

export function createDavRequests(service: CaldavService) {
  const objectResponse = (collection: Collection, object: DavObject, request: PropRequest) =>
    propResponse(objectHref(collection.segment, object.name), objectProperties(object), request);

  async function collectionResponse(user: AuthUser, collection: Collection, request: PropRequest, token?: string): Promise<XmlNode> {
    const collectionToken = await service.sync.collectionToken(user, collection, token ?? (await service.sync.token(user)));
    return propResponse(collectionHref(collection.segment), collectionProperties(user, collection, collectionToken), request);
  }

  async function propfind(user: AuthUser, target: DavTarget, depth: string | undefined, body: string | undefined): Promise<DavAnswer> {
    const request = propRequestIn(rootOf(parseDavBody(body), Q.propfind));
    const deep = depth !== '0';
    if ('path' in target) {
      const responses = [propResponse(target.path, discoveryProperties(user, target.kind), request)];
      if (target.kind === 'home' && deep) {
        const token = await service.sync.token(user);
        for (const c of await service.collections.list(user.id)) responses.push(await collectionResponse(user, c, request, token));
      }
      return multistatus(responses);
    }
    const collection = await service.collections.find(user.id, target.segment);
    if (target.kind === 'object') {
      const object = await service.objects.find(user, collection, target.name);
      if (!object) throw new AppError('not_found', 'no object at this URL');
      return multistatus([objectResponse(collection, object, request)]);
    }
    const responses = [await collectionResponse(user, collection, request)];
    if (!deep) return multistatus(responses);
    return streamed(
      responses,
      mapPages(service.objects.pages(user, collection), (objects) => objects.map((o) => objectResponse(collection, o, request))),
    );
  }

  /** calendar-query's filters the service applies: the component, and "not completed" (COMPLETED is-not-defined). */
  function queryMatches(root: Element, collection: Collection): (object: DavObject) => boolean {
    const filter = childElement(root, { ns: NS.caldav, name: 'filter' });
    const calendarFilter = filter ? childElement(filter, Q.compFilter) : undefined;
    const componentFilter = calendarFilter ? childElement(calendarFilter, Q.compFilter) : undefined;
    const wanted = componentFilter?.getAttribute('name')?.toUpperCase();
    const held = collection.kind === 'notes' ? 'VJOURNAL' : 'VTODO';
    if (wanted && wanted !== held) return () => false;
    const openOnly =
      componentFilter !== undefined &&
      childElements(componentFilter).some(
        (el) => isElement(el, Q.propFilter) && el.getAttribute('name')?.toUpperCase() === 'COMPLETED' && childElement(el, Q.isNotDefined) !== undefined,
      );
    return (object) => !openOnly || !object.item.is_completed;
  }

  async function report(user: AuthUser, segment: string, body: string | undefined): Promise<DavAnswer> {
    const root = parseDavBody(body)?.documentElement ?? undefined;
    if (!root) throw badRequest('a REPORT needs a body');
    const collection = await service.collections.find(user.id, segment);
    const request = propRequestIn(root);
    const name = nameOf(root);
    if (name.ns === NS.caldav && name.name === 'calendar-query') {
      const matches = queryMatches(root, collection);
      return streamed(
        [],
        mapPages(service.objects.pages(user, collection), (objects) => objects.filter(matches).map((o) => objectResponse(collection, o, request))),
      );
    }
    if (name.ns === NS.caldav && name.name === 'calendar-multiget') {
      const responses: XmlNode[] = [];
      for (const el of descendants(root, Q.href)) {
        const path = el.textContent?.trim() ?? '';
        const target = parseObjectHref(path);
        const object = target && target.segment === collection.segment ? await service.objects.find(user, collection, target.name) : undefined;
        responses.push(object ? objectResponse(collection, object, request) : dav('response', [href(path), dav('status', 'HTTP/1.1 404 Not Found')]));
      }
      return multistatus(responses);
    }
    if (name.ns === NS.dav && name.name === 'sync-collection') {
      const given = childElement(root, Q.syncToken)?.textContent?.trim() ?? '';
      const result = await service.sync.sync(user, collection, given === '' ? null : given);
      const responses = [
        ...result.changed.map((o) => objectResponse(collection, o, request)),
        ...result.removed.map((n) => dav('response', [href(objectHref(collection.segment, n)), dav('status', 'HTTP/1.1 404 Not Found')])),
      ];
      if (result.truncated) responses.push(dav('response', [href(collectionHref(collection.segment)), dav('status', 'HTTP/1.1 507 Insufficient Storage')]));
      return multistatus([...responses, dav('sync-token', result.token)]);
    }
    throw unsupportedReport();
  }

  /** PROPPATCH: only displayname of a project's collection changes; any other property fails the whole request (RFC 4918 section 9.2). */
  async function proppatch(user: AuthUser, segment: string, body: string | undefined): Promise<DavAnswer> {
    const root = rootOf(parseDavBody(body), { ns: NS.dav, name: 'propertyupdate' });
    if (!root) throw badRequest('a PROPPATCH needs a propertyupdate body');
    const collection = await service.collections.find(user.id, segment);
    const updates = childElements(root).flatMap((op) => {
      const prop = childElement(op, Q.prop);
      return prop ? childElements(prop).map((el) => ({ el, set: isElement(op, Q.set) })) : [];
    });
    const isRename = (u: { el: Element; set: boolean }) => u.set && isElement(u.el, Q.displayname) && collection.projectId !== null && !collection.isInbox;
    const refused = updates.filter((u) => !isRename(u));
    const path = collectionHref(collection.segment);
    const asNode = (el: Element) => node(el.namespaceURI ?? '', el.localName ?? el.nodeName);
    if (refused.length > 0) {
      const accepted = updates.filter(isRename);
      return multistatus([
        dav('response', [
          href(path),
          propstat(
            refused.map((u) => asNode(u.el)),
            '403 Forbidden',
          ),
          ...(accepted.length > 0
            ? [
                propstat(
                  accepted.map((u) => asNode(u.el)),
                  '424 Failed Dependency',
                ),
              ]
            : []),
        ]),
      ]);
    }
    const rename = updates.at(-1);
    if (rename) await service.collections.rename(user.id, collection, rename.el.textContent ?? '');
    return multistatus([
      dav('response', [
        href(path),
        propstat(
          updates.map((u) => asNode(u.el)),
          '200 OK',
        ),
      ]),
    ]);
  }

  /** MKCALENDAR, or an extended MKCOL (RFC 5689) that asks for a calendar. */
  async function mkcalendar(user: AuthUser, segment: string, body: string | undefined): Promise<DavAnswer> {
    const root = parseDavBody(body)?.documentElement ?? undefined;
    const displayname = root ? descendants(root, Q.displayname)[0]?.textContent?.trim() : undefined;
    await service.collections.make(user.id, segment, displayname || segment);
    return { status: 201, headers: { location: collectionHref(segment) } };
  }

  return { propfind, report, proppatch, mkcalendar };
}
