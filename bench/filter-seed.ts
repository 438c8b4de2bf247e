import { join } from 'node:path';
import { v7 as uuidv7 } from 'uuid';
import { loadConfig } from '../src/config.js';
import { createServices } from '../src/container.js';
import { openDatabase } from '../src/open-database.js';
import { storagePortsFor } from '../src/storage-ports.js';
import { archiveState, freshState, toggleState, type ItemState } from '../src/modules/items/item-state.js';
import { insertItem } from '../src/modules/items/items.repository.js';
import { newItemRow } from '../src/modules/items/new-item.js';
import { insertTagsIgnoringExisting } from '../src/modules/tags/tags.repository.js';
import { field, runNodeJson } from './command.js';
import { CORPUS_SEED, type Corpus } from './corpus.js';
import { repoRoot } from './paths.js';

/*
 * The filter bench's account (issue 48): one user with N items shaped like a long-used inbox, so
 * each filter term has something to pick and much to skip. Deterministic (a seeded generator), so
 * runs compare. Most items are done (62 %) or archived (8 %); 45 % have no date; dated ones fall
 * from 400 days ago to 60 days ahead, 30 % of them all-day; a fifth are in Work; 40 % carry one or
 * two of ten tags (`calls` on about one in ten). Texts are the bench corpus's (search words).
 */

const EMAIL = 'filters-bench@example.test';
const ROWS_PER_TRANSACTION = 5_000;
const ADMIN_TIMEOUT_MS = 60_000;
const DAY_MS = 86_400_000;

const BENCH_PROJECTS = ['Work', 'Home', 'Side project', 'Someday', ...Array.from({ length: 16 }, (_, i) => `Area ${i + 1}`)];
const BENCH_TAGS = ['calls', 'waiting', 'home', 'errands', 'reading', 'email', 'phone', 'deep-work', 'admin', 'family'];

export interface FilterAccount {
  token: string;
  userId: string;
  /** The saved filter whose items one scenario reads. */
  savedFilterId: string;
}

/** mulberry32: small, fast, and the same sequence everywhere. */
function generator(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function pick<T>(random: () => number, weighted: readonly (readonly [T, number])[]): T {
  let r = random() * weighted.reduce((sum, [, w]) => sum + w, 0);
  for (const [value, w] of weighted) {
    r -= w;
    if (r < 0) return value;
  }
  return weighted[weighted.length - 1]![0];
}

/** Makes the user and key with the admin CLI (operations.md's commands), then the items straight into the database. */
export async function seedFilterAccount(url: string, corpus: Corpus, items: number, now: Date, env: NodeJS.ProcessEnv): Promise<FilterAccount> {
  const script = join('dist', 'cli', 'admin.js');
  const sideEnv = { ...env, DATABASE_URL: url };
  await runNodeJson(repoRoot(), script, ['migrate'], sideEnv, ADMIN_TIMEOUT_MS);
  const user = await runNodeJson(repoRoot(), script, ['user', 'create', '--email', EMAIL, '--plan', 'pro'], sideEnv, ADMIN_TIMEOUT_MS);
  const key = await runNodeJson(repoRoot(), script, ['key', 'create', '--email', EMAIL, '--label', 'bench'], sideEnv, ADMIN_TIMEOUT_MS);
  const userId = field(user, 'id', 'user create');
  const token = field(key, 'token', 'key create');

  const handle = openDatabase(url);
  try {
    const services = createServices({ db: handle, ports: storagePortsFor(handle.dialect), config: loadConfig({}) });
    const inbox = await services.projects.requireInbox(handle.db, userId);
    const projectIds = [inbox.id];
    for (const name of BENCH_PROJECTS) projectIds.push((await services.projects.findOrCreate(userId, name)).id);
    const at = now.toISOString();
    const tagRows = BENCH_TAGS.map((name) => ({ id: uuidv7(), user_id: userId, name, name_key: name, created_at: at }));
    await insertTagsIgnoringExisting(handle.db, tagRows);
    const me = { id: userId, timezone: 'UTC' };
    const saved = await services.filters.create(me, { name: 'This week, not waiting', query: '7 days & !@waiting' });
    await services.close();

    const random = generator(CORPUS_SEED);
    // Inbox, Work, Home, Side project, Someday, then the sixteen areas.
    const projectWeights = projectIds.map((id, i) => [id, [35, 20, 15, 6, 4][i] ?? 20 / 16] as const);
    const tagWeights = tagRows.map((t, i) => [t.id, i === 0 ? 3 : 1] as const);
    const source = corpus.seedItems(items, CORPUS_SEED)[Symbol.iterator]();
    const start = now.getTime() - 730 * DAY_MS;
    for (let first = 0; first < items; first += ROWS_PER_TRANSACTION) {
      const last = Math.min(items, first + ROWS_PER_TRANSACTION);
      await handle.db.transaction().execute(async (trx) => {
        const links: { user_id: string; item_id: string; tag_id: string }[] = [];
        for (let i = first; i < last; i += 1) {
          const next = source.next();
          if (next.done) throw new Error(`the corpus ran out after ${i} items`);
          const createdMs = start + Math.floor((i / items) * 730 * DAY_MS);
          const id = uuidv7({ msecs: createdMs });
          const createdAt = new Date(createdMs).toISOString();
          const roll = random();
          let state: ItemState = freshState(next.value.type);
          if (roll < 0.62) state = toggleState(state, true);
          else if (roll < 0.7) state = archiveState(state, createdAt);
          const dated = random() >= 0.45;
          const allDay = dated && random() < 0.3;
          let dueMs = now.getTime() + Math.floor((random() * 460 - 400) * DAY_MS);
          if (allDay) dueMs -= dueMs % DAY_MS;
          const { title, content_md } = corpus.splitText(next.value.text);
          await insertItem(
            trx,
            newItemRow({
              id,
              user_id: userId,
              project_id: pick(random, projectWeights),
              type: next.value.type,
              title,
              content_md,
              created_at: createdAt,
              state,
              ...(dated ? { due_at: new Date(dueMs).toISOString(), all_day: allDay } : {}),
            }),
          );
          const tagCount = pick(random, [
            [0, 60],
            [1, 30],
            [2, 10],
          ] as const);
          const tags = new Set<string>();
          for (let k = 0; k < tagCount; k += 1) tags.add(pick(random, tagWeights));
          for (const tagId of tags) links.push({ user_id: userId, item_id: id, tag_id: tagId });
        }
        if (links.length > 0) await trx.insertInto('item_tags').values(links).execute();
      });
    }
    return { token, userId, savedFilterId: saved.id };
  } finally {
    await handle.db.destroy();
  }
}
