/*
 * Enter captures; Shift+Enter starts a new line (and an IME composition is left alone). On a
 * touch screen Return is a new line, as a phone's keyboard promises, and the Capture button saves.
 */
export function installEnterCaptures(touch: boolean): void {
  document.querySelectorAll('#capture-keys').forEach((hint) => {
    if (touch) hint.textContent = 'Return starts a new line; press Capture to save.';
  });
  document.querySelectorAll<HTMLTextAreaElement>('textarea[data-enter-submits]').forEach((area) => {
    area.setAttribute('enterkeyhint', touch ? 'enter' : 'send');
    area.addEventListener('keydown', (event) => {
      if (touch || event.key !== 'Enter' || event.shiftKey || event.isComposing) return;
      event.preventDefault();
      if (area.value.trim() !== '') area.form?.requestSubmit();
    });
  });
}
