import { say } from '../acting/toast.js';
import { swapLists, WITH_SIDEBAR } from '../regions/swap-lists.js';
import { actionWord, waitingMessage, type OutboxEntry } from './outbox-replay.js';
import { rowItemId } from '../regions/row-id.js';

/*
 * How the offline outbox shows (decision 0085), above the page's lists (outside the regions that
 * live updates replace): a banner with the count, the captures that wait as greyed rows "waiting
 * to sync", and, after a replay, a note per capture saying where it went (with Undo) and per
 * conflict what was not applied. Rows acted on offline are greyed in place with what waits.
 */

function element<K extends keyof HTMLElementTagNameMap>(tag: K, className: string, text?: string): HTMLElementTagNameMap[K] {
  const el = document.createElement(tag);
  el.className = className;
  if (text !== undefined) el.textContent = text;
  return el;
}

/** The outbox's area: made once, before the lists (or at the top of the page's main part). */
function area(): { banner: HTMLElement; captures: HTMLElement; notes: HTMLElement } {
  let box = document.querySelector<HTMLElement>('[data-outbox]');
  if (!box) {
    box = element('section', 'outbox');
    box.setAttribute('data-outbox', '');
    box.setAttribute('aria-label', 'Changes made offline');
    const banner = element('p', 'outbox-banner');
    banner.setAttribute('role', 'status');
    banner.hidden = true;
    const captures = element('ul', 'items queued-captures');
    captures.setAttribute('aria-label', 'Captures waiting to sync');
    const notes = element('ul', 'outbox-notes');
    box.append(banner, captures, notes);
    const lists = document.getElementById('lists');
    if (lists?.parentElement) lists.parentElement.insertBefore(box, lists);
    else document.getElementById('main')?.prepend(box);
  }
  return {
    banner: box.querySelector<HTMLElement>('.outbox-banner')!,
    captures: box.querySelector<HTMLElement>('.queued-captures')!,
    notes: box.querySelector<HTMLElement>('.outbox-notes')!,
  };
}

/** A greyed row for a capture that waits: its text, and when it was typed. */
function queuedCaptureRow(text: string, at: number, clientId: string): HTMLElement {
  const row = element('li', 'item queued');
  row.setAttribute('data-client-id', clientId);
  const line = element('div', 'line');
  const body = element('div', 'body');
  const typed = new Date(at).toLocaleTimeString(undefined, { hour: '2-digit', minute: '2-digit' });
  body.append(element('p', 'title', text.split('\n')[0] ?? text), element('p', 'meta', `Waiting to sync · typed ${typed}`));
  line.append(body);
  row.append(line);
  return row;
}

const ACTION_NOTES: Record<string, string> = { toggle: 'Tick', due: 'New date', move: 'Move', archive: 'Archive', unarchive: 'Unarchive', delete: 'Delete' };

/** Greys the rows acted on offline, with what waits for each; rows no longer waiting come back. */
function markRows(entries: readonly OutboxEntry[]): void {
  const waiting = new Map<string, string[]>();
  for (const e of entries)
    if (e.kind === 'action')
      waiting.set(e.entry.item_id, [...(waiting.get(e.entry.item_id) ?? []), ACTION_NOTES[e.entry.action] ?? actionWord(e.entry.action)]);
  document.querySelectorAll<HTMLElement>('li.item.queued[id^="item-"]').forEach((row) => {
    if (waiting.has(rowItemId(row))) return;
    row.classList.remove('queued');
    row.querySelector('.queued-note')?.remove();
  });
  for (const [id, actions] of waiting) {
    const row = document.getElementById(`item-${id}`);
    if (!row) continue;
    row.classList.add('queued');
    const meta = row.querySelector(':scope > .line .meta');
    let note = row.querySelector<HTMLElement>('.queued-note');
    if (!note) {
      note = element('span', 'queued-note');
      meta?.append(' ', note);
    }
    note.textContent = `${actions.join(', ')} waiting to sync`;
  }
}

