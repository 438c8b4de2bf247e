import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

/*
 * The module rules of docs/architecture.md that a reader cannot see broken from one file: which
 * files may ask what database they run on, who writes the outbox, and that app code never reaches
 * into a migration, how the modules under src/modules may import each other (decisions/0065), which
 * module writes each table, how long a file may be, and which services each consumer is given
 * (decisions/0082). Each check lists the offending lines, so a failure says where to look.
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

/** One write to a table found in the source: `module` writes `table` at `where` (file:line). */
interface TableWrite {
  table: string;
  module: string;
  file: string;
  where: string;
  verb: 'insert' | 'update' | 'delete';
}

const KYSELY_WRITE = /\b(insertInto|replaceInto|updateTable|deleteFrom)\(\s*'([a-z_]+)/g;
const SQL_WRITE = /\b(insert\s+(?:or\s+\w+\s+)?into|delete\s+from)\s+([a-z_]+)\b|\b(update)\s+([a-z_]+)\s+set\b/gi;
const VERB: Record<string, TableWrite['verb']> = { insertinto: 'insert', replaceinto: 'insert', updatetable: 'update', deletefrom: 'delete' };

/**
 * The writes in one source file: Kysely's insertInto/updateTable/deleteFrom('table') and the raw
 * SQL in sql`` templates and prepared strings (`insert into t`, `update t set`, `delete from t`).
 * Comment lines are skipped, so prose about a write is not one.
 */
function writesIn(file: string, text: string): TableWrite[] {
  const module = file.startsWith('modules/') ? file.split('/')[1]! : file.split('/')[0]!;
  const code = text
    .split('\n')
    .map((line) => (/^\s*(\/\/|\*|\/\*)/.test(line) ? '' : line))
    .join('\n');
  const lineOf = (index: number) => code.slice(0, index).split('\n').length;
  const found: TableWrite[] = [];
  for (const m of code.matchAll(KYSELY_WRITE)) {
    found.push({ table: m[2]!, module, file, where: `${file}:${lineOf(m.index)}`, verb: VERB[m[1]!.toLowerCase()]! });
  }
  for (const m of code.matchAll(SQL_WRITE)) {
    const words = (m[1] ?? m[3]!).toLowerCase();
    const verb = words.startsWith('insert') ? 'insert' : words.startsWith('delete') ? 'delete' : 'update';
    found.push({ table: (m[2] ?? m[4]!).toLowerCase(), module, file, where: `${file}:${lineOf(m.index)}`, verb });
  }
  return found;
}

/** Every write to a table by app code: src/ but the database layer (migrations, the SQLite lock file's own table). */
function tableWrites(): TableWrite[] {
  return sourceFiles(SRC)
    .map((path) => relative(SRC, path).split('\\').join('/'))
    .filter((file) => !file.startsWith('db/'))
    .flatMap((file) => writesIn(file, readFileSync(join(SRC, file), 'utf8')));
}

/**
 * Who may write each table: its one owner module (docs/architecture.md, "Who writes each table";
 * a test below keeps that table and this one the same). outbox_sequence is written only by the
 * outbox's SQLite trigger; items_fts and items_fts_pending are the SQLite search index's own.
 */
const TABLE_OWNERS: Readonly<Record<string, string>> = {
  users: 'users',
  api_keys: 'keys',
  projects: 'projects',
  // Appended by PostgreSQL's count triggers, folded by the project list (decision 0096).
  project_count_deltas: 'projects',
  items: 'items',
  tags: 'tags',
  // Appended by PostgreSQL's tag count triggers, folded by the tag list (decision 0113).
  tag_count_deltas: 'tags',
  item_tags: 'tags',
  outbox_events: 'events',
  outbox_sequence: 'events',
  idempotency_keys: 'idempotency',
  web_sessions: 'accounts',
  pairings: 'pairing',
  webhooks: 'deliveries',
  webhook_deliveries: 'deliveries',
  instance_settings: 'instance',
  organizer_models: 'organizer',
  organizer_filings: 'organizer',
  item_completions: 'recurrence',
  reminder_fires: 'reminders',
  email_in_tokens: 'email-in',
  email_in_lease: 'email-in',
  live_processes: 'live',
  live_streams: 'live',
  items_fts: 'search',
  items_fts_pending: 'search',
  undo_actions: 'undo',
  saved_filters: 'filters',
  caldav_objects: 'caldav',
  caldav_collections: 'caldav',
  feeds: 'feeds',
  attachments: 'attachments',
  attachment_blobs: 'attachments',
};

/** The only writes a module makes to another module's tables: each in one file, with the verbs named. */
const SECOND_WRITERS: readonly { module: string; file: string; verbs: readonly TableWrite['verb'][]; tables: readonly string[] }[] = [
  {
    // Deleting an account removes every row of the user in one transaction, children first.
    module: 'accounts',
    file: 'modules/accounts/account-deletion.repository.ts',
    verbs: ['delete'],
    tables: [
      'users',
      'api_keys',
      'projects',
      'project_count_deltas',
      'items',
      'tags',
      'tag_count_deltas',
      'item_tags',
      'idempotency_keys',
      'pairings',
      'webhooks',
      'webhook_deliveries',
      'organizer_filings',
      'organizer_models',
      'email_in_tokens',
    ],
  },
  {
    // The SQLite index renumbers a user's search keys (items.search_key) and clears users.search_unordered.
    module: 'search',
    file: 'modules/search/search-index.sqlite.ts',
    verbs: ['update'],
    tables: ['items', 'users'],
  },
];

/** `where: what` for each write that is neither the table's owner's nor a listed second writer's. */
function ownershipViolations(writes: readonly TableWrite[]): string[] {
  return writes.flatMap((w) => {
    const owner = TABLE_OWNERS[w.table];
    if (owner === undefined) return [`${w.where}: ${w.module} writes ${w.table}, a table with no owner in TABLE_OWNERS`];
    if (owner === w.module) return [];
    const allowed = SECOND_WRITERS.some((s) => s.module === w.module && s.file === w.file && s.verbs.includes(w.verb) && s.tables.includes(w.table));
    return allowed ? [] : [`${w.where}: ${w.module} ${w.verb}s ${w.table}, which ${owner} owns`];
  });
}

/** Table -> its writers as the rule allows them: the owner, then the second writers in order. */
function allowedWriters(): Map<string, string[]> {
  return new Map(
    Object.entries(TABLE_OWNERS).map(([table, owner]) => [table, [owner, ...SECOND_WRITERS.filter((s) => s.tables.includes(table)).map((s) => s.module)]]),
  );
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

describe('one writer per table', () => {
  it('lets only a table’s owner write it, besides the listed second writers', () => {
    expect(ownershipViolations(tableWrites())).toEqual([]);
  });

  it('catches a second module writing a table, by Kysely or by raw SQL', () => {
    const bulk = writesIn(
      'modules/bulk/bulk.repository.ts',
      "await trx.updateTable('items').set({ title }).execute();\nawait sql`delete from projects where id = ${id}`.execute(trx);",
    );
    const deletionUpdates = writesIn('modules/accounts/account-deletion.repository.ts', "await trx.updateTable('users').set({ plan: 'free' }).execute();");
    expect(ownershipViolations([...bulk, ...deletionUpdates])).toEqual([
      'modules/bulk/bulk.repository.ts:1: bulk updates items, which items owns',
      'modules/bulk/bulk.repository.ts:2: bulk deletes projects, which projects owns',
      'modules/accounts/account-deletion.repository.ts:1: accounts updates users, which users owns',
    ]);
    expect(writesIn('modules/items/x.ts', "// insertInto('users') in a comment\nq.onConflict((oc) => oc.doUpdateSet({ n: 1 }));")).toEqual([]);
  });

  it('gives every table of the schema an owner, and lists no second writer that no longer writes', () => {
    const schema = readFileSync(join(SRC, 'db/schema.ts'), 'utf8');
    const database = schema.slice(schema.indexOf('export interface Database {'));
    const tables = [...database.slice(0, database.indexOf('\n}')).matchAll(/^\s+([a-z_]+):/gm)].map((m) => m[1]!);
    expect(tables.filter((t) => TABLE_OWNERS[t] === undefined)).toEqual([]);
    const writes = tableWrites();
    const stale = SECOND_WRITERS.flatMap((s) =>
      s.tables.filter((t) => !writes.some((w) => w.module === s.module && w.table === t)).map((t) => `${s.module} ${t}`),
    );
    expect(stale).toEqual([]);
  });

  it('matches the table in docs/architecture.md (“Who writes each table”)', () => {
    const doc = readFileSync(join(SRC, '../docs/architecture.md'), 'utf8');
    const section = doc.slice(doc.indexOf('## Who writes each table'));
    const rows = section
      .slice(0, section.indexOf('\n## ', 3) === -1 ? undefined : section.indexOf('\n## ', 3))
      .split('\n')
      .filter((line) => line.startsWith('| `'))
      .map((line) => {
        const [table, owner, also] = line
          .split('|')
          .slice(1, 4)
          .map((cell) => [...cell.matchAll(/`([a-z_-]+)`/g)].map((m) => m[1]!));
        return [table![0]!, [...owner!, ...also!]] as const;
      });
    expect(new Map(rows)).toEqual(allowedWriters());
  });
});

describe('file size', () => {
  it('keeps every code file in src/ at 300 lines or fewer (one job per file)', () => {
    // Data (the organizer's word vectors) is not code; every script and module is.
    const code = (dir: string): string[] =>
      readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
        const path = join(dir, entry.name);
        return entry.isDirectory() ? code(path) : /\.[cm]?[jt]s$/.test(entry.name) ? [path] : [];
      });
    const long = code(SRC)
      .map((file) => ({ file: relative(SRC, file), lines: readFileSync(file, 'utf8').replace(/\n$/, '').split('\n').length }))
      .filter(({ lines }) => lines > 300)
      .map(({ file, lines }) => `${file}: ${lines} lines`);
    expect(long).toEqual([]);
  });
});

