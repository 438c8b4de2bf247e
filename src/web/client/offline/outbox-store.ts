import type { QueuedCapture } from './outbox-replay.js';

/*
 * The outbox's IndexedDB store: database `cin-offline`, one object store of captures keyed by their
 * client id. Each call opens the database, runs one transaction and closes it again, so a page
 * never holds the database open (another tab may upgrade it).
 */
const DATABASE = 'cin-offline';
const CAPTURES = 'captures';

function inStore<T>(mode: IDBTransactionMode, work: (store: IDBObjectStore) => IDBRequest<T> | void): Promise<T | undefined> {
  return new Promise((resolve, reject) => {
    if (!window.indexedDB) {
      reject(new Error('no IndexedDB'));
      return;
    }
    const open = indexedDB.open(DATABASE, 1);
    open.onupgradeneeded = () => {
      open.result.createObjectStore(CAPTURES, { keyPath: 'client_id' });
    };
    open.onerror = () => reject(open.error ?? new Error('IndexedDB did not open'));
    open.onsuccess = () => {
      const tx = open.result.transaction(CAPTURES, mode);
      const request = work(tx.objectStore(CAPTURES));
      tx.oncomplete = () => {
        open.result.close();
        resolve(request ? request.result : undefined);
      };
      tx.onerror = () => {
        open.result.close();
        reject(tx.error ?? new Error('IndexedDB transaction failed'));
      };
    };
  });
}

export const outboxStore = {
  available: (): boolean => Boolean(window.indexedDB),
  list: async (): Promise<QueuedCapture[]> => (await inStore<QueuedCapture[]>('readonly', (s) => s.getAll() as IDBRequest<QueuedCapture[]>)) ?? [],
  put: async (entry: QueuedCapture): Promise<void> => {
    await inStore('readwrite', (s) => {
      s.put(entry);
    });
  },
  remove: async (entry: QueuedCapture): Promise<void> => {
    await inStore('readwrite', (s) => {
      s.delete(entry.client_id);
    });
  },
};
