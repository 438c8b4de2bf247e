import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

/*
 * The module rules of docs/architecture.md that a reader cannot see broken from one file: which
 * files may ask what database they run on, who writes the outbox, and that app code never reaches
 * into a migration, and how the modules under src/modules may import each other (decisions/0065).
 * Each check lists the offending lines, so a failure says where to look.
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

const MODULES = join(SRC, 'modules');

/** One import of one module by another: `from` imports `to` at `where` (file:line). */
interface ModuleImport {
  from: string;
  to: string;
  where: string;
  /** `import type` / `export type`: erased at build time, so it cannot make a load-time cycle. */
  typeOnly: boolean;
}

/** Every import between two different modules under src/modules, read from the source (static, re-exports and dynamic import()). */
function moduleImports(): ModuleImport[] {
  const moduleOf = (file: string) => relative(MODULES, file).split('/')[0]!;
  return sourceFiles(MODULES).flatMap((file) => {
    const text = readFileSync(file, 'utf8');
    const found: ModuleImport[] = [];
    for (const m of text.matchAll(/^(?:import|export)\s+(type\s+)?[^;]*?\sfrom\s+'([^']+)'|import\(\s*'([^']+)'\s*\)/gm)) {
      const specifier = m[2] ?? m[3]!;
      if (!specifier.startsWith('.')) continue;
      const target = resolve(dirname(file), specifier);
      if (relative(MODULES, target).startsWith('..')) continue;
      const [from, to] = [moduleOf(file), moduleOf(target)];
      if (from === to) continue;
      const line = text.slice(0, m.index).split('\n').length;
      found.push({ from, to, where: `${relative(SRC, file)}:${line}`, typeOnly: m[1] !== undefined });
    }
    return found;
  });
}

/** The cycles of a directed graph, one per strongly connected component of two or more nodes (Tarjan). */
function cycles(edges: ReadonlyMap<string, ReadonlySet<string>>): string[][] {
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const found: string[][] = [];
  const visit = (v: string): void => {
    index.set(v, next);
    low.set(v, next++);
    stack.push(v);
    for (const w of edges.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (stack.includes(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) !== index.get(v)) return;
    const component: string[] = [];
    let w: string;
    do {
      w = stack.pop()!;
      component.push(w);
    } while (w !== v);
    if (component.length > 1) found.push(component.sort());
  };
  for (const v of edges.keys()) if (!index.has(v)) visit(v);
  return found;
}

describe('module rules', () => {
  it('has no import cycle between the modules under src/modules (type imports too)', () => {
    // Type-only imports count: they vanish at build time, but a type shared both ways still ties
    // two modules together for a reader (keys <-> users over AuthUser, now in schemas/auth-user.ts).
    const edges = new Map<string, Set<string>>();
    for (const { from, to } of moduleImports()) edges.set(from, (edges.get(from) ?? new Set()).add(to));
    const found = cycles(edges);
    const imports = moduleImports().filter((i) => found.some((c) => c.includes(i.from) && c.includes(i.to)));
    expect(found.length === 0 ? [] : { cycles: found, imports: imports.map((i) => `${i.where} -> ${i.to}`) }).toEqual([]);
  });

  it('keeps the items kernel below every module but events and tags (type imports too)', () => {
    const allowed = new Set(['events', 'tags']);
    const upward = moduleImports().filter((i) => i.from === 'items' && !allowed.has(i.to));
    expect(upward.map((i) => `${i.where} -> ${i.to}`)).toEqual([]);
  });

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
