import type { ItemView } from '../modules/items/item-view.js';
import { dayStart, isOverdue, type DateContext } from './dates.js';
import type { ListKind } from './inbox-render.js';
import type { Show } from './inbox-query.js';

/** Upcoming's days (inbox-render.ts shows as many). */
const UPCOMING_DAYS = 14;

/**
 * Where an item belongs on a list page after an action in place (issue 47 item 8): the id of the
 * group whose list holds its row (`overdue`, `due-today`, `done-today`, `day-3`, `open`), `here`
 * to replace the row where it is (search results, whose filters the script cannot judge), or null
 * when the page no longer lists it. The same rules as the page's own queries (inbox-render.ts).
 */
export function placeOf(list: ListKind, item: ItemView, dates: DateContext, inboxId: string, show: Show = 'open'): string | null {
  const open = !item.is_completed && item.status !== 'archived';
  switch (list.kind) {
    case 'today': {
      if (item.status === 'archived') return null;
      if (item.is_completed) return item.updated_at >= dayStart(dates, 0).toISOString() ? 'done-today' : null;
      if (!item.due_at || item.due_at >= dayStart(dates, 1).toISOString()) return null;
      return isOverdue(item, dates) ? 'overdue' : 'due-today';
    }
    case 'upcoming': {
      if (!open || !item.due_at) return null;
      // Upcoming lists what is overdue first, as Today does.
      if (isOverdue(item, dates)) return 'overdue';
      for (let day = 0; day < UPCOMING_DAYS; day += 1) {
        if (item.due_at >= dayStart(dates, day).toISOString() && item.due_at < dayStart(dates, day + 1).toISOString()) return `day-${day}`;
      }
      return null;
    }
    case 'inbox':
      return open && item.parent_id === null && item.project_id === inboxId ? 'open' : null;
    case 'project':
      return open && item.parent_id === null && item.project_id === list.projectId ? 'open' : null;
    case 'items':
      // Words and tags the script cannot judge, but the list's state it can: a tick takes a row off the open list.
      return showsState(show, item) ? 'here' : null;
  }
}

/** Whether the all-items list's state filter (inbox-query.ts) still shows the item. */
function showsState(show: Show, item: ItemView): boolean {
  switch (show) {
    case 'open':
      return !item.is_completed && item.status !== 'archived';
    case 'done':
      return item.status === 'done';
    case 'archived':
      return item.status === 'archived';
    case 'all':
      return true;
  }
}
