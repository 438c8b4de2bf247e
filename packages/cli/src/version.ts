import { readFileSync } from 'node:fs';

/** The installed package's version: package.json sits one level above dist/cin.js, in every install. */
export function cliVersion(): string {
  const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version?: unknown };
  return typeof pkg.version === 'string' ? pkg.version : 'unknown';
}
