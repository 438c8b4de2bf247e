import { createRequire } from 'node:module';
import type SQLite from 'better-sqlite3';

/**
 * The better-sqlite3 major this Node runs (decision 0070). No one version serves Node 20, 22 and 24:
 * 12 (the `better-sqlite3` dependency, compiled at install) is the only one that runs on 20 and
 * aborts Node 24 when a statement is garbage-collected; 13 (installed as `better-sqlite3-napi`,
 * Node-API with its binaries inside the package) runs on 22 and later and segfaults on 20. Both are
 * installed everywhere; this is the one place that picks, so `npm install && npm start` works on each.
 */
export const SQLITE_DRIVER_PACKAGE = Number(process.versions.node.split('.')[0]) >= 22 ? 'better-sqlite3-napi' : 'better-sqlite3';

const load = createRequire(import.meta.url);

function loadDriver(): typeof SQLite {
  try {
    return load(SQLITE_DRIVER_PACKAGE) as typeof SQLite;
  } catch (error) {
    // 12 is an optional dependency (so a failed compile on Node 22+, which never loads it, does not
    // fail the install): on Node 20 its absence must say what happened, not just "cannot find module".
    const code = (error as NodeJS.ErrnoException).code;
    if (code !== 'MODULE_NOT_FOUND') throw error;
    throw new Error(
      `the SQLite driver for Node ${process.versions.node} (${SQLITE_DRIVER_PACKAGE}) is not installed: ` +
        'its install step failed during `npm install` (see its output), or run Node 22 or later. docs/operations.md, "Install and start".',
      { cause: error },
    );
  }
}

/** The driver's constructor, typed as better-sqlite3's (13 keeps 12's API). */
const Driver = loadDriver();
export default Driver;
