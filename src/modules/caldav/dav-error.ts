import { cal, dav, type XmlNode } from './dav-xml.js';

/**
 * A WebDAV precondition or postcondition failure (RFC 4918 section 16): the status and the element
 * the DAV:error body names, so clients that read it (a sync-token refused, a UID in use) know why.
 */
export class DavError extends Error {
  override readonly name = 'DavError';
  constructor(
    readonly statusCode: number,
    readonly condition: XmlNode,
    message: string,
  ) {
    super(message);
  }
}

export const invalidSyncToken = () =>
  new DavError(403, dav('valid-sync-token'), 'the sync-token was not issued by this server or is older than the change feed keeps: sync again without one');
export const uidConflict = (href: string) => new DavError(403, cal('no-uid-conflict', [dav('href', href)]), `this UID is already used by ${href}`);
export const unsupportedComponent = (wanted: string) =>
  new DavError(403, cal('supported-calendar-component'), `this collection holds ${wanted} components only`);
export const unsupportedReport = () =>
  new DavError(403, dav('supported-report'), 'this report is not supported here (calendar-query, calendar-multiget and sync-collection are)');
export const readOnlyCollection = () => new DavError(403, dav('need-privileges'), 'this collection cannot be changed');
