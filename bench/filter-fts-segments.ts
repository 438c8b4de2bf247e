import { randomBytes } from 'node:crypto';
import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import type SQLite from 'better-sqlite3';
import Database from '../src/db/sqlite/sqlite-driver.js';
import { FTS_TABLE_OPTIONS } from '../src/db/migrations/2026-11-22-0001-search.js';
import { CORPUS_SEED, loadCorpus, type Corpus } from './corpus.js';
import { seedFilterAccount } from './filter-seed.js';
import { median } from './stats.js';

/*
 * Why SQLite's `search: word & next 7 days` keeps the IN list of FTS hits (issue 48, decision 0105),
 * in figures anyone can take again:
 *
 * 1. How many FTS5 segments an account's index holds when its items arrive one commit at a time,
 *    as captures do (the product's FTS options, FTS_SEGMENTS_ITEMS corpus texts, one insert per
 *    transaction), with FTS5's defaults and with a merge policy (usermerge 2, 'merge' of 64 pages
 *    every 8 commits): segments every 5,000 items and the time the writes took.
 * 2. The filter's statement for each bench word on the filter bench's account (filter-seed.ts), in
 *    the compiler's form (`search_key in (hits of the user's key range)`) and as a probe of FTS per
 *    item of the week, on the file as seeded and on a copy after FTS5's 'optimize' (one segment):
 *    CPU per statement in this process (SQLite runs in it), median over FTS_SEGMENTS_ROUNDS rounds.
 *
 *   npm run build && npx tsc -p tsconfig.bench.json && node dist-bench/bench/filter-fts-segments.js
 */

const DAY_MS = 86_400_000;

const intEnv = (name: string, fallback: number): number => {
  const value = Number(process.env[name] ?? fallback);
  if (!Number.isInteger(value) || value < 1) throw new Error(`${name} must be a positive integer`);
  return value;
};
const log = (line: string) => process.stdout.write(`${line}\n`);

function liveAccountSegments(dir: string, corpus: Corpus, items: number, policy: 'defaults' | 'merge policy'): void {
  const db = new Database(join(dir, `segments-${policy.replace(' ', '-')}.db`));
  try {
    db.pragma('journal_mode = wal');
    db.exec(`create virtual table f using fts5(title, content_md, ${FTS_TABLE_OPTIONS})`);
    if (policy === 'merge policy') db.exec(`insert into f(f, rank) values('usermerge', 2)`);
    const insert = db.prepare('insert into f (rowid, title, content_md) values (?, ?, ?)');
    const merge = db.prepare(`insert into f(f, rank) values('merge', 64)`);
    const segments = db.prepare('select count(distinct segid) from f_idx').pluck();
    const counts: number[] = [];
    let n = 0;
    const start = process.cpuUsage();
    for (const item of corpus.seedItems(items, CORPUS_SEED)) {
      n += 1;
      const { title, content_md } = corpus.splitText(item.text);
      db.transaction(() => {
        insert.run(n, title, content_md);
        if (policy === 'merge policy' && n % 8 === 0) merge.run();
      })();
      if (n % 5_000 === 0) counts.push(segments.get() as number);
    }
    const cpu = process.cpuUsage(start);
    log(`  ${policy.padEnd(13)} segments every 5,000 items: ${counts.join(' ')}; ${Math.round((cpu.user + cpu.system) / 1000)} ms CPU for ${items} commits`);
  } finally {
    db.close();
  }
}

/** The filter's statement without its columns: the page's keys in due order, as the compiler walks them. */
function statements(db: SQLite.Database) {
  const page = (condition: string) =>
    db.prepare(`select items.id from items where items.user_id = @user and items.status in ('backlog', 'todo', 'doing')
      and ${condition} and items.due_at is not null and items.due_at >= @from and items.due_at < @to
      order by items.due_at asc nulls last, items.created_at desc, items.id desc limit 51`);
  const slot = '(select search_slot from users where id = @user)';
  return {
    'IN list': page(
      `items.search_key in (select rowid from items_fts where items_fts match @match and rowid > (${slot} << 42) and rowid < ((${slot} + 1) << 42))`,
    ),
    probe: page('exists (select 1 from items_fts where items_fts match @match and rowid = items.search_key)'),
  };
}

