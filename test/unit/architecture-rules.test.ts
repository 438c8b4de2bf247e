import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

/*
 * The module rules of docs/architecture.md that a reader cannot see broken from one file: which
 * files may ask what database they run on, who writes the outbox, and that app code never reaches
 * into a migration. Each check lists the offending lines, so a failure says where to look.
 */
const SRC = join(import.meta.dirname, '../../src');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    return entry.isDirectory() ? sourceFiles(path) : entry.name.endsWith('.ts') ? [path] : [];
  });
}

/** `file:line: text` of each line of the files under `dirs` that matches `pattern`. */
function linesMatching(dirs: readonly string[], pattern: RegExp, skip: (file: string) => boolean = () => false): string[] {
  return dirs.flatMap((dir) =>
    sourceFiles(join(SRC, dir))
      .map((file) => relative(SRC, file))
      .filter((file) => !skip(file))
      .flatMap((file) =>
        readFileSync(join(SRC, file), 'utf8')
          .split('\n')
          .flatMap((line, i) => (pattern.test(line) ? [`${file}:${i + 1}: ${line.trim()}`] : [])),
      ),
  );
}

describe('module rules', () => {
  it('lets only repositories and the per-dialect ports ask which database they run on', () => {
    const branch = /dialect\s*[!=]==|[!=]==\s*'(sqlite|postgres)'|'(sqlite|postgres)'\s*[!=]==/;
    // item-view.ts holds the items' column expressions (tag names as JSON), SQL like a repository's.
    const allowed = (file: string) => /\.(repository|sqlite|postgres)\.ts$/.test(file) || file.endsWith('items/item-view.ts');
    expect(linesMatching(['modules', 'web', 'plugins', 'cli', 'cluster'], branch, allowed)).toEqual([]);
  });

  it('picks the dialect of a database URL only in storage-ports.ts (and the database layer that opens it)', () => {
    // open-database.ts picked the live wake-ups itself, a second place that chose (issue 46).
    const picks = /\bdialectOf\(/;
    const allowed = (file: string) => file === 'storage-ports.ts' || file.startsWith('db/') || file.startsWith('db\\');
    expect(linesMatching(['.'], picks, allowed)).toEqual([]);
  });

  it('keeps the live module’s SQL in its repositories', () => {
    // stream-registry.ts held its queries itself (issue 46); the wake-up ports run no Kysely query.
    const query = /\b(selectFrom|insertInto|updateTable|deleteFrom)\(/;
    expect(linesMatching(['modules/live'], query, (file) => file.endsWith('.repository.ts'))).toEqual([]);
  });

  it('writes outbox_events only in the events module', () => {
    const write = /(insertInto|updateTable|deleteFrom)\(\s*'outbox_events/;
    expect(linesMatching(['modules', 'web', 'plugins', 'cli', 'cluster'], write, (file) => file.startsWith('modules/events/'))).toEqual([]);
  });

  it('never imports a migration from app code (migrations keep frozen copies of what they need)', () => {
    expect(linesMatching(['modules', 'web', 'plugins', 'cluster', 'lib'], /from '[^']*\/migrations\//)).toEqual([]);
  });
});
