/*
 * The page's toast: one message at a time, with one action button when given (Undo). A message
 * with an `onClose` hears when it goes, by time or replaced by the next one: a delete's grace
 * period ends there (pending-delete.ts).
 */

/** How long the toast stays, in milliseconds. */
const SHOWN_FOR = 8000;

export interface ToastAction {
  label: string;
  run: () => void;
}

let timer: ReturnType<typeof setTimeout> | undefined;
let closing: (() => void) | null = null;

function close(): void {
  const done = closing;
  closing = null;
  done?.();
}

/** Says `message` in the page's toast for a few seconds, with a button when `action` is given. */
export function say(message: string, action?: ToastAction | null, onClose?: () => void): void {
  const toast = document.querySelector<HTMLElement>('[data-toast]');
  clearTimeout(timer);
  close();
  if (!toast) {
    onClose?.();
    return;
  }
  closing = onClose ?? null;
  toast.textContent = '';
  const text = document.createElement('span');
  text.textContent = message;
  toast.appendChild(text);
  if (action) {
    const button = document.createElement('button');
    button.type = 'button';
    button.className = 'small';
    button.textContent = action.label;
    button.addEventListener('click', () => {
      button.disabled = true;
      // The action replaces what closing would have done (an Undo of a delete cancels it).
      closing = null;
      action.run();
    });
    toast.appendChild(button);
  }
  toast.hidden = false;
  timer = setTimeout(() => {
    toast.hidden = true;
    close();
  }, SHOWN_FOR);
}