async function statementCosts(dir: string, corpus: Corpus, rounds: number): Promise<void> {
  const seeded = join(dir, 'account.db');
  const url = `sqlite:${seeded}`;
  const env = { PATH: process.env.PATH, HOME: process.env.HOME, DATABASE_URL: url, SECRET_KEY: randomBytes(32).toString('hex') };
  const account = await seedFilterAccount(url, corpus, intEnv('FTS_SEGMENTS_ACCOUNT_ITEMS', 100_000), new Date(), env);
  const optimized = join(dir, 'optimized.db');
  copyFileSync(seeded, optimized);
  const opt = new Database(optimized);
  opt.exec(`insert into items_fts(items_fts) values('optimize')`);
  opt.close();
  const files = { seeded, optimized };
  const dbs = Object.fromEntries(Object.entries(files).map(([k, f]) => [k, new Database(f, { readonly: true })]));
  try {
    for (const [name, db] of Object.entries(dbs))
      log(`  ${name}: ${db.prepare('select count(distinct segid) from items_fts_idx').pluck().get() as number} FTS segments`);
    const today = Date.now() - (Date.now() % DAY_MS);
    const params = { user: account.userId, from: new Date(today).toISOString(), to: new Date(today + 8 * DAY_MS).toISOString() };
    const words = corpus.searchTerms().slice(0, 40);
    const samples = new Map<string, number[]>();
    for (let r = 0; r < rounds; r += 1) {
      for (const [file, db] of Object.entries(dbs)) {
        for (const [form, st] of Object.entries(statements(db))) {
          for (const word of words) {
            const start = process.cpuUsage();
            for (let k = 0; k < 20; k += 1) st.all({ ...params, match: `"${word}"*` });
            const cpu = process.cpuUsage(start);
            const key = `${word}\t${file}\t${form}`;
            samples.set(key, [...(samples.get(key) ?? []), (cpu.user + cpu.system) / 20 / 1000]);
          }
        }
      }
    }
    const hits = dbs.seeded!.prepare('select count(*) from items_fts where items_fts match ?').pluck();
    log(`\n  word      hits   ms a statement, median: seeded IN list / probe   optimized IN list / probe`);
    for (const word of words) {
      const ms = (file: string, form: string) => median(samples.get(`${word}\t${file}\t${form}`)!).toFixed(2);
      log(
        `  ${word.padEnd(8)} ${String(hits.get(`"${word}"*`)).padStart(6)}   ${ms('seeded', 'IN list').padStart(6)} / ${ms('seeded', 'probe').padStart(6)}        ${ms('optimized', 'IN list').padStart(6)} / ${ms('optimized', 'probe').padStart(6)}`,
      );
    }
  } finally {
    for (const db of Object.values(dbs)) db.close();
  }
}

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'inbox-fts-segments-'));
  try {
    log(
      `FTS segments (decision 0105); load average ${loadavg()
        .map((l) => l.toFixed(2))
        .join(' ')}`,
    );
    const corpus = await loadCorpus();
    const items = intEnv('FTS_SEGMENTS_ITEMS', 30_000);
    log(`\n1. an index written one commit per item (${items} items):`);
    liveAccountSegments(dir, corpus, items, 'defaults');
    liveAccountSegments(dir, corpus, items, 'merge policy');
    log(`\n2. search: word & next 7 days, the statement alone:`);
    await statementCosts(dir, corpus, intEnv('FTS_SEGMENTS_ROUNDS', 5));
    log(
      `\nload average after ${loadavg()
        .map((l) => l.toFixed(2))
        .join(' ')}`,
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`filter FTS segments: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exitCode = 1;
});
