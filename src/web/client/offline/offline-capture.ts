import type { QueuedCapture } from './outbox-replay.js';
import { pageUser, queueCapture } from './offline-outbox.js';

/*
 * Offline capture: each capture carries a client_id (the server saves one item per id), so a
 * capture made without a network waits in the outbox (offline-outbox.ts), shows as a greyed row
 * "waiting to sync", and is sent again, with the same id and the time it was typed, when the
 * browser is back online: nothing is lost, nothing is saved twice, and "tomorrow" is read as the
 * day after it was typed (decision 0085).
 */
export function installOfflineCapture(): void {
  const queue = document.querySelector<HTMLElement>('[data-offline-queue]');
  const form = queue?.closest('form');
  if (!queue || !form) return;

  form.addEventListener('submit', (event) => {
    const id = form.querySelector<HTMLInputElement>('input[name=client_id]');
    if (id && !id.value) id.value = typeof crypto.randomUUID === 'function' ? crypto.randomUUID() : '';
    if (navigator.onLine || !id || !id.value) return;
    event.preventDefault();
    const box = form.querySelector<HTMLTextAreaElement>('textarea[name=text]');
    if (!box || box.value.trim() === '') return;
    const owner = pageUser();
    const entry: QueuedCapture = { client_id: id.value, text: box.value, at: Date.now(), ...(owner ? { owner } : {}) };
    for (const name of ['type', 'project_id', 'literal'] as const) {
      const field = form.querySelector<HTMLInputElement | HTMLSelectElement>(`[name=${name}]`);
      if (field?.value) entry[name] = field.value;
    }
    queueCapture(entry).then(
      () => {
        box.value = '';
        id.value = '';
        // The quick-add marks and refusals were the old text's.
        box.dispatchEvent(new Event('input', { bubbles: true }));
      },
      // No IndexedDB (a private window, say): the ordinary submit shows the offline page.
      () => form.submit(),
    );
  });
}
