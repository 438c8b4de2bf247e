import { DOMImplementation, DOMParser, XMLSerializer, onErrorStopParsing, type Document, type Element } from '@xmldom/xmldom';
import { setImmediate as turn } from 'node:timers/promises';
import { badRequest } from '../../errors.js';

/*
 * WebDAV XML in and out, namespace-aware (decisions/0080): elements are matched by namespace URI
 * and local name, never by prefix (iOS writes its own prefixes), and answers are built as a DOM and
 * serialized by xmldom, so no XML is concatenated by hand.
 */

export const NS = {
  dav: 'DAV:',
  caldav: 'urn:ietf:params:xml:ns:caldav',
  cs: 'http://calendarserver.org/ns/',
  apple: 'http://apple.com/ns/ical/',
} as const;

const PREFIXES: Record<string, string> = { [NS.dav]: 'd', [NS.caldav]: 'c', [NS.cs]: 'cs', [NS.apple]: 'a' };

/** A property or element name: its namespace URI and local name. */
export interface QName {
  ns: string;
  name: string;
}

export const qkey = (q: QName): string => `{${q.ns}}${q.name}`;

/**
 * The request body as a document, or undefined when it is empty. A DOCTYPE (and so any entity or
 * DTD, "billion laughs" included) is refused before parsing: nothing is ever fetched or expanded.
 */
export function parseDavBody(text: string | undefined): Document | undefined {
  if (text === undefined || text.trim() === '') return undefined;
  if (/<!DOCTYPE|<!ENTITY/i.test(text)) throw badRequest('a DAV body may not have a DOCTYPE or entity declarations');
  try {
    const doc = new DOMParser({ onError: onErrorStopParsing }).parseFromString(text, 'application/xml');
    if (!doc.documentElement) throw new Error('no root element');
    return doc;
  } catch (error) {
    throw badRequest(`the XML body does not parse: ${error instanceof Error ? error.message.split('\n')[0] : 'malformed'}`);
  }
}

/** The element children of `parent`, in order. */
export function childElements(parent: Element): Element[] {
  const found: Element[] = [];
  for (let node = parent.firstChild; node; node = node.nextSibling) if (node.nodeType === node.ELEMENT_NODE) found.push(node as Element);
  return found;
}

export const isElement = (el: Element, q: QName): boolean => el.namespaceURI === q.ns && el.localName === q.name;

export function childElement(parent: Element, q: QName): Element | undefined {
  return childElements(parent).find((el) => isElement(el, q));
}

/** Every descendant element with this name (document order). */
export function descendants(parent: Element, q: QName): Element[] {
  const list = parent.getElementsByTagNameNS(q.ns, q.name);
  const found: Element[] = [];
  for (let i = 0; i < list.length; i += 1) found.push(list.item(i)!);
  return found;
}

export const nameOf = (el: Element): QName => ({ ns: el.namespaceURI ?? '', name: el.localName ?? el.nodeName });

/** One child of an answer: an element with children, text, or nothing. */
export interface XmlNode {
  q: QName;
  children?: XmlNode[];
  text?: string;
  attrs?: Record<string, string>;
}

export const node = (ns: string, name: string, content?: XmlNode[] | string, attrs?: Record<string, string>): XmlNode => ({
  q: { ns, name },
  ...(typeof content === 'string' ? { text: content } : content ? { children: content } : {}),
  ...(attrs ? { attrs } : {}),
});
export const dav = (name: string, content?: XmlNode[] | string): XmlNode => node(NS.dav, name, content);
export const cal = (name: string, content?: XmlNode[] | string, attrs?: Record<string, string>): XmlNode => node(NS.caldav, name, content, attrs);
export const href = (path: string): XmlNode => dav('href', path);

function build(doc: Document, spec: XmlNode): Element {
  const prefix = PREFIXES[spec.q.ns];
  const el = prefix ? doc.createElementNS(spec.q.ns, `${prefix}:${spec.q.name}`) : doc.createElementNS(spec.q.ns, spec.q.name);
  for (const [k, v] of Object.entries(spec.attrs ?? {})) el.setAttribute(k, v);
  if (spec.text !== undefined) el.appendChild(doc.createTextNode(spec.text));
  for (const child of spec.children ?? []) el.appendChild(build(doc, child));
  return el;
}

/** The document of `root`, with the usual prefixes declared once on it. */
export function serialize(root: XmlNode): string {
  const doc = new DOMImplementation().createDocument(null, '', null);
  const el = build(doc, root);
  for (const [ns, prefix] of Object.entries(PREFIXES)) el.setAttributeNS('http://www.w3.org/2000/xmlns/', `xmlns:${prefix}`, ns);
  doc.appendChild(el);
  return `<?xml version="1.0" encoding="utf-8"?>\n${new XMLSerializer().serializeToString(doc)}`;
}

/** A propstat of one status. */
export const propstat = (props: XmlNode[], status: string): XmlNode => dav('propstat', [dav('prop', props), dav('status', `HTTP/1.1 ${status}`)]);

/** A DAV:error body naming one precondition (RFC 4918 section 16). */
export const davError = (condition: XmlNode): string => serialize(dav('error', [condition]));

/** Stands where a multistatus's responses go, to find the document's head and tail; never in an answer. */
const SLOT = 'capture-inbox-responses-go-here';

/**
 * A multistatus written as it is read: the head, each page's responses, the tail, the same bytes
 * serialize() makes of the whole document. Each page is serialized by xmldom inside a multistatus
 * of its own (so the prefixes stay declared once, on the root) and cut out of it: only one page of
 * a 10,000-object listing is ever in memory (decisions/0095).
 */
export async function* streamMultistatus(first: XmlNode[], pages: AsyncIterable<XmlNode[]>): AsyncGenerator<string> {
  const [head, tail] = serialize(dav('multistatus', SLOT)).split(SLOT) as [string, string];
  const inner = (responses: XmlNode[]): string => {
    if (responses.length === 0) return '';
    const whole = serialize(dav('multistatus', responses));
    if (!whole.startsWith(head) || !whole.endsWith(tail)) throw new Error('a multistatus page serialized with another head');
    return whole.slice(head.length, whole.length - tail.length);
  };
  yield head + inner(first);
  for await (const page of pages) {
    const text = inner(page);
    if (text !== '') yield text;
    // With SQLite every await of a page is a microtask: without a turn of the event loop the
    // socket (corked until the next tick) would send nothing until the whole listing was made,
    // and no other request would be served meanwhile.
    await turn();
  }
  yield tail;
}
