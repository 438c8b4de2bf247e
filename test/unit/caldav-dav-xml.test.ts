import { describe, expect, it } from 'vitest';
import { cal, childElements, dav, nameOf, parseDavBody, serialize } from '../../src/modules/caldav/dav-xml.js';

describe('DAV XML', () => {
  it('matches names by namespace, whatever the prefixes', () => {
    const doc = parseDavBody(
      '<A:propfind xmlns:A="DAV:"><A:prop><B:getctag xmlns:B="http://calendarserver.org/ns/"/><x:displayname xmlns:x="DAV:"/></A:prop></A:propfind>',
    );
    const prop = childElements(doc!.documentElement!)[0]!;
    expect(nameOf(prop)).toEqual({ ns: 'DAV:', name: 'prop' });
    expect(childElements(prop).map(nameOf)).toEqual([
      { ns: 'http://calendarserver.org/ns/', name: 'getctag' },
      { ns: 'DAV:', name: 'displayname' },
    ]);
  });

  it('refuses a DOCTYPE before parsing and malformed XML, as 400', () => {
    const laughs = '<?xml version="1.0"?><!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;">]><d:propfind xmlns:d="DAV:">&lol2;</d:propfind>';
    expect(() => parseDavBody(laughs)).toThrow(/DOCTYPE/);
    expect(() => parseDavBody('<a><b></a>')).toThrow(expect.objectContaining({ statusCode: 400 }));
    expect(parseDavBody('  ')).toBeUndefined();
  });

  it('serializes text safely with the usual prefixes', () => {
    const text = serialize(dav('multistatus', [dav('response', [dav('href', '/dav/'), cal('calendar-data', 'BEGIN:X\r\n<&')])]));
    expect(text).toContain('<d:multistatus');
    expect(text).toContain('xmlns:d="DAV:"');
    expect(text).toContain('&lt;&amp;');
    const back = parseDavBody(text)!;
    expect(back.documentElement!.getElementsByTagNameNS('urn:ietf:params:xml:ns:caldav', 'calendar-data').item(0)!.textContent?.replace(/\r/g, '')).toBe(
      'BEGIN:X\n<&',
    );
  });
});
