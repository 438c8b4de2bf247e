import { focusPlace, keepState, refocus } from './region-state.js';
import { upgradeRows } from './row-menu.js';

/** The regions an action's answer replaces: the lists of a list page, the subtasks of an item page. */
const REGIONS = ['lists', 'subtasks'];
/**
 * With the sidebar too, where a change moves its counts and the page fetches itself anyway: the
 * offline outbox's sync, whose live echoes are skipped as this page's own (issue 47: "Inbox 0"
 * beside two Inbox rows), and a brain dump's batch. An answer with the row carries the sidebar
 * itself (swap-sidebar.ts).
 */
export const WITH_SIDEBAR = [...REGIONS, 'sidebar'];

/**
 * Replaces the page's lists with those of `text`, the page the server answered an action with. If
 * the user has gone on meanwhile (the next row, another row's ⋯ menu), they stay where they went;
 * otherwise `focusId` (the acted-on row), or the row now at `fallbackIndex`, gets the focus.
 */
export function swapLists(text: string, focusId: string | null, fallbackIndex: number, focusedBefore?: Element | null, regions = REGIONS): void {
  const fresh = new DOMParser().parseFromString(text, 'text/html');
  // Rows' menus are built in the parsed copy, before it takes the old one's place, so open ones stay open.
  upgradeRows(fresh);
  const moved = document.activeElement !== focusedBefore && document.activeElement !== document.body;
  const pairs = regions.flatMap((id) => {
    const mine = document.getElementById(id);
    const theirs = fresh.getElementById(id);
    return mine && theirs ? [[mine, theirs] as const] : [];
  });
  const place = moved ? focusPlace(pairs.map(([mine]) => mine)) : null;
  for (const [mine, theirs] of pairs) {
    keepState(mine, theirs);
    mine.replaceWith(theirs);
  }
  if (moved && (!place || refocus(place))) return;
  let target: HTMLElement | null | undefined = focusId ? document.getElementById(focusId) : null;
  if (!target && fallbackIndex >= 0) {
    const rows = document.querySelectorAll<HTMLElement>('li.item');
    target = rows[Math.min(fallbackIndex, rows.length - 1)];
  }
  target?.focus();
}
