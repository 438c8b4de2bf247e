import { insertionIndex, orderOf, type RowAnswer } from '../acting/undo.js';
import { keepState } from './region-state.js';
import { dueOf, upgradeRows } from './row-menu.js';
import { rowItemId } from './row-id.js';

/*
 * Partial updates (issue 47 item 8): after an action in place only the item's row changes, taken
 * from the server's answer and put where the page now lists it, instead of the whole page fetched
 * again. Whatever this cannot do exactly (a subtask's row, a group the page does not show yet, a
 * list left empty) it declines, and the caller fetches the lists as before.
 */

const rowsOf = (list: Element): HTMLElement[] => Array.from(list.children).filter((el): el is HTMLElement => el.matches('li.item'));

/** Each group's count and visibility, after rows came or went. */
export function recount(): void {
  document.querySelectorAll<HTMLElement>('#lists .group, #lists .done-today').forEach((group) => {
    const list = group.querySelector(':scope > ul.items');
    if (!list) return;
    const shown = rowsOf(list).filter((row) => !row.hidden).length;
    const count = group.querySelector(':scope > h2 .count, :scope > summary .count');
    if (count) count.textContent = String(shown);
    group.hidden = shown === 0;
  });
}

function parseRow(html: string): HTMLElement | null {
  const template = document.createElement('template');
  template.innerHTML = html;
  upgradeRows(template.content);
  const row = template.content.firstElementChild;
  return row instanceof HTMLElement && row.matches('li.item') ? row : null;
}

/** Today's "Done today" list, made when the first item of the day is done there (inbox.views.ts draws the same). */
function doneTodayList(): Element | null {
  const lists = document.getElementById('lists');
  if (!lists || (!document.getElementById('overdue') && !document.getElementById('due-today'))) return null;
  const details = document.createElement('details');
  details.className = 'done-today';
  details.id = 'done-today';
  const summary = document.createElement('summary');
  const count = document.createElement('span');
  count.className = 'count';
  summary.append('Done today ', count);
  const list = document.createElement('ul');
  list.className = 'items';
  details.append(summary, list);
  lists.insertBefore(details, lists.querySelector(':scope > nav.pager'));
  return list;
}

/** Puts the item's new row where the page lists it now (or takes it off); whether it could. */
export function placeRow(itemId: string, answer: RowAnswer): boolean {
  const old = document.getElementById(`item-${itemId}`);
  if (old?.classList.contains('sub')) return false;
  const fresh = answer.place === null ? null : parseRow(answer.html);
  if (answer.place !== null && !fresh) return false;
  if (answer.place === 'here') {
    if (!old || !fresh) return false;
    keepState(old, fresh);
    old.replaceWith(fresh);
    return true;
  }
  const list =
    answer.place === null
      ? null
      : (document.querySelector(`#lists #${CSS.escape(answer.place)} > ul.items`) ?? (answer.place === 'done-today' ? doneTodayList() : null));
  if (answer.place !== null && !list) return false;
  old?.remove();
  if (list && fresh) {
    const order = orderOf(answer.place!);
    // Ids are time-ordered (UUIDv7): newest first is the highest id first.
    const key = (row: Element) => (order === 'created' ? rowItemId(row) : dueOf(row));
    const rows = rowsOf(list);
    const index = insertionIndex(order, rows.map(key), key(fresh));
    list.insertBefore(fresh, rows[index] ?? null);
  }
  recount();
  // A list left with no row shows the page's empty message: the lists are fetched for it.
  return document.querySelector('#lists li.item:not([hidden])') !== null;
}
