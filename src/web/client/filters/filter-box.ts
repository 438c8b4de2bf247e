import { parseFilter } from '../../../modules/filters/language/parse.js';

/*
 * The filter box (issue 48): as the user types, the query is read by the server's own parser
 * (src/modules/filters/language, bundled here: one implementation, no copy), and its error shows
 * under the place reading stopped. What only the server knows (an unknown project, a date it cannot
 * read) shows when the form is sent, in the same element (views/filters.views.ts).
 */

/** Shows `error` in the box's error element: a caret under the place, and the message. */
function show(input: HTMLInputElement, block: HTMLElement, error: { message: string; position: number } | null): void {
  const caret = block.querySelector<HTMLElement>('.caret-line');
  const message = block.querySelector<HTMLElement>('.field-error');
  if (!caret || !message) return;
  if (!error) {
    block.hidden = true;
    input.removeAttribute('aria-invalid');
    return;
  }
  // The box's font is monospace: spaces put the caret under the character; the box may be scrolled.
  caret.textContent = `${' '.repeat(Math.min(error.position, input.value.length))}^`;
  caret.style.transform = `translateX(${-input.scrollLeft}px)`;
  message.textContent = `${error.message.charAt(0).toUpperCase()}${error.message.slice(1)}${/[.!?]$/.test(error.message) ? '' : '.'}`;
  block.hidden = false;
  input.setAttribute('aria-invalid', 'true');
}

function watch(input: HTMLInputElement): void {
  const id = input.getAttribute('aria-describedby')?.split(' ')[0];
  const block = id ? document.getElementById(id) : null;
  if (!block) return;
  const check = () => {
    const query = input.value;
    if (query.trim() === '') return show(input, block, null);
    const read = parseFilter(query);
    show(input, block, read.ok ? null : read.error);
  };
  input.addEventListener('input', check);
  // Keep the caret under its character as the box scrolls sideways (a long query, the cursor moving).
  const follow = () => {
    const caret = block.querySelector<HTMLElement>('.caret-line');
    if (caret && !block.hidden) caret.style.transform = `translateX(${-input.scrollLeft}px)`;
  };
  input.addEventListener('scroll', follow);
  input.addEventListener('keyup', follow);
  input.addEventListener('click', follow);
  // An error the server sent (an unknown project) stays until the user changes the query.
  if (block.hidden && input.value.trim() !== '') {
    const read = parseFilter(input.value);
    if (!read.ok) show(input, block, read.error);
  }
}

export function installFilterBox(): void {
  for (const input of document.querySelectorAll<HTMLInputElement>('input[data-filter-box]')) watch(input);
}
