import { Type } from 'typebox';
import { hasLoneSurrogate } from '../../lib/unicode.js';

/** Form fields are optional text: a missing or odd field gets the form back with a message, not a bare 400. */
export const field = (maxLength = 1000) => Type.Optional(Type.String({ maxLength }));

export const CSRF_FIELD = { _csrf: field(100) };

/**
 * A Location header carries ASCII only (Node refuses anything else, which was a bare 500): other
 * characters are percent-encoded as UTF-8, the way a browser sends them; `%` escapes already
 * there are kept. A string that is not well-formed Unicode cannot be encoded and is refused.
 */
function asciiTarget(target: string): string | null {
  if (hasLoneSurrogate(target)) return null;
  return target.replace(/[^\x21-\x7e]+/g, (run) => encodeURIComponent(run));
}

/** Only a path of this site, never `//host` or `/\host`: where to go after signing in. */
export function safeNext(next: string | undefined): string {
  // eslint-disable-next-line no-control-regex -- control characters are what it refuses
  if (!next || next.length > 2000 || !/^\/(?![/\\])/.test(next) || /[\u0000-\u001f]/.test(next)) return '/';
  return asciiTarget(next) ?? '/';
}

/** The pages a list form may come back to: Today, Upcoming, the Inbox, all items, a filter, a saved filter, a project's page, an item's page. */
// eslint-disable-next-line no-control-regex -- control characters are what it refuses
const RETURN_PAGE = /^\/(?:(?:projects|filters|inbox\/items)\/[0-9a-fA-F-]{36}|upcoming|inbox|items|filter)?(\?[^#\u0000-\u001f]*)?$/;

/** Inbox forms come back to the page they were sent from, filters included. */
export function safeReturn(value: string | undefined): string {
  return value && value.length <= 2000 && RETURN_PAGE.test(value) ? (asciiTarget(value) ?? '/') : '/';
}

/** The query of a return target (for rendering that page again with a message). */
export const queryOf = (target: string): Record<string, string> => Object.fromEntries(new URLSearchParams(target.split('?')[1] ?? ''));
