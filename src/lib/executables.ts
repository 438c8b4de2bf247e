import { accessSync, constants, statSync } from 'node:fs';
import { delimiter, isAbsolute, join } from 'node:path';

/** The usual Debian search path, for callers that were given none. */
export const DEFAULT_SEARCH_PATH = ['/usr/local/sbin', '/usr/local/bin', '/usr/sbin', '/usr/bin', '/sbin', '/bin'].join(delimiter);

/**
 * The absolute path of an executable found on a search path (PATH syntax), or null. Children are
 * then spawned by that path, so what was found is what runs.
 */
export function findExecutable(name: string, searchPath: string): string | null {
  for (const dir of searchPath.split(delimiter)) {
    if (!dir || !isAbsolute(dir)) continue;
    const candidate = join(dir, name);
    try {
      accessSync(candidate, constants.X_OK);
      if (statSync(candidate).isFile()) return candidate;
    } catch {
      // not here; keep looking
    }
  }
  return null;
}

/** True when every path exists and is readable. */
export function allReadable(paths: readonly string[]): boolean {
  return paths.every((path) => {
    try {
      accessSync(path, constants.R_OK);
      return true;
    } catch {
      return false;
    }
  });
}
