/*
 * Swipe a row on a touch screen (issue 47 item 9): to the right to mark it done, to the left to move
 * it to tomorrow. Pointer events of touch pointers only; each swipe presses the row's own button
 * (the done circle, the menu's "Tomorrow"), so it acts in place with its Undo toast like a tap, and
 * a mouse or a keyboard meets nothing new. Listeners sit on the document: rows replaced in place
 * swipe too.
 */

import { swipeAction } from './swipe-action.js';

/** Movement before a gesture is read as a swipe or a scroll. */
const SLOP = 10;
/** How far the row follows the finger. */
const TRAVEL = 120;

interface Gesture {
  row: HTMLElement;
  line: HTMLElement;
  pointer: number;
  x: number;
  y: number;
  dx: number;
  swiping: boolean;
}

function reset(g: Gesture): void {
  g.row.classList.remove('swiping', 'swipe-done', 'swipe-later');
  g.line.style.transform = '';
}

function act(row: HTMLElement, action: 'done' | 'later'): void {
  const target =
    action === 'done'
      ? row.querySelector<HTMLButtonElement>(':scope > .line .check')
      : row.querySelector<HTMLButtonElement>(':scope > .line details.more .quick-dates button[data-quick="tomorrow"]');
  target?.click();
}

export function installSwipe(): void {
  let gesture: Gesture | null = null;
  /** The row just swiped: the click its release makes (on the title's link, say) must not also act. */
  let swallowIn: HTMLElement | null = null;

  document.addEventListener('pointerdown', (event) => {
    if (event.pointerType !== 'touch' || !event.isPrimary) return;
    const target = event.target as Element | null;
    // Typing or choosing in a field, or inside an open menu, is not a swipe.
    if (!target || target.closest('input, select, textarea, .more-form')) return;
    const row = target.closest<HTMLElement>('li.item');
    const line = row?.querySelector<HTMLElement>(':scope > .line');
    if (!row || !line || row.classList.contains('pending')) return;
    gesture = { row, line, pointer: event.pointerId, x: event.clientX, y: event.clientY, dx: 0, swiping: false };
  });

  document.addEventListener('pointermove', (event) => {
    const g = gesture;
    if (!g || event.pointerId !== g.pointer) return;
    const dx = event.clientX - g.x;
    const dy = event.clientY - g.y;
    if (!g.swiping) {
      if (Math.abs(dy) > SLOP && Math.abs(dy) >= Math.abs(dx)) {
        gesture = null; // a scroll
        return;
      }
      if (Math.abs(dx) <= SLOP) return;
      g.swiping = true;
      g.row.classList.add('swiping');
    }
    g.dx = dx;
    g.line.style.transform = `translateX(${Math.max(-TRAVEL, Math.min(TRAVEL, dx))}px)`;
    const action = swipeAction(dx);
    g.row.classList.toggle('swipe-done', action === 'done');
    g.row.classList.toggle('swipe-later', action === 'later');
  });

  const end = (event: PointerEvent, cancelled: boolean) => {
    const g = gesture;
    if (!g || event.pointerId !== g.pointer) return;
    gesture = null;
    reset(g);
    if (!g.swiping) return;
    swallowIn = g.row;
    setTimeout(() => (swallowIn = null), 400);
    const action = cancelled ? null : swipeAction(g.dx);
    if (action) act(g.row, action);
  };
  document.addEventListener('pointerup', (event) => end(event, false));
  document.addEventListener('pointercancel', (event) => end(event, true));
  document.addEventListener(
    'click',
    (event) => {
      if (!swallowIn || !event.isTrusted || !swallowIn.contains(event.target as Node | null)) return;
      swallowIn = null;
      event.preventDefault();
      event.stopPropagation();
    },
    true,
  );
}
