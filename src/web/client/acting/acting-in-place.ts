import { fieldValue, postForm } from '../http.js';
import { swapLists } from '../regions/swap-lists.js';
import { actionsInFlight } from './in-flight.js';
import { say } from './toast.js';
import { actedMessage, undoRequest, type ActedOn } from './undo.js';

/*
 * Acting on an item (done, archive, move, a date, delete, a new subtask) happens in place: the
 * form is sent with fetch, the server answers the page the form would have led to, and its lists
 * replace these, so the item moves between Overdue, Today and Done today with no reload. A
 * reversible action offers Undo in a toast. Anything unexpected falls back to the plain form.
 */
export function installActingInPlace(): void {
  document.addEventListener('submit', (event) => {
    const form = event.target;
    if (!(form instanceof HTMLFormElement)) return;
    if (event.defaultPrevented || !form.hasAttribute('data-inplace') || form.getAttribute('data-plain') || !window.fetch || !window.DOMParser) return;
    const submitter = event.submitter;
    const button = submitter instanceof HTMLButtonElement || submitter instanceof HTMLInputElement ? submitter : null;
    // Delete cannot be undone: it asks first (and the generic confirmation then stays quiet).
    const question = button?.getAttribute('data-confirm');
    if (question && !window.confirm(question)) {
      event.preventDefault();
      return;
    }
    const url = button?.getAttribute('formaction') || form.action;
    const action = url.split('/').pop() ?? '';
    const row = form.closest<HTMLElement>('li.item');
    const index = row ? Array.prototype.indexOf.call(document.querySelectorAll('li.item'), row) : -1;
    const wasDone = button?.getAttribute('aria-pressed') === 'true';
    event.preventDefault();
    const focusedBefore = document.activeElement;
    if (button) button.disabled = true;
    const acted: ActedOn = {
      action,
      formAction: form.action,
      csrf: fieldValue(form, '_csrf'),
      returnTo: form.querySelector<HTMLInputElement>('input[name=return]')?.value ?? null,
      row: row && {
        projectId: row.getAttribute('data-project-id') ?? '',
        dueDate: row.getAttribute('data-due-date') ?? '',
        dueTime: row.getAttribute('data-due-time') ?? '',
      },
    };
    const data = new URLSearchParams(new FormData(form) as unknown as Record<string, string>);
    actionsInFlight.start();
    postForm(url, data)
      .finally(() => actionsInFlight.end())
      .then((text) => {
        const undo = undoRequest(acted);
        swapLists(text, row && action !== 'delete' && action !== 'archive' ? row.id : null, index, focusedBefore);
        if (action === 'subtasks') document.getElementById('subtask-text')?.focus();
        say(actedMessage(action, wasDone), undo && { ...undo, focus: row ? row.id : null });
      })
      .catch(() => {
        // A limit, an expired form, a bad date: the ordinary submit shows the page that says so.
        form.setAttribute('data-plain', '1');
        if (button) button.disabled = false;
        form.requestSubmit(button ?? undefined);
      });
  });
}
