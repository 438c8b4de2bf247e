import { postForm } from '../http.js';
import { swapLists } from '../regions/swap-lists.js';
import type { UndoRequest } from './undo.js';

/** How long the toast stays, in milliseconds. */
const SHOWN_FOR = 8000;

let timer: ReturnType<typeof setTimeout> | undefined;

/** An undo offered in the toast: the request, and the row to focus once undone. */
export interface ToastUndo extends UndoRequest {
  focus: string | null;
}

/** Says `message` in the page's toast for a few seconds, with an Undo button when `undo` is given. */
export function say(message: string, undo?: ToastUndo | null): void {
  const toast = document.querySelector<HTMLElement>('[data-toast]');
  if (!toast) return;
  clearTimeout(timer);
  toast.textContent = '';
  const text = document.createElement('span');
  text.textContent = message;
  toast.appendChild(text);
  if (undo) {
    const button = document.createElement('button');
    button.type = 'button';
    button.className = 'small';
    button.textContent = 'Undo';
    button.addEventListener('click', () => {
      button.disabled = true;
      const before = document.activeElement;
      postForm(undo.url, undo.data).then(
        (page) => {
          swapLists(page, undo.focus, -1, before);
          say('Undone.');
        },
        () => say('Undo failed: reload the page to see where things are.'),
      );
    });
    toast.appendChild(button);
  }
  toast.hidden = false;
  timer = setTimeout(() => {
    toast.hidden = true;
  }, SHOWN_FOR);
}
