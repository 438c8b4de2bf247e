import { v7 as uuidv7 } from 'uuid';
import { loadConfig } from '../src/config.js';
import { createServices } from '../src/container.js';
import { insertItem } from '../src/modules/items/items.repository.js';
import { freshState, toggleState } from '../src/modules/items/item-state.js';
import { newItemRow } from '../src/modules/items/new-item.js';
import { openDatabase } from '../src/open-database.js';
import { storagePortsFor } from '../src/storage-ports.js';

/*
 * bench:caldav's account: a calendar home of `projects` projects (the Inbox and the rest), one of
 * them ("Big") holding `items` todos, a tenth of them done, every fifth with a due date. Items go
 * in through the items repository's insertItem (the import's insert), in transactions of 5,000,
 * as bench/seed.ts does; the projects through the projects service.
 */

const ROWS_PER_TRANSACTION = 5_000;

export interface CaldavSeed {
  bigProjectId: string;
  /** The Big project's item ids, oldest first. */
  itemIds: string[];
}

export async function seedCaldavAccount(url: string, userId: string, o: { projects: number; items: number }): Promise<CaldavSeed> {
  const handle = openDatabase(url);
  try {
    const services = createServices({ db: handle, ports: storagePortsFor(handle.dialect), config: loadConfig({}) });
    await services.projects.requireInbox(handle.db, userId);
    const big = await services.projects.findOrCreate(userId, 'Big');
    // The Inbox and Big are two of the home's projects.
    for (let p = 2; p < o.projects; p += 1) await services.projects.findOrCreate(userId, `Project ${String(p).padStart(3, '0')}`);
    await services.close();
    const itemIds: string[] = [];
    const start = Date.now() - o.items * 1000;
    for (let first = 0; first < o.items; first += ROWS_PER_TRANSACTION) {
      const last = Math.min(o.items, first + ROWS_PER_TRANSACTION);
      await handle.db.transaction().execute(async (trx) => {
        for (let i = first; i < last; i += 1) {
          const id = uuidv7();
          const at = new Date(start + i * 1000).toISOString();
          const row = newItemRow({
            id,
            user_id: userId,
            project_id: big.id,
            type: 'todo',
            title: `Todo number ${i} of the big list`,
            content_md: i % 3 === 0 ? `Some notes for todo ${i}, a line or two as people write them.` : null,
            created_at: at,
            ...(i % 5 === 0 ? { due_at: new Date(start + (i + 86_400) * 1000).toISOString() } : {}),
            ...(i % 10 === 0 ? { state: toggleState(freshState('todo'), true) } : {}),
          });
          await insertItem(trx, row);
          itemIds.push(id);
        }
      });
    }
    return { bigProjectId: big.id, itemIds };
  } finally {
    await handle.db.destroy();
  }
}
