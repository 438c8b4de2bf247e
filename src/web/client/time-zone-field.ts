/** The browser's time zone, for new accounts (the field stays UTC when the browser cannot say). */
export function installTimeZoneField(): void {
  document.querySelectorAll<HTMLInputElement>('input[data-timezone]').forEach((input) => {
    try {
      input.value = Intl.DateTimeFormat().resolvedOptions().timeZone || '';
    } catch {
      /* stays UTC */
    }
  });
}