export interface OutboxNotes {
  synced: HTMLElement[];
  conflicts: string[];
  /** A plain form was not sent: the page is read-only offline. */
  readOnly?: boolean;
}

/** Shows what waits (`entries`; null leaves it as shown) and the notes of a replay. */
export function renderOutbox(entries: readonly OutboxEntry[] | null, notes?: OutboxNotes): void {
  if (!document.getElementById('main')) return;
  // Made only once there is something to show: a page with nothing waiting is left as the server sent it.
  const something =
    (entries !== null && entries.length > 0) || (notes !== undefined && (notes.synced.length > 0 || notes.conflicts.length > 0 || notes.readOnly));
  if (!something && !document.querySelector('[data-outbox]')) {
    markRows([]);
    return;
  }
  const { banner, captures, notes: list } = area();
  if (entries !== null) {
    const count = entries.length;
    banner.hidden = count === 0;
    banner.textContent =
      count === 0 ? '' : `${count} ${count === 1 ? 'change' : 'changes'} made offline waiting to sync: sent in the order made when the connection is back.`;
    captures.replaceChildren(...entries.flatMap((e) => (e.kind === 'capture' ? [queuedCaptureRow(e.entry.text, e.entry.at, e.entry.client_id)] : [])));
    markRows(entries);
    const queue = document.querySelector<HTMLElement>('[data-offline-queue]');
    const waitingCaptures = entries.filter((e) => e.kind === 'capture').length;
    if (queue) {
      queue.hidden = waitingCaptures === 0;
      queue.textContent = waitingMessage(waitingCaptures);
    }
  }
  if (!notes) return;
  if (notes.readOnly) {
    list.querySelector('.read-only')?.remove();
    list.append(
      element(
        'li',
        'note read-only',
        'You are offline: this page is read-only until the connection is back. Ticks, dates, moves and captures wait and are sent then.',
      ),
    );
  }
  list.append(...notes.synced, ...notes.conflicts.map((text) => element('li', 'note conflict', text)));
  if (list.children.length > 0 && !list.querySelector('.dismiss')) {
    const item = element('li', 'dismiss');
    const button = element('button', 'small link', 'Dismiss these notes');
    button.type = 'button';
    button.addEventListener('click', () => list.replaceChildren());
    item.append(button);
    list.append(item);
  } else {
    const dismiss = list.querySelector('.dismiss');
    if (dismiss) list.append(dismiss);
  }
}

/** The note of a capture sent from the outbox: where it went (the server's message), with Undo. */
export function syncedNote(answer: Record<string, unknown>, csrf: string, returnTo: string): HTMLElement {
  const note = element('li', 'note synced');
  const text = element('span', '', typeof answer.message === 'string' ? answer.message : 'Saved.');
  note.append(text);
  const form = answer.undo_form as { url?: unknown; fields?: unknown } | undefined;
  if (typeof form?.url !== 'string' || !Array.isArray(form.fields)) return note;
  const url = form.url;
  const fields = form.fields.filter((pair): pair is [string, string] => Array.isArray(pair) && typeof pair[0] === 'string' && typeof pair[1] === 'string');
  const undo = element('button', 'small', 'Undo');
  undo.type = 'button';
  undo.addEventListener('click', () => {
    undo.disabled = true;
    const data = new URLSearchParams([['_csrf', csrf], ['return', returnTo], ...fields]);
    fetch(url, { method: 'POST', body: data, credentials: 'same-origin', headers: { 'cin-in-place': '1' } })
      .then(async (res) => {
        if (!res.ok) throw new Error(`status ${res.status}`);
        const page = await fetch(window.location.pathname + window.location.search, { credentials: 'same-origin' });
        if (page.ok && !page.redirected) swapLists(await page.text(), null, -1, null, WITH_SIDEBAR);
        text.textContent = `Undone: ${text.textContent ?? ''}`;
        undo.remove();
      })
      .catch(() => {
        undo.disabled = false;
        say('Not undone: the server could not be reached. Try again.');
      });
  });
  note.append(' ', undo);
  return note;
}
