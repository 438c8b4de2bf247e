import { loadConfig } from '../src/config.js';
import { createServices } from '../src/container.js';
import { insertItem } from '../src/modules/items/items.repository.js';
import { newItemRow } from '../src/modules/items/new-item.js';
import { openDatabase } from '../src/open-database.js';
import { storagePortsFor } from '../src/storage-ports.js';
import { v7 as uuidv7 } from 'uuid';

/*
 * A user whose items fall into projects the way a real account's do: eight projects, each with its
 * own words, and an Inbox of mixed ones. The organizer learns from the user's latest titles per
 * project, so a capture of "book the dentist for thursday" has something to be routed by; the
 * corpus's random words (corpus.ts) would give it nothing to learn. Deterministic (a seeded PRNG).
 */

export const THEMES: Readonly<Record<string, readonly string[]>> = {
  Work: ['quarterly', 'report', 'meeting', 'client', 'budget', 'slides', 'review', 'deadline', 'invoice', 'roadmap', 'hiring', 'standup'],
  Home: ['kitchen', 'laundry', 'boiler', 'garden', 'curtains', 'plumber', 'vacuum', 'shelves', 'paint', 'lightbulb', 'fridge', 'windows'],
  Errands: ['groceries', 'pharmacy', 'post', 'parcel', 'bank', 'dry', 'cleaning', 'batteries', 'milk', 'bread', 'stamps', 'returns'],
  Reading: ['novel', 'article', 'chapter', 'essay', 'paper', 'library', 'author', 'poetry', 'biography', 'review', 'magazine', 'notes'],
  Health: ['dentist', 'doctor', 'gym', 'run', 'yoga', 'prescription', 'physio', 'vitamins', 'sleep', 'checkup', 'swim', 'stretch'],
  Money: ['tax', 'pension', 'insurance', 'mortgage', 'savings', 'receipt', 'subscription', 'refund', 'statement', 'transfer', 'bill', 'rent'],
  Travel: ['flight', 'hotel', 'passport', 'visa', 'luggage', 'train', 'itinerary', 'rental', 'museum', 'tickets', 'beach', 'ferry'],
  Family: ['birthday', 'gift', 'school', 'grandma', 'recital', 'playdate', 'anniversary', 'cousins', 'dinner', 'wedding', 'photos', 'holiday'],
};
const VERBS = ['call', 'book', 'check', 'email', 'buy', 'fix', 'plan', 'sort', 'ask about', 'finish', 'pick up', 'renew'];
const FILLER = ['the', 'new', 'next', 'old', 'big', 'second', 'last', 'shared', 'weekly', 'small'];
const WHEN = ['tomorrow', 'on friday', 'next week', 'tonight', 'on the 3rd', 'in two days', 'monday 9am'];

/** mulberry32: a small deterministic PRNG. */
export function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const pick = <T>(random: () => number, list: readonly T[]): T => list[Math.floor(random() * list.length)]!;

export interface ThemedTitle {
  /** The project it belongs to; null for a title of no project (it stays in the Inbox). */
  project: string | null;
  title: string;
}

/** `n` titles: 85 % in one of the themes (two of its words), the rest mixed; `withDates` adds a date phrase to a third. */
export function themedTitles(n: number, seed: number, withDates = false): ThemedTitle[] {
  const random = prng(seed);
  const names = Object.keys(THEMES);
  const out: ThemedTitle[] = [];
  for (let i = 0; i < n; i += 1) {
    const themed = random() < 0.85;
    const project = themed ? pick(random, names) : null;
    const words = project ? THEMES[project]! : THEMES[pick(random, names)]!.concat(THEMES[pick(random, names)]!);
    const parts = [pick(random, VERBS), pick(random, FILLER), pick(random, words), pick(random, words)];
    if (withDates && random() < 0.33) parts.push(pick(random, WHEN));
    out.push({ project, title: parts.join(' ') });
  }
  return out;
}

const ROWS_PER_TRANSACTION = 1_000;
const MINUTE = 60_000;

/**
 * Stores `n` themed items for the user straight into the database (the items repository's
 * insertItem, as bench/seed.ts does), created a few minutes apart up to now, in their projects.
 */
export async function seedThemedItems(databaseUrl: string, userId: string, n: number, seed: number): Promise<void> {
  const handle = openDatabase(databaseUrl);
  try {
    const services = createServices({ db: handle, ports: storagePortsFor(handle.dialect), config: loadConfig({}) });
    const inbox = await services.projects.requireInbox(handle.db, userId);
    const projectIds = new Map<string, string>();
    for (const name of Object.keys(THEMES)) projectIds.set(name, (await services.projects.findOrCreate(userId, name)).id);
    await services.close();
    const titles = themedTitles(n, seed);
    const start = Date.now() - n * 7 * MINUTE;
    for (let from = 0; from < n; from += ROWS_PER_TRANSACTION) {
      const to = Math.min(n, from + ROWS_PER_TRANSACTION);
      await handle.db.transaction().execute(async (trx) => {
        for (let i = from; i < to; i += 1) {
          const at = start + i * 7 * MINUTE;
          const t = titles[i]!;
          const row = newItemRow({
            id: uuidv7({ msecs: at }),
            user_id: userId,
            project_id: t.project ? projectIds.get(t.project)! : inbox.id,
            type: 'todo',
            title: t.title,
            content_md: null,
            created_at: new Date(at).toISOString(),
          });
          await insertItem(trx, row);
        }
      });
    }
  } finally {
    await handle.db.destroy();
  }
}
