import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadConfig } from '../src/config.js';
import { createServices } from '../src/container.js';
import { storagePortsFor } from '../src/storage-ports.js';
import { openDatabase } from '../src/open-database.js';
import { insertItem } from '../src/modules/items/items.repository.js';
import { newItemRow } from '../src/modules/items/new-item.js';
import { field, runNodeJson } from './command.js';
import { CORPUS_SEED, uuidv7Millis, type Corpus } from './corpus.js';
import { repoRoot } from './paths.js';

/*
 * Both databases hold the same items: the baseline's `admin bench-seed` inserts the corpus's first
 * N items straight into its database (one millisecond apart, oldest first, all in the Inbox) and
 * writes their ids; the service's database then gets the very same items with the very same ids
 * and created_at (the millisecond inside each UUID v7), stored through the items repository's
 * insertItem (the import's insert: the same row and search index a capture writes), in
 * transactions of 5,000 like the baseline's. The user and key are made with each side's own admin CLI (operations.md's commands).
 */

export const BENCH_EMAIL = 'bench@example.test';
const ROWS_PER_TRANSACTION = 5_000;
const ADMIN_TIMEOUT_MS = 60_000;
const SEED_TIMEOUT_MS = 30 * 60_000;

export interface SeededSide {
  token: string;
}

/** Migrates, then makes a Pro user (with a password when given, for the web's sign-in) and an API key, through `script`'s admin CLI. */
export async function createUserAndKey(script: string, env: NodeJS.ProcessEnv, password?: string): Promise<SeededSide & { userId: string }> {
  const root = repoRoot();
  await runNodeJson(root, script, ['migrate'], env, ADMIN_TIMEOUT_MS);
  const withPassword = password === undefined ? [] : ['--password', password];
  const user = await runNodeJson(root, script, ['user', 'create', '--email', BENCH_EMAIL, '--plan', 'pro', ...withPassword], env, ADMIN_TIMEOUT_MS);
  const key = await runNodeJson(root, script, ['key', 'create', '--email', BENCH_EMAIL, '--label', 'bench'], env, ADMIN_TIMEOUT_MS);
  return { userId: field(user, 'id', `${script} user create`), token: field(key, 'token', `${script} key create`) };
}

/** The baseline's database: its own admin CLI, then `bench-seed`; answers the item ids, oldest first. */
export async function seedBaseline(url: string, items: number, idsFile: string, env: NodeJS.ProcessEnv): Promise<SeededSide & { ids: string[] }> {
  const script = join('bench', 'baseline', 'admin.mjs');
  const sideEnv = { ...env, DATABASE_URL: url };
  const { token } = await createUserAndKey(script, sideEnv);
  const args = ['bench-seed', '--email', BENCH_EMAIL, '--n', String(items), '--seed', String(CORPUS_SEED), '--ids-out', idsFile];
  await runNodeJson(repoRoot(), script, args, sideEnv, SEED_TIMEOUT_MS);
  const ids = readFileSync(idsFile, 'utf8')
    .split('\n')
    .filter((line) => line.length > 0);
  if (ids.length !== items) throw new Error(`bench-seed wrote ${ids.length} ids, expected ${items}`);
  return { token, ids };
}

/** The service's database: its admin CLI for the user and key, then the baseline's items with the baseline's ids. */
export async function seedService(url: string, corpus: Corpus, ids: readonly string[], env: NodeJS.ProcessEnv): Promise<SeededSide> {
  const { userId, token } = await createUserAndKey(join('dist', 'cli', 'admin.js'), { ...env, DATABASE_URL: url });
  const handle = openDatabase(url);
  try {
    const services = createServices({ db: handle, ports: storagePortsFor(handle.dialect), config: loadConfig({}) });
    const inbox = await services.projects.requireInbox(handle.db, userId);
    await services.close();
    const source = corpus.seedItems(ids.length, CORPUS_SEED)[Symbol.iterator]();
    for (let start = 0; start < ids.length; start += ROWS_PER_TRANSACTION) {
      const end = Math.min(ids.length, start + ROWS_PER_TRANSACTION);
      await handle.db.transaction().execute(async (trx) => {
        for (let i = start; i < end; i += 1) {
          const next = source.next();
          if (next.done) throw new Error(`the corpus ran out after ${i} items`);
          const id = ids[i]!;
          const at = new Date(uuidv7Millis(id)).toISOString();
          const { title, content_md } = corpus.splitText(next.value.text);
          const row = newItemRow({
            id,
            user_id: userId,
            project_id: inbox.id,
            type: next.value.type,
            title,
            content_md,
            created_at: at,
          });
          await insertItem(trx, row);
        }
      });
    }
    return { token };
  } finally {
    await handle.db.destroy();
  }
}
