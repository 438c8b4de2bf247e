import { fieldValue } from '../http.js';
import { queueAction } from '../offline/offline-outbox.js';
import { placeRow } from '../regions/place-row.js';
import { swapLists } from '../regions/swap-lists.js';
import { swapSidebar } from '../regions/swap-sidebar.js';
import { fetchPage, networkFailure, postInPlace, RefusedError, type InPlaceResult } from './in-place-request.js';
import { inFlight } from './in-flight.js';
import { ownChanges } from './own-changes.js';
import { deletePageWithGrace, deleteWithGrace } from './pending-delete.js';
import { say } from './toast.js';
import { undoRequest, type ActAnswer } from './undo.js';
import { rowItemId } from '../regions/row-id.js';

/*
 * Acting on an item (done, archive, move, a date, delete, a new subtask) happens in place: the
 * tick shows at once, the form is sent with fetch, and the server answers what it did, the Undo
 * it keeps (decision 0076) and the item's row, which takes the old one's place (or leaves the
 * list); the page is fetched again only where a row cannot say enough. A delete waits out a
 * grace period with Undo instead of asking first. Offline, nothing navigates away.
 */

/** The item an answer changed is this page's own change: its live echo is skipped. */
function noteOwn(result: InPlaceResult): void {
  if ('answer' in result && result.answer.item) ownChanges.note(result.answer.item.id, result.answer.item.updated_at);
}

/** The page's lists again from the server, with the focus on `focusId` or at the row index. */
function refreshLists(url: string, focusId: string | null, index: number, focusedBefore: Element | null): Promise<void> {
  return fetchPage(url).then((page) => swapLists(page, focusId, index, focusedBefore));
}

/** The focus after a row was placed: on the row, else on the row now at its place, unless the user moved on. */
function refocus(focusId: string | null, index: number, focusedBefore: Element | null): void {
  const active = document.activeElement;
  if (active && active !== document.body && active !== focusedBefore && active.isConnected) return;
  let target: HTMLElement | null = focusId ? document.getElementById(focusId) : null;
  if (!target && index >= 0) {
    const rows = document.querySelectorAll<HTMLElement>('#lists li.item:not([hidden])');
    target = rows[Math.min(index, rows.length - 1)] ?? null;
  }
  target?.focus();
}

/** Shows the answer: the row in place (or the lists fetched again), the toast, and its Undo. */
function settle(
  answer: ActAnswer,
  where: { itemId: string | null; listUrl: string; index: number; focusedBefore: Element | null; csrf: string; returnTo: string | null },
): Promise<void> {
  const rowId = where.itemId ? `item-${where.itemId}` : null;
  swapSidebar(answer.sidebar);
  const placed = answer.row !== null && where.itemId !== null && placeRow(where.itemId, answer.row);
  const shown = placed
    ? Promise.resolve(refocus(rowId, where.index, where.focusedBefore))
    : refreshLists(where.listUrl, rowId, where.index, where.focusedBefore);
  return shown.then(() => {
    const undoId = answer.undo;
    say(
      answer.message,
      undoId === null
        ? null
        : {
            label: 'Undo',
            run: () => {
              const before = document.activeElement;
              const request = undoRequest(undoId, where.csrf, where.returnTo);
              inFlight(postInPlace(request.url, request.data), noteOwn).then(
                (result) => {
                  if ('page' in result) return;
                  return settle({ ...result.answer, undo: null }, { ...where, focusedBefore: before, index: -1 });
                },
                (error: unknown) => say(error instanceof RefusedError && error.said ? error.said : 'Undo failed: the server could not be reached. Try again.'),
              );
            },
          },
    );
  });
}

