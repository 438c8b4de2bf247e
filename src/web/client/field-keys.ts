/** Escape leaves a text field, so the one-key shortcuts work again; filters apply as soon as they change. */
export function installFieldKeys(): void {
  document.querySelectorAll<HTMLElement>('textarea, input[type=search]').forEach((field) => {
    field.addEventListener('keydown', (event) => {
      if (event.key === 'Escape') field.blur();
    });
  });
  document.querySelectorAll<HTMLSelectElement>('select[data-autosubmit]').forEach((select) => {
    select.addEventListener('change', () => select.form?.requestSubmit());
  });
}
