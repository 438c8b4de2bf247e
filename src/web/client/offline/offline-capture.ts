import { fieldValue, postForm } from '../http.js';
import { swapLists } from '../regions/swap-lists.js';
import { captureFormData, inTypedOrder, singleReplay, waitingMessage, type QueuedCapture } from './outbox-replay.js';
import { outboxStore } from './outbox-store.js';

/*
 * Offline capture: each capture carries a client_id (the server saves one item per id), so a
 * capture made without a network waits in IndexedDB ("2 waiting") and is sent again, with the
 * same id, when the browser is back online: nothing is lost and nothing is saved twice.
 */
export function installOfflineCapture(): void {
  const queue = document.querySelector<HTMLElement>('[data-offline-queue]');
  const form = queue?.closest('form');
  if (!queue || !form) return;

  const showWaiting = async (): Promise<QueuedCapture[]> => {
    const list = inTypedOrder(await outboxStore.list());
    queue.hidden = list.length === 0;
    queue.textContent = waitingMessage(list.length);
    return list;
  };
  const replay = singleReplay<QueuedCapture>({
    list: showWaiting,
    send: (entry) => postForm('/inbox/capture', captureFormData(entry, fieldValue(form, '_csrf'), fieldValue(form, 'return'))),
    remove: outboxStore.remove,
  });
  const replayOnline = (): void => {
    if (!navigator.onLine) return;
    replay().then(
      (result) => {
        if (!result) return;
        if (result.lastAnswer !== null) swapLists(result.lastAnswer, null, -1);
        void showWaiting();
      },
      () => undefined,
    );
  };

  form.addEventListener('submit', (event) => {
    const id = form.querySelector<HTMLInputElement>('input[name=client_id]');
    if (id && !id.value) id.value = typeof crypto.randomUUID === 'function' ? crypto.randomUUID() : '';
    if (navigator.onLine || !id || !id.value) return;
    event.preventDefault();
    const box = form.querySelector<HTMLTextAreaElement>('textarea[name=text]');
    if (!box || box.value.trim() === '') return;
    const entry: QueuedCapture = { client_id: id.value, text: box.value, at: Date.now() };
    for (const name of ['type', 'project_id'] as const) {
      const field = form.querySelector<HTMLInputElement | HTMLSelectElement>(`[name=${name}]`);
      if (field?.value) entry[name] = field.value;
    }
    outboxStore.put(entry).then(
      () => {
        box.value = '';
        id.value = '';
        void showWaiting();
      },
      // No IndexedDB (a private window, say): the ordinary submit shows the offline page.
      () => form.submit(),
    );
  });
  window.addEventListener('online', replayOnline);
  if (outboxStore.available()) {
    showWaiting().catch(() => undefined);
    replayOnline();
  }
}
