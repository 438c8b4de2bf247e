import { focusPlace, keepState, refocus } from './region-state.js';

/**
 * Puts the sidebar an action's answer carries in place of the page's, so its counts follow the
 * change (issue 47): the live echo that used to bring them is skipped as the page's own. The focus,
 * if the user went there meanwhile, stays on the same link.
 */
export function swapSidebar(markup: string | null): void {
  const mine = document.getElementById('sidebar');
  if (markup === null || !mine) return;
  const template = document.createElement('template');
  template.innerHTML = markup;
  const theirs = template.content.getElementById('sidebar');
  if (!theirs) return;
  const place = focusPlace([mine]);
  keepState(mine, theirs);
  mine.replaceWith(theirs);
  refocus(place);
}
