/*
 * The thumb-first phone layout (issue 47 item 9), at 600 px and narrower: the sections in a bar at
 * the bottom, a floating capture button above it, touch targets of at least 44 px, the row menu's
 * quick dates, and the rows' swipe (client/bottom-bar.ts, client/swipe.ts). Wider screens are
 * untouched: the bar and the button are not displayed there.
 */
export const PHONE_CSS = `
.bottom-bar, .fab { display: none; }
/* Swipe on touch screens (client/swipe.ts): the row follows the finger; vertical scrolling stays the browser's. */
html.touch li.item { touch-action: pan-y; }
li.item > .line { transition: transform .15s ease-out; }
li.item.swiping > .line { transition: none; }
li.item.swipe-done { box-shadow: inset 6px 0 0 var(--ok); }
li.item.swipe-later { box-shadow: inset -6px 0 0 var(--accent); }
@media (max-width: 37.5rem) {
  /* Room below the last row for the bar and the capture button above it. */
  body.signed-in { padding-bottom: calc(8rem + env(safe-area-inset-bottom, 0px)); }
  body.signed-in header.top { display: none; }
  body.signed-in.nav-open header.top, body.signed-in header.top:has(nav:target) {
    display: block; position: fixed; left: 0; right: 0; bottom: calc(3.5rem + env(safe-area-inset-bottom, 0px)); z-index: 30;
    border-top: 1px solid var(--line); border-bottom: 0; box-shadow: 0 -4px 16px rgb(0 0 0 / .2); max-height: calc(100vh - 5rem); overflow-y: auto;
  }
  body.signed-in header.top nav { flex-direction: column; align-items: stretch; padding: .25rem 1rem; }
  body.signed-in header.top .links { flex-direction: column; align-items: stretch; overflow: visible; white-space: normal; gap: 0; }
  body.signed-in header.top .links a, body.signed-in header.top .links button.link { min-height: 2.75rem; border-bottom: 1px solid var(--line); }
  .bottom-bar {
    display: block; position: fixed; left: 0; right: 0; bottom: 0; z-index: 20; background: var(--card);
    border-top: 1px solid var(--line); padding-bottom: env(safe-area-inset-bottom, 0px);
  }
  .bottom-bar ul { display: flex; margin: 0; padding: 0; list-style: none; }
  .bottom-bar li { flex: 1 1 0; min-width: 0; }
  .bottom-bar a { display: flex; align-items: center; justify-content: center; min-height: 3.5rem; padding: 0 .15rem; font-size: .85rem; color: var(--muted); text-decoration: none; text-align: center; }
  .bottom-bar a[aria-current="page"], .bottom-bar a[aria-expanded="true"] { color: var(--accent); font-weight: 700; box-shadow: inset 0 3px 0 var(--accent); }
  .fab {
    display: flex; align-items: center; justify-content: center; position: fixed; right: 1rem; bottom: calc(4.25rem + env(safe-area-inset-bottom, 0px)); z-index: 25;
    width: 3.5rem; height: 3.5rem; border-radius: 50%; background: var(--accent); color: var(--accent-fg); font-size: 2rem; line-height: 1; text-decoration: none;
    box-shadow: 0 3px 10px rgb(0 0 0 / .3);
  }
  body.capture-sheet .fab { display: none; }
  body.capture-sheet .capture {
    position: fixed; left: 0; right: 0; bottom: calc(3.5rem + env(safe-area-inset-bottom, 0px)); z-index: 26; margin: 0; padding: .75rem;
    background: var(--card); border-top: 1px solid var(--line); box-shadow: 0 -4px 16px rgb(0 0 0 / .2);
  }
  /* Beside the capture button, not under it; sized by its words (left: 50% alone halved the room it wraps in). */
  .toast { bottom: calc(4.5rem + env(safe-area-inset-bottom, 0px)); left: .75rem; transform: none; max-width: calc(100% - 5.5rem); }
  button.small, .button.small { min-height: 2.75rem; }
  .check, .item.sub .check, .checklist .check { width: 2.75rem; height: 2.75rem; }
  .item.sub .more > summary { top: .1rem; }
  .more-line input, .more-line select { height: 2.75rem; }
  .item .more-form { margin-right: -2.65rem; }
  .more-line.quick-dates .chip { flex: 1 1 auto; padding: .2rem .5rem; white-space: nowrap; }
}
`;
