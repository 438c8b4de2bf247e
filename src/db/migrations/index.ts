import type { Migration } from 'kysely';
import * as core from './2026-11-21-0001-core.js';
import * as search from './2026-11-22-0001-search.js';

/** Listed statically so the same list works from TypeScript sources and from dist/. */
export const migrations: Record<string, Migration> = {
  '2026-11-21-0001-core': core,
  '2026-11-22-0001-search': search,
};
