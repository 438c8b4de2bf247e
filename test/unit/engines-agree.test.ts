import { readFileSync } from 'node:fs';
import semver from 'semver';
import { describe, expect, it } from 'vitest';

interface LockEntry {
  version?: string;
  engines?: { node?: string } | string[];
  dev?: boolean;
}

const root = JSON.parse(readFileSync('package.json', 'utf8')) as { engines: { node: string } };
const lock = JSON.parse(readFileSync('package-lock.json', 'utf8')) as { packages: Record<string, LockEntry> };

/**
 * Installed everywhere but loaded only on the Nodes it supports (src/db/sqlite/sqlite-driver.ts,
 * decision 0070): on Node 20 npm prints one EBADENGINE warning for it, and nothing loads it.
 */
const LOADED_ONLY_WHERE_IT_RUNS = new Set(['node_modules/better-sqlite3-napi']);

/**
 * `npm install` warns EBADENGINE when a package in the lockfile asks for a newer Node than ours
 * says it runs on; every Node our engines field admits must satisfy every package's engines.
 */
describe('package.json engines and the lockfile', () => {
  it('admit no Node that a locked package refuses (no EBADENGINE on install)', () => {
    const ours = root.engines.node;
    const refusing = Object.entries(lock.packages).flatMap(([path, entry]) => {
      const wanted = Array.isArray(entry.engines) ? undefined : entry.engines?.node;
      if (!path || !wanted || !semver.validRange(wanted) || LOADED_ONLY_WHERE_IT_RUNS.has(path)) return [];
      return semver.subset(ours, wanted, { includePrerelease: false }) ? [] : [`${path}@${entry.version ?? '?'} wants node ${wanted}`];
    });
    expect(refusing).toEqual([]);
  });
});

describe('the SQLite driver per Node major', () => {
  it('is the one this Node runs, and the only package exempt above is the one it may pick', async () => {
    const { SQLITE_DRIVER_PACKAGE, default: Driver } = await import('../../src/db/sqlite/sqlite-driver.js');
    const major = Number(process.versions.node.split('.')[0]);
    expect(SQLITE_DRIVER_PACKAGE).toBe(major >= 22 ? 'better-sqlite3-napi' : 'better-sqlite3');
    const installed = JSON.parse(readFileSync(`node_modules/${SQLITE_DRIVER_PACKAGE}/package.json`, 'utf8')) as { engines?: { node?: string } };
    expect(semver.satisfies(process.versions.node, installed.engines?.node ?? '*')).toBe(true);
    // A statement made and dropped, then collected: better-sqlite3 12 aborted Node 24 right here.
    const db = new Driver(':memory:');
    for (let i = 0; i < 50; i += 1) db.prepare(`select ${i}`).get();
    db.close();
    (globalThis as { gc?: () => void }).gc?.();
    for (const path of LOADED_ONLY_WHERE_IT_RUNS) expect(path).toBe(`node_modules/better-sqlite3-napi`);
  });
});
