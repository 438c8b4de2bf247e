import { inFlight } from '../acting/in-flight.js';
import { ownChanges } from '../acting/own-changes.js';
import { say } from '../acting/toast.js';
import { swapLists, WITH_SIDEBAR } from '../regions/swap-lists.js';
import {
  actionFormData,
  actionWord,
  captureFormData,
  conflictMessage,
  inTypedOrder,
  OutboxConflict,
  ownedBy,
  singleReplay,
  type OutboxEntry,
  type QueuedAction,
  type QueuedCapture,
} from './outbox-replay.js';
import { actionStore, outboxStore } from './outbox-store.js';
import { renderOutbox, syncedNote } from './outbox-view.js';

/*
 * The offline outbox (issue 47 items 3 and 4, decision 0085): captures and actions on items (tick,
 * date, move, archive, delete) made without a network wait in IndexedDB, show in place (a greyed
 * row, "waiting to sync", a banner with the count), and are sent once, in the order they were
 * made, when the connection is back. Each is sent in place (JSON answers, never a navigation): a
 * capture says where it went with an Undo; an action on an item that changed or went meanwhile is
 * reported as a conflict and dropped.
 */

/** The header that asks for an answer in place (src/web/routes/inbox.routes.ts). */
const IN_PLACE = { 'cin-in-place': '1' };

/** The page's form token: replays send the current one (the one kept with an entry may be old). */
const pageCsrf = (): string => document.querySelector<HTMLInputElement>('input[name=_csrf]')?.value ?? '';

const newId = (): string => (typeof crypto.randomUUID === 'function' ? crypto.randomUUID() : `${Date.now()}-${Math.random()}`);

/** Who is signed in on this page (the layout's body data-user); null signed out. */
export const pageUser = (): string | null => document.body.getAttribute('data-user');

async function allEntries(): Promise<OutboxEntry[]> {
  const [captures, actions] = await Promise.all([outboxStore.list(), actionStore.list()]);
  const user = pageUser();
  return inTypedOrder<OutboxEntry>([
    ...ownedBy(captures, user).map((entry) => ({ kind: 'capture' as const, entry, at: entry.at })),
    ...ownedBy(actions, user).map((entry) => ({ kind: 'action' as const, entry, at: entry.at })),
  ]);
}

/** Shows what waits: the banner, the queued captures' rows, the acted-on rows greyed. */
async function showOutbox(): Promise<OutboxEntry[]> {
  const entries = await allEntries();
  renderOutbox(entries);
  return entries;
}

/** An answer in place: the JSON, or a failure that stops the run (offline again, signed out, a limit). */
async function sendInPlace(url: string, data: URLSearchParams, conflictOn: readonly number[]): Promise<Record<string, unknown>> {
  const res = await fetch(url, { method: 'POST', body: data, credentials: 'same-origin', headers: IN_PLACE });
  const json = (res.headers.get('content-type') ?? '').includes('application/json');
  const body: unknown = json ? await res.json().catch(() => null) : null;
  const said =
    typeof body === 'object' && body !== null && typeof (body as { message?: unknown }).message === 'string' ? (body as { message: string }).message : null;
  if (conflictOn.includes(res.status)) {
    throw new OutboxConflict(res.status === 404 ? 'it is gone.' : res.status === 409 ? 'the item was changed meanwhile.' : (said ?? 'the server refused it.'));
  }
  if (!res.ok || typeof body !== 'object' || body === null) throw new Error(`status ${res.status}`);
  return body as Record<string, unknown>;
}

/** Queues an action on an item taken offline, and shows it in place. */
export function queueAction(row: HTMLElement | null, url: string, data: URLSearchParams, itemId: string): void {
  const action = url.split('/').pop() ?? '';
  const name = row?.querySelector(':scope > .line .title')?.textContent ?? 'the item';
  const entry: QueuedAction = {
    id: newId(),
    item_id: itemId,
    name,
    action,
    url,
    fields: [...data.entries()].filter(([key]) => key !== '_csrf'),
    version: data.get('version') || row?.getAttribute('data-version') || null,
    at: Date.now(),
  };
  const owner = pageUser();
  if (owner) entry.owner = owner;
  row?.querySelector<HTMLDetailsElement>(':scope > .line > details.more')?.removeAttribute('open');
  actionStore.put(entry).then(
    () => {
      void showOutbox();
      say(`Offline: the ${actionWord(action)} of “${name}” waits, and is sent when the connection is back.`);
    },
    () => say('You are offline, and this browser cannot keep changes for later (a private window?): nothing was changed.'),
  );
}

