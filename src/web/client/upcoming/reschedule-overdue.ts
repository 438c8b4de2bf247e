import { inFlight } from '../acting/in-flight.js';
import { fetchPage, postInPlace, RefusedError, type InPlaceResult } from '../acting/in-place-request.js';
import { say } from '../acting/toast.js';
import { fieldValue } from '../http.js';
import { swapLists } from '../regions/swap-lists.js';

/*
 * Upcoming's "Reschedule all overdue to today" (issue 47 item 10) in place: one request, the lists
 * fetched again, and one Undo in the toast that puts every item back (src/web/routes/upcoming.routes.ts).
 */
const refresh = (): Promise<void> => fetchPage(window.location.pathname + window.location.search).then((page) => swapLists(page, null, 0));
const noNote = (): void => undefined;
const failed = (error: unknown): void =>
  say(
    error instanceof RefusedError
      ? 'Not rescheduled: the server refused. Reload the page and try again.'
      : 'You are offline: nothing was rescheduled. Try again when the connection is back.',
  );

export function installRescheduleOverdue(): void {
  document.addEventListener('submit', (event) => {
    const form = event.target;
    if (!(form instanceof HTMLFormElement) || event.defaultPrevented || !form.hasAttribute('data-reschedule') || !window.fetch) return;
    event.preventDefault();
    const csrf = fieldValue(form, '_csrf');
    inFlight(postInPlace(form.action, new URLSearchParams({ _csrf: csrf })), noNote)
      .then(async (result: InPlaceResult) => {
        await refresh();
        if ('page' in result) return;
        const ids = result.answer.undo;
        say(
          result.answer.message,
          ids === null
            ? null
            : {
                label: 'Undo',
                run: () => {
                  inFlight(postInPlace('/upcoming/reschedule-overdue/undo', new URLSearchParams({ _csrf: csrf, undo: ids })), noNote)
                    .then(async (undone) => {
                      await refresh();
                      say('answer' in undone ? undone.answer.message : 'Undone.');
                    })
                    .catch(failed);
                },
              },
        );
      })
      .catch(failed);
  });
}
