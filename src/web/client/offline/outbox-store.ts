import type { QueuedAction, QueuedCapture } from './outbox-replay.js';

/*
 * The outbox's IndexedDB stores: database `cin-offline`, one object store of captures keyed by their
 * client id and (since version 2, decision 0085) one of actions keyed by their own id. Each call
 * opens the database, runs one transaction and closes it again, so a page never holds the database
 * open (another tab may upgrade it).
 */
const DATABASE = 'cin-offline';
const VERSION = 2;
const CAPTURES = 'captures';
const ACTIONS = 'actions';

function inStore<T>(name: string, mode: IDBTransactionMode, work: (store: IDBObjectStore) => IDBRequest<T> | void): Promise<T | undefined> {
  return new Promise((resolve, reject) => {
    if (!window.indexedDB) {
      reject(new Error('no IndexedDB'));
      return;
    }
    const open = indexedDB.open(DATABASE, VERSION);
    open.onupgradeneeded = () => {
      const db = open.result;
      if (!db.objectStoreNames.contains(CAPTURES)) db.createObjectStore(CAPTURES, { keyPath: 'client_id' });
      if (!db.objectStoreNames.contains(ACTIONS)) db.createObjectStore(ACTIONS, { keyPath: 'id' });
    };
    open.onerror = () => reject(open.error ?? new Error('IndexedDB did not open'));
    open.onsuccess = () => {
      const tx = open.result.transaction(name, mode);
      const request = work(tx.objectStore(name));
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

function storeOf<Entry>(name: string, key: (entry: Entry) => string) {
  return {
    list: async (): Promise<Entry[]> => (await inStore<Entry[]>(name, 'readonly', (s) => s.getAll() as IDBRequest<Entry[]>)) ?? [],
    put: async (entry: Entry): Promise<void> => {
      await inStore(name, 'readwrite', (s) => {
        s.put(entry);
      });
    },
    remove: async (entry: Entry): Promise<void> => {
      await inStore(name, 'readwrite', (s) => {
        s.delete(key(entry));
      });
    },
  };
}

export const outboxStore = { available: (): boolean => Boolean(window.indexedDB), ...storeOf<QueuedCapture>(CAPTURES, (e) => e.client_id) };

/** Actions on items taken offline (tick, date, move, archive, delete), replayed in order with the captures. */
export const actionStore = storeOf<QueuedAction>(ACTIONS, (e) => e.id);
