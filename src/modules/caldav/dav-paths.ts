/* The URLs of the DAV tree, in one place. */

export const DAV_ROOT = '/dav/';
export const PRINCIPAL = '/dav/principal/';
export const HOME = '/dav/calendars/';

export const collectionHref = (segment: string): string => `${HOME}${encodeURIComponent(segment)}/`;
export const objectHref = (segment: string, name: string): string => `${collectionHref(segment)}${encodeURIComponent(name)}`;

/**
 * The collection segment and object name an href names (a path or a full URL, as clients send
 * them in calendar-multiget), or undefined when it is not an object of the calendar home.
 */
export function parseObjectHref(href: string): { segment: string; name: string } | undefined {
  let path = href.trim();
  try {
    path = new URL(path, 'http://x').pathname;
  } catch {
    return undefined;
  }
  if (!path.startsWith(HOME)) return undefined;
  const parts = path.slice(HOME.length).split('/');
  if (parts.length !== 2 || parts[0] === '' || parts[1] === '') return undefined;
  try {
    return { segment: decodeURIComponent(parts[0]!), name: decodeURIComponent(parts[1]!) };
  } catch {
    return undefined;
  }
}
