/** Copy buttons copy the field they name (shown only with JavaScript, which they need). */
export function installCopyButtons(): void {
  document.querySelectorAll<HTMLButtonElement>('button[data-copy]').forEach((button) => {
    button.hidden = false;
    button.addEventListener('click', () => {
      const field = document.getElementById(button.getAttribute('data-copy') ?? '') as HTMLInputElement | HTMLTextAreaElement | null;
      if (!field) return;
      const done = (): void => {
        button.textContent = 'Copied';
      };
      // execCommand is deprecated, but it is the copy that works outside a secure context.
      const copyBySelection = (): void => {
        document.execCommand('copy');
        done();
      };
      field.select();
      if (navigator.clipboard && window.isSecureContext) navigator.clipboard.writeText(field.value).then(done, copyBySelection);
      else copyBySelection();
    });
  });
}
