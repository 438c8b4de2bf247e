/*
 * A reminder's push payload is JSON { id, title, body, url } (docs/reminders.md). Pure: what the
 * worker shows, and which address a click opens.
 */

export interface PushPayload {
  id?: string;
  title?: string;
  body?: string;
  url?: string;
}

/** The payload of a push message's text; text that is not JSON is the notification's body. */
export function readPayload(text: string | null): PushPayload {
  if (text === null) return {};
  try {
    const parsed: unknown = JSON.parse(text);
    return typeof parsed === 'object' && parsed !== null ? parsed : {};
  } catch {
    return { body: text };
  }
}

/** The notification a payload shows. */
export function notificationOf(payload: PushPayload): { title: string; options: { body: string; tag?: string; icon: string; data: { url: string } } } {
  return {
    title: payload.title || 'Capture Inbox',
    options: { body: payload.body || '', tag: payload.id || undefined, icon: '/icons/icon-192.png', data: { url: payload.url || '/' } },
  };
}

/** The page a click opens: the link's path and query at this worker's origin (PUBLIC_URL may be another address of this server). */
export function clickTarget(link: string | undefined, origin: string): string {
  const url = new URL(link || '/', origin);
  return origin + url.pathname + url.search;
}
