/**
 * Destructive forms and buttons ask first (their data-confirm). Installed after acting in place,
 * which asks for its own forms and cancels the event when the answer is no.
 */
export function installConfirm(): void {
  document.addEventListener('submit', (event) => {
    const form = event.target;
    if (!(form instanceof HTMLFormElement) || event.defaultPrevented || form.getAttribute('data-plain')) return;
    const asker = event.submitter?.getAttribute('data-confirm') ? event.submitter : form;
    const question = asker.getAttribute('data-confirm');
    if (question && !window.confirm(question)) event.preventDefault();
  });
}
