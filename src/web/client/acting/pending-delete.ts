import { recount } from '../regions/place-row.js';
import { postInPlace } from './in-place-request.js';
import { ownChanges } from './own-changes.js';
import { say } from './toast.js';

/*
 * Delete with a grace period instead of confirm() (issue 47 item 1, decision 0076): the row goes
 * at once and the toast offers Undo; the delete is sent only when the toast goes (its time is up,
 * another message replaces it, or the page is left), so Undo simply never sends it.
 */
export function deleteWithGrace(row: HTMLElement, url: string, data: URLSearchParams): void {
  const itemId = row.getAttribute('data-item-id') ?? '';
  const name = row.querySelector(':scope > .line .title')?.textContent ?? 'the item';
  let settled = false;
  row.hidden = true;
  // Back after Undo, the row shows closed, as a row does.
  row.querySelector<HTMLDetailsElement>(':scope > .line > details.more')?.removeAttribute('open');
  recount();
  const send = (): void => {
    if (settled) return;
    settled = true;
    window.removeEventListener('pagehide', send);
    ownChanges.note(itemId, null);
    // keepalive: the request outlives a page being left.
    postInPlace(url, data, true).then(
      () => row.remove(),
      () => {
        row.hidden = false;
        recount();
        say(`“${name}” was not deleted: the server could not be reached. Try again.`);
      },
    );
  };
  window.addEventListener('pagehide', send);
  say(
    `Deleted “${name}”.`,
    {
      label: 'Undo',
      run: () => {
        settled = true;
        window.removeEventListener('pagehide', send);
        row.hidden = false;
        recount();
        row.focus();
        say(`Undone: “${name}” is not deleted.`);
      },
    },
    send,
  );
}
