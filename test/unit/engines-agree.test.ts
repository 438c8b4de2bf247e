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
 * `npm install` warns EBADENGINE when a package in the lockfile asks for a newer Node than ours
 * says it runs on; every Node our engines field admits must satisfy every package's engines.
 */
describe('package.json engines and the lockfile', () => {
  it('admit no Node that a locked package refuses (no EBADENGINE on install)', () => {
    const ours = root.engines.node;
    const refusing = Object.entries(lock.packages).flatMap(([path, entry]) => {
      const wanted = Array.isArray(entry.engines) ? undefined : entry.engines?.node;
      if (!path || !wanted || !semver.validRange(wanted)) return [];
      return semver.subset(ours, wanted, { includePrerelease: false }) ? [] : [`${path}@${entry.version ?? '?'} wants node ${wanted}`];
    });
    expect(refusing).toEqual([]);
  });
});