/** Queues a capture typed offline; resolves once it is kept. */
export async function queueCapture(entry: QueuedCapture): Promise<void> {
  await outboxStore.put(entry);
  await showOutbox();
}

/** Sends what waits, once at a time, and shows what became of each. */
export function installOfflineOutbox(): void {
  if (!window.indexedDB || !window.fetch) return;
  const captureReturn = (): string =>
    document.querySelector<HTMLInputElement>('form[action="/inbox/capture"] input[name=return]')?.value ?? window.location.pathname + window.location.search;
  // The item's version after an entry sent in this run: a later entry on the same item is made on it.
  const versions = new Map<string, string>();
  const synced: HTMLElement[] = [];

  const replay = singleReplay<OutboxEntry, Record<string, unknown>>({
    list: allEntries,
    send: async (outgoing) => {
      if (outgoing.kind === 'capture') {
        const answer = await inFlight(sendInPlace('/inbox/capture', captureFormData(outgoing.entry, pageCsrf(), captureReturn()), [400, 404, 413]), noteItem);
        synced.push(syncedNote(answer, pageCsrf(), captureReturn()));
        return answer;
      }
      const entry = outgoing.entry;
      const version = versions.get(entry.item_id) ?? entry.version;
      const answer = await inFlight(sendInPlace(entry.url, actionFormData(entry, pageCsrf(), version), [400, 404, 409]), noteItem);
      const item = answer.item as { version?: unknown } | undefined;
      if (typeof item?.version === 'string') versions.set(entry.item_id, item.version);
      if (entry.action === 'delete') ownChanges.note(entry.item_id, null);
      return answer;
    },
    remove: (outgoing) => (outgoing.kind === 'capture' ? outboxStore.remove(outgoing.entry) : actionStore.remove(outgoing.entry)),
  });

  const replayOnline = async (): Promise<void> => {
    if (!navigator.onLine) return;
    synced.length = 0;
    versions.clear();
    const result = await replay();
    if (!result || (result.sent === 0 && result.conflicts.length === 0)) return;
    const conflicts = result.conflicts.flatMap(({ entry, said }) =>
      entry.kind === 'action' ? [conflictMessage(entry.entry, said)] : [`A capture made offline was not saved: ${said}`],
    );
    // The lists as the server now has them, once for the whole run.
    const page = await fetch(window.location.pathname + window.location.search, { credentials: 'same-origin', headers: { accept: 'text/html' } });
    if (page.ok && !page.redirected) swapLists(await page.text(), null, -1, null, WITH_SIDEBAR);
    await showOutbox();
    renderOutbox(await allEntries(), { synced: [...synced], conflicts });
    say(
      `Back online: ${result.sent} ${result.sent === 1 ? 'change' : 'changes'} made offline saved${conflicts.length > 0 ? `, ${conflicts.length} not applied (see above)` : ''}.`,
    );
  };

  window.addEventListener('online', () => void replayOnline().catch(() => undefined));
  showOutbox().then(
    () => replayOnline(),
    () => undefined,
  );
  guardPlainForms();
}

/** The item an answer changed is this page's own change: its live echo is skipped. */
function noteItem(answer: Record<string, unknown>): void {
  const item = answer.item as { id?: unknown; updated_at?: unknown } | undefined;
  if (typeof item?.id === 'string' && typeof item.updated_at === 'string') ownChanges.note(item.id, item.updated_at);
}

/**
 * Offline, a page read from the service worker's copy is read-only: a form that cannot wait in the
 * outbox (an edit, a rename) is not sent, so the browser never lands on its "No internet" page.
 */
function guardPlainForms(): void {
  document.addEventListener('submit', (event) => {
    const form = event.target;
    if (!(form instanceof HTMLFormElement) || navigator.onLine || event.defaultPrevented) return;
    if (form.hasAttribute('data-inplace') || form.getAttribute('action') === '/inbox/capture' || form.method.toLowerCase() !== 'post') return;
    event.preventDefault();
    renderOutbox(null, { conflicts: [], synced: [], readOnly: true });
  });
}
