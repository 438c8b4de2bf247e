/*
 * The phone's bottom bar (issue 47 item 9; layout.ts draws it, phone-styles.ts shows it at 600 px
 * and narrower): "More" opens the main navigation above the bar, and the floating capture button
 * opens the page's capture box as a sheet above the bar, its text field focused. Without this
 * script, "More" is a link to the navigation (shown by :target) and the button leads to Today's box.
 */

const SHEET = 'capture-sheet';
const NAV_OPEN = 'nav-open';

function setNav(more: HTMLElement, open: boolean): void {
  document.body.classList.toggle(NAV_OPEN, open);
  more.setAttribute('aria-expanded', String(open));
}

/** Opens the page's capture box as a sheet; false when the page has none. */
function openCapture(): boolean {
  const box = document.getElementById('capture-text');
  if (!(box instanceof HTMLTextAreaElement)) return false;
  document.body.classList.add(SHEET);
  box.focus();
  return true;
}

function closeCapture(): void {
  document.body.classList.remove(SHEET);
}

export function installBottomBar(): void {
  const more = document.querySelector<HTMLElement>('[data-more-nav]');
  const fab = document.querySelector<HTMLElement>('[data-capture-fab]');
  if (more) {
    more.addEventListener('click', (event) => {
      event.preventDefault();
      setNav(more, !document.body.classList.contains(NAV_OPEN));
    });
    // A tap anywhere else, or Escape, closes the navigation.
    document.addEventListener('click', (event) => {
      const target = event.target as Node | null;
      if (!document.body.classList.contains(NAV_OPEN) || !target || more.contains(target)) return;
      if (!document.getElementById('site-nav')?.contains(target)) setNav(more, false);
    });
  }
  fab?.addEventListener('click', (event) => {
    // On a page with a capture box the box opens here; elsewhere the link leads to Today's.
    if (openCapture()) event.preventDefault();
  });
  document.addEventListener('keydown', (event) => {
    if (event.key !== 'Escape') return;
    if (more && document.body.classList.contains(NAV_OPEN)) setNav(more, false);
    if (document.body.classList.contains(SHEET)) {
      closeCapture();
      fab?.focus();
    }
  });
  // The sheet closes when the focus leaves the capture box with nothing typed in it.
  const form = document.getElementById('capture-text')?.closest('form');
  form?.addEventListener('focusout', (event) => {
    const next = event.relatedTarget as Node | null;
    const box = document.getElementById('capture-text') as HTMLTextAreaElement | null;
    if (next && form.contains(next)) return;
    if (box && box.value.trim() === '') closeCapture();
  });
  // /#capture (the button on a page without a box) opens Today's box as a sheet on a phone.
  if (window.location.hash === '#capture' && fab && window.getComputedStyle(fab).display !== 'none') openCapture();
}
