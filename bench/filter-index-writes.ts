import { randomBytes } from 'node:crypto';
import { copyFileSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import type SQLite from 'better-sqlite3';
import Database from '../src/db/sqlite/sqlite-driver.js';
import { loadCorpus } from './corpus.js';
import { seedFilterAccount } from './filter-seed.js';
import { median } from './stats.js';

/*
 * What the filters' partial indexes and the project counts' trigger cost a toggle on SQLite
 * (issue 46, decision 0100), one change at a time: the filter bench's account (filter-seed.ts,
 * FILTER_WRITES_ITEMS items) is seeded once, copied once per variant, and each copy gets the same
 * toggles (an UPDATE of status, is_completed and updated_at, as items.toggle writes them, in
 * transactions of 10) of undated and of dated items, variants alternating in every round. Reported:
 * this process's CPU per toggle (SQLite runs in it) and the WAL's growth per toggle in pages
 * (autocheckpoint off), median over FILTER_WRITES_ROUNDS rounds.
 *
 *   npm run build && npx tsc -p tsconfig.bench.json && node dist-bench/bench/filter-index-writes.js
 */

const OPEN = `('backlog', 'todo', 'doing')`;
const PAGE_BYTES = 4096 + 24;
const TOGGLES = 2_000;
const BATCH = 10;

/** Each variant: statements run on its copy before the toggles. */
const VARIANTS: Record<string, readonly string[]> = {
  today: [],
  'due index of dated items': [
    'drop index items_open_due_idx',
    `create index items_open_due_idx on items (user_id, due_at) where status in ${OPEN} and due_at is not null`,
  ],
  'no count trigger': ['drop trigger items_count_update'],
  'no open-items indexes': ['drop index items_open_due_idx', 'drop index items_open_project_due_idx'],
  'neither indexes nor trigger': ['drop index items_open_due_idx', 'drop index items_open_project_due_idx', 'drop trigger items_count_update'],
};

const intEnv = (name: string, fallback: number): number => {
  const value = Number(process.env[name] ?? fallback);
  if (!Number.isInteger(value) || value < 1) throw new Error(`${name} must be a positive integer`);
  return value;
};

interface Row {
  id: string;
  status: string;
}

async function main(): Promise<void> {
  const items = intEnv('FILTER_WRITES_ITEMS', 100_000);
  const rounds = intEnv('FILTER_WRITES_ROUNDS', 3);
  const work = mkdtempSync(join(tmpdir(), 'inbox-filter-writes-'));
  try {
    const seeded = join(work, 'seed.db');
    const env = { PATH: process.env.PATH, HOME: process.env.HOME, SECRET_KEY: randomBytes(32).toString('hex') };
    const { userId } = await seedFilterAccount(`sqlite:${seeded}`, await loadCorpus(), items, new Date(), env);
    const copies = new Map<string, { db: SQLite.Database; wal: string }>();
    for (const [name, statements] of Object.entries(VARIANTS)) {
      const file = join(work, `${copies.size}.db`);
      copyFileSync(seeded, file);
      const db = new Database(file);
      db.pragma('journal_mode = wal');
      db.pragma('synchronous = normal');
      db.pragma('wal_autocheckpoint = 0');
      for (const s of statements) db.exec(s);
      copies.set(name, { db, wal: `${file}-wal` });
    }
    const cpu = new Map<string, number[]>();
    const pages = new Map<string, number[]>();
    const names = [...copies.keys()];
    process.stdout.write(
      `toggles on SQLite, ${items} items, ${TOGGLES} toggles x ${rounds} rounds per variant and kind; load ${loadavg()
        .map((l) => l.toFixed(1))
        .join(' ')}\n`,
    );
    for (let r = 0; r < rounds; r += 1) {
      for (const dated of [false, true]) {
        for (const name of r % 2 === 0 ? names : [...names].reverse()) {
          const { db, wal } = copies.get(name)!;
          const rows = db
            .prepare(
              `select id, status from items where user_id = ? and status in ('todo', 'done') and due_at is ${dated ? 'not ' : ''}null order by id limit ${TOGGLES}`,
            )
            .all(userId) as Row[];
          const update = db.prepare('update items set status = ?, is_completed = ?, updated_at = ? where user_id = ? and id = ?');
          const toggle = db.transaction((batch: Row[]) => {
            for (const row of batch) {
              const done = row.status !== 'done';
              update.run(done ? 'done' : 'todo', done ? 1 : 0, new Date().toISOString(), userId, row.id);
              row.status = done ? 'done' : 'todo';
            }
          });
          db.pragma('wal_checkpoint(TRUNCATE)');
          const before = process.cpuUsage();
          for (let i = 0; i < rows.length; i += BATCH) toggle(rows.slice(i, i + BATCH));
          const used = process.cpuUsage(before);
          const key = `${name}|${dated ? 'dated' : 'undated'}`;
          cpu.set(key, [...(cpu.get(key) ?? []), (used.user + used.system) / rows.length]);
          pages.set(key, [...(pages.get(key) ?? []), statSync(wal).size / PAGE_BYTES / rows.length]);
        }
      }
    }
    process.stdout.write('variant                        undated: µs CPU, WAL pages   dated: µs CPU, WAL pages (a toggle, median)\n');
    for (const name of names) {
      const of = (kind: string) =>
        `${median(cpu.get(`${name}|${kind}`)!)
          .toFixed(0)
          .padStart(5)} µs ${median(pages.get(`${name}|${kind}`)!).toFixed(2)}`;
      process.stdout.write(`${name.padEnd(30)} ${of('undated').padEnd(28)} ${of('dated')}\n`);
    }
    process.stdout.write(
      `load after: ${loadavg()
        .map((l) => l.toFixed(1))
        .join(' ')}\n`,
    );
    for (const { db } of copies.values()) db.close();
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

await main();
