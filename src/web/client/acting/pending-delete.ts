import { recount } from '../regions/place-row.js';
import { swapSidebar } from '../regions/swap-sidebar.js';
import { postInPlace } from './in-place-request.js';
import { ownChanges } from './own-changes.js';
import { say } from './toast.js';
import { rowItemId } from '../regions/row-id.js';

/*
 * Delete with a grace period instead of a confirmation dialog (issue 47 item 1, decision 0076): the row goes
 * at once and the toast offers Undo; the delete is sent only when the toast goes (its time is up,
 * another message replaces it, or the page is left), so Undo simply never sends it.
 */
export function deleteWithGrace(row: HTMLElement, url: string, data: URLSearchParams): void {
  const itemId = rowItemId(row);
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
      (result) => {
        row.remove();
        if ('answer' in result) swapSidebar(result.answer.sidebar);
      },
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

/**
 * The item page's Delete, with the same grace period (no confirmation dialog, issue 47 item 10): the page's
 * content goes at once, the toast offers Undo, and the delete is sent when the toast goes; the
 * browser then goes to Today, the item's page being gone.
 */
export function deletePageWithGrace(url: string, data: URLSearchParams): void {
  const main = document.getElementById('main');
  if (!main) return;
  const name = document.querySelector('h1')?.textContent ?? 'the item';
  const shown = Array.from(main.children).filter((el): el is HTMLElement => el instanceof HTMLElement && !el.hasAttribute('data-toast') && !el.hidden);
  const gone = document.createElement('p');
  gone.className = 'narrow deleted-note';
  gone.textContent = `“${name}” is deleted. `;
  const back = document.createElement('a');
  back.href = '/';
  back.textContent = 'Back to Today';
  gone.append(back);
  for (const el of shown) el.hidden = true;
  main.prepend(gone);
  let settled = false;
  const restore = (): void => {
    gone.remove();
    for (const el of shown) el.hidden = false;
  };
  const send = (): void => {
    if (settled) return;
    settled = true;
    window.removeEventListener('pagehide', send);
    ownChanges.note(url.split('/').slice(-2, -1)[0] ?? '', null);
    postInPlace(url, data, true).then(
      () => window.location.assign('/'),
      () => {
        restore();
        say(`“${name}” was not deleted: the server could not be reached, or it changed meanwhile. Try again.`);
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
        restore();
        say(`Undone: “${name}” is not deleted.`);
      },
    },
    send,
  );
}
