import { Type } from 'typebox';

/** Form fields are optional text: a missing or odd field gets the form back with a message, not a bare 400. */
export const field = (maxLength = 1000) => Type.Optional(Type.String({ maxLength }));

export const CSRF_FIELD = { _csrf: field(100) };

/** Only a path of this site, never `//host` or `/\host`: where to go after signing in. */
export function safeNext(next: string | undefined): string {
  if (!next || next.length > 2000 || !/^\/(?![/\\])/.test(next) || /[\u0000-\u001f]/.test(next)) return '/';
  return next;
}

/** Inbox forms come back to the inbox page they were sent from, filters included. */
export function safeReturn(value: string | undefined): string {
  return value && value.length <= 2000 && /^\/(\?[^#\u0000-\u001f]*)?$/.test(value) ? value : '/';
}
