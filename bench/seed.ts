import { sql } from 'kysely';
import { v7 as uuidv7 } from 'uuid';
import { createServices } from '../src/container.js';
import { createDb } from '../src/db/create-db.js';
import { migrateToLatest } from '../src/db/migrate.js';
import type { Db, ItemStatus, ItemType } from '../src/db/schema.js';
import { newId } from '../src/lib/ids.js';
import type { NewItemRow } from '../src/modules/items/items.repository.js';
import { ftsMatch } from '../src/modules/search/search-words.js';
import { phrase, prng, zipfSampler } from './vocabulary.js';

export interface SeedPlan {
  /** Items of the benchmarked user, then of each other user. */
  mainItems: number;
  otherUsers: number;
  otherItems: number;
}

export interface Seeded {
  userId: string;
  token: string;
  /** Main-user item ids that are not archived, newest first: targets for get, toggle and bulk archive. */
  openIds: string[];
}

const DAY = 86_400_000;
const PROJECTS = ['Work', 'Home', 'Errands', 'Health', 'Finance', 'Travel', 'Garden', 'Reading', 'Side project'];
const TAGS = ['urgent', 'waiting', 'someday', 'Q3', 'family', 'ops', 'ideas', 'réunion'];
/** Rows per INSERT statement and per transaction: large enough to amortise, small enough for SQLite's parameter limit. */
const ROWS_PER_INSERT = 200;
const ROWS_PER_TRANSACTION = 5_000;

interface UserSeed {
  userId: string;
  inboxId: string;
  projectIds: string[];
  tagIds: string[];
}

/** A user with the Inbox, nine more projects and eight tags, made through the services. */
async function createUser(services: ReturnType<typeof createServices>, email: string): Promise<UserSeed & { token: string }> {
  const user = await services.users.create({ email, plan: 'pro' });
  const { token } = await services.keys.mint(user.id, 'bench');
  const inbox = await services.projects.requireInbox(services.db, user.id);
  const projectIds = [inbox.id];
  for (const name of PROJECTS) projectIds.push((await services.projects.findOrCreate(user.id, name)).id);
  const tagIds = TAGS.map(() => newId());
  const now = new Date().toISOString();
  await services.db
    .insertInto('tags')
    .values(TAGS.map((name, i) => ({ id: tagIds[i]!, user_id: user.id, name, name_key: name.toLowerCase(), created_at: now })))
    .execute();
  return { userId: user.id, inboxId: inbox.id, projectIds, tagIds, token };
}

/**
 * Inserts `count` items with the repository's table through multi-row INSERTs, so the search
 * triggers fire for every row exactly as they do for a capture. Items are spread over the last two
 * years, oldest first, with word-rich titles and bodies, due dates, tags, done and archived items.
 */
async function insertItems(db: Db, user: UserSeed, count: number, seed: number): Promise<string[]> {
  const random = prng(seed);
  const word = zipfSampler(random);
  const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)]!;
  const now = Date.now();
  const span = 730 * DAY;
  const openIds: string[] = [];
  for (let start = 0; start < count; start += ROWS_PER_TRANSACTION) {
    await db.transaction().execute(async (trx) => {
      const end = Math.min(count, start + ROWS_PER_TRANSACTION);
      for (let from = start; from < end; from += ROWS_PER_INSERT) {
        const rows: NewItemRow[] = [];
        const links: Array<{ user_id: string; item_id: string; tag_id: string }> = [];
        for (let i = from; i < Math.min(end, from + ROWS_PER_INSERT); i += 1) {
          const createdMs = now - 60_000 - Math.floor(((count - i) / count) * span);
          const created = new Date(createdMs).toISOString();
          const type: ItemType = random() < 0.8 ? 'todo' : 'note';
          const roll = random();
          const status: ItemStatus = roll < 0.1 ? 'archived' : roll < 0.25 ? 'done' : roll < 0.35 ? 'doing' : type === 'note' ? 'backlog' : 'todo';
          const completed = status === 'done' || (status === 'archived' && random() < 0.5);
          const id = uuidv7({ msecs: createdMs });
          rows.push({
            id,
            user_id: user.userId,
            project_id: random() < 0.5 ? user.inboxId : pick(user.projectIds),
            parent_id: null,
            type,
            title: phrase(word, 3 + Math.floor(random() * 6)),
            content_md: random() < 0.4 ? null : phrase(word, 5 + Math.floor(random() * 36)),
            is_completed: completed ? 1 : 0,
            status,
            status_before_archive: status === 'archived' ? 'todo' : null,
            due_at: random() < 0.4 ? new Date(createdMs + Math.floor((random() * 120 - 30) * DAY)).toISOString() : null,
            archived_at: status === 'archived' ? created : null,
            client_id: null,
            created_at: created,
            updated_at: created,
          });
          if (random() < 0.3) links.push({ user_id: user.userId, item_id: id, tag_id: pick(user.tagIds) });
          if (status !== 'archived') openIds.push(id);
        }
        await trx.insertInto('items').values(rows).execute();
        if (links.length > 0) await trx.insertInto('item_tags').values(links).execute();
      }
    });
  }
  return openIds.reverse();
}

/** Creates and fills the database the server will open; answers the benchmarked user's key and ids. */
export async function seedDatabase(url: string, plan: SeedPlan, log: (line: string) => void): Promise<Seeded> {
  const handle = createDb(url);
  try {
    await migrateToLatest(handle.db);
    const services = createServices(handle);
    const main = await createUser(services, 'bench@example.test');
    let started = Date.now();
    const openIds = await insertItems(handle.db, main, plan.mainItems, 1);
    log(`seeded ${plan.mainItems} items for the benchmarked user in ${((Date.now() - started) / 1000).toFixed(1)} s`);
    started = Date.now();
    for (let u = 0; u < plan.otherUsers; u += 1) {
      const other = await createUser(services, `other${u}@example.test`);
      await insertItems(handle.db, other, plan.otherItems, 100 + u);
    }
    log(`seeded ${plan.otherUsers} × ${plan.otherItems} items for other users in ${((Date.now() - started) / 1000).toFixed(1)} s`);
    await services.close();
    return { userId: main.userId, token: main.token, openIds };
  } finally {
    await handle.db.destroy();
  }
}

/** For each query, the share of the user's items that contain every word (as the search matches them). */
export async function matchShare(url: string, userId: string, queries: readonly string[][]): Promise<number[]> {
  const { db } = createDb(url);
  try {
    const total = await db.selectFrom('items').select((eb) => eb.fn.countAll<number>().as('n')).where('user_id', '=', userId).executeTakeFirstOrThrow();
    const shares: number[] = [];
    for (const words of queries) {
      const { rows } = await sql<{ n: number }>`
        select count(*) as n from items_fts join items on items.search_key = items_fts.rowid
        where items_fts match ${ftsMatch(words)} and items.user_id = ${userId}`.execute(db);
      shares.push(Number(rows[0]?.n ?? 0) / Number(total.n));
    }
    return shares;
  } finally {
    await db.destroy();
  }
}