/** The tick shows at once (issue 47 item 8); `undo` puts the circle back if the server refuses. */
function tickNow(row: HTMLElement, button: HTMLElement): () => void {
  const was = button.getAttribute('aria-pressed') === 'true';
  const text = button.textContent;
  button.setAttribute('aria-pressed', String(!was));
  button.textContent = was ? '' : '✓';
  row.classList.toggle('done', !was);
  return () => {
    button.setAttribute('aria-pressed', String(was));
    button.textContent = text;
    row.classList.toggle('done', was);
  };
}

/** The actions that wait in the offline outbox (a new subtask needs the server's answer). */
const QUEUEABLE = new Set(['toggle', 'due', 'move', 'archive', 'unarchive', 'delete']);

export function installActingInPlace(): void {
  document.addEventListener('submit', (event) => {
    const form = event.target;
    if (!(form instanceof HTMLFormElement)) return;
    if (event.defaultPrevented || !form.hasAttribute('data-inplace') || form.getAttribute('data-plain') || !window.fetch || !window.DOMParser) return;
    const submitter = event.submitter;
    const button = submitter instanceof HTMLButtonElement || submitter instanceof HTMLInputElement ? submitter : null;
    const url = button?.getAttribute('formaction') || form.action;
    const action = url.split('/').pop() ?? '';
    // A row's done button belongs to the page's one form (form="act"): the row is the button's.
    const row = button?.closest<HTMLElement>('li.item') ?? form.closest<HTMLElement>('li.item');
    // The button's own name and value too (a snooze's minutes).
    const data = new URLSearchParams(new FormData(form, button) as unknown as Record<string, string>);
    event.preventDefault();
    const itemId = /^\/inbox\/items\/([^/]+)\//.exec(new URL(url, window.location.href).pathname)?.[1] ?? null;
    // Offline, an action on an item waits in the outbox, shown in place (decision 0085).
    if (!navigator.onLine && itemId && QUEUEABLE.has(action)) {
      if (row && button && action === 'toggle') tickNow(row, button);
      queueAction(row, url, data, itemId);
      return;
    }
    if (button?.hasAttribute('data-grace')) {
      if (row) deleteWithGrace(row, url, data);
      else deletePageWithGrace(url, data);
      return;
    }
    const index = row ? Array.prototype.indexOf.call(document.querySelectorAll('#lists li.item:not([hidden])'), row) : -1;
    const focusedBefore = document.activeElement;
    const returnTo = form.querySelector<HTMLInputElement>('input[name=return]')?.value ?? null;
    const untick = row && button && action === 'toggle' ? tickNow(row, button) : null;
    row?.classList.add('pending');
    if (button) button.disabled = true;
    inFlight(postInPlace(url, data), noteOwn)
      .then((result: InPlaceResult) => {
        row?.classList.remove('pending');
        if (button) button.disabled = false;
        if ('page' in result) {
          // A route that answers with the page (a new subtask): its lists replace these.
          swapLists(result.page, row ? row.id : null, index, focusedBefore);
          if (action === 'subtasks') document.getElementById('subtask-text')?.focus();
          say(action === 'subtasks' ? 'Subtask added.' : 'Done.');
          return;
        }
        return settle(result.answer, {
          itemId: row ? rowItemId(row) : null,
          listUrl: window.location.pathname + window.location.search,
          index,
          focusedBefore,
          csrf: fieldValue(form, '_csrf'),
          returnTo,
        });
      })
      .catch((error: unknown) => {
        untick?.();
        row?.classList.remove('pending');
        if (button) button.disabled = false;
        if (networkFailure(error)) {
          // Never a form post while offline: it would land on the browser's error page. The action waits instead.
          if (itemId && QUEUEABLE.has(action)) {
            if (untick && row && button) tickNow(row, button);
            queueAction(row, url, data, itemId);
          } else say('You are offline: nothing was changed. Try again when the connection is back.');
          return;
        }
        // A limit, an expired form, a bad date: the ordinary submit shows the page that says so.
        form.setAttribute('data-plain', '1');
        form.requestSubmit(button ?? undefined);
      });
  });
}