describe('services', () => {
  /** The files under src/ that name Services, with their text. */
  const consumers = () =>
    sourceFiles(SRC)
      .map((path) => ({ file: relative(SRC, path).split('\\').join('/'), text: readFileSync(path, 'utf8') }))
      .filter(({ file, text }) => /\bServices\b/.test(text) && file !== 'container.ts' && !file.startsWith('container/'));

  it('gives each consumer only the services it names (Pick<Services, …>), the whole only to the processes that own them', () => {
    // admin.ts builds the services for a command and closes them after; every other consumer picks.
    const lineAt = (text: string, index: number) => text.slice(text.lastIndexOf('\n', index) + 1, text.indexOf('\n', index));
    const whole = consumers().filter(({ text }) =>
      [...text.matchAll(/\bServices\b/g)].some(
        (m) => !/Pick<\s*$/.test(text.slice(0, m.index)) && text[m.index + 'Services'.length] !== '[' && !/^\s*import\b/.test(lineAt(text, m.index)),
      ),
    );
    expect(whole.map(({ file }) => file)).toEqual(['cli/admin.ts']);
  });

  it('uses every service a consumer picks (no consumer receives what it does not use)', () => {
    const unused = consumers().flatMap(({ file, text }) =>
      [...text.matchAll(/Pick<\s*Services,([^>]*)>/g)].flatMap((m) => {
        const rest = text.slice(0, m.index) + text.slice(m.index + m[0].length);
        return [...m[1]!.matchAll(/'(\w+)'/g)]
          .map((k) => k[1]!)
          .filter((name) => !new RegExp(`\\b${name}\\b`).test(rest))
          .map((name) => `${file}: ${name}`);
      }),
    );
    expect(unused).toEqual([]);
  });
});
