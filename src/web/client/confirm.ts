/**
 * Destructive forms ask first (their data-confirm), in the page rather than with the browser's confirmation dialog
 * (issue 47 item 10: a browser dialog blocks the page, and some browsers suppress it): the first
 * submit shows the question with "Yes, …" and "Cancel" beside the button; "Yes" sends the form.
 * Installed after acting in place, which cancels the event for its own forms.
 */
export function installConfirm(): void {
  document.addEventListener('submit', (event) => {
    const form = event.target;
    if (!(form instanceof HTMLFormElement) || event.defaultPrevented || form.getAttribute('data-plain')) return;
    const submitter = event.submitter instanceof HTMLButtonElement ? event.submitter : null;
    const asker = submitter?.getAttribute('data-confirm') ? submitter : form;
    const question = asker.getAttribute('data-confirm');
    if (!question || form.hasAttribute('data-confirmed')) return;
    event.preventDefault();
    form.querySelector('.confirm-step')?.remove();
    const step = document.createElement('div');
    step.className = 'confirm-step';
    step.setAttribute('role', 'alert');
    const text = document.createElement('p');
    text.textContent = question;
    const yes = document.createElement('button');
    yes.type = 'button';
    yes.className = 'danger';
    const label = (submitter?.textContent ?? 'Go ahead').trim();
    yes.textContent = `Yes, ${label.charAt(0).toLowerCase()}${label.slice(1)}`;
    const cancel = document.createElement('button');
    cancel.type = 'button';
    cancel.textContent = 'Cancel';
    yes.addEventListener('click', () => {
      form.setAttribute('data-confirmed', '1');
      form.requestSubmit(submitter ?? undefined);
    });
    cancel.addEventListener('click', () => {
      step.remove();
      submitter?.focus();
    });
    step.append(text, yes, ' ', cancel);
    form.append(step);
    yes.focus();
  });
}
