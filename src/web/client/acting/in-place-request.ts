import { parseActAnswer, type ActAnswer } from './undo.js';

/** The header that asks for an answer in place instead of a redirect (src/web/routes/inbox.routes.ts). */
const IN_PLACE = { 'cin-in-place': '1' };

/** A form posted in place: the server's answer, or the page it led to (a route without answers in place). */
export type InPlaceResult = { answer: ActAnswer } | { page: string };

/** Thrown for an answer that is not a success: its status, and the server's message when it sent one. */
export class RefusedError extends Error {
  constructor(
    readonly status: number,
    readonly said: string | null,
  ) {
    super(`status ${status}`);
  }
}

/** Posts the form's fields; `keepalive` lets the request finish after the page is left (a delete at the end of its grace). */
export async function postInPlace(url: string, data: URLSearchParams, keepalive = false): Promise<InPlaceResult> {
  const res = await fetch(url, { method: 'POST', body: data, credentials: 'same-origin', headers: IN_PLACE, keepalive });
  const json = (res.headers.get('content-type') ?? '').includes('application/json');
  if (!res.ok) {
    const said: unknown = json ? await res.json().catch(() => null) : null;
    throw new RefusedError(
      res.status,
      typeof said === 'object' && said !== null && typeof (said as { message?: unknown }).message === 'string' ? (said as { message: string }).message : null,
    );
  }
  if (!json) return { page: await res.text() };
  const answer = parseActAnswer(await res.json());
  if (!answer) throw new RefusedError(res.status, null);
  return { answer };
}

/** Whether a failure is the network's (offline, the server unreachable), not the server's answer. */
export const networkFailure = (error: unknown): boolean => !(error instanceof RefusedError);

/** Fetches the page at `url` (a list page) for its lists. */
export async function fetchPage(url: string): Promise<string> {
  const res = await fetch(url, { credentials: 'same-origin', headers: { accept: 'text/html' } });
  if (!res.ok || res.redirected) throw new RefusedError(res.status, null);
  return res.text();
}
