import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { COMMON_OPTIONS, type Command } from '../../packages/cli/src/command.js';
import { COMMANDS } from '../../packages/cli/src/commands/index.js';
import { ADMIN_COMMAND_NAMES } from '../../src/cli/admin-commands.js';

/*
 * The commands the docs tell a reader to type must exist, and none may fetch one of our packages
 * from the npm registry: they are not published, so whoever registers the name first would run
 * code in every copied agent config. Until they are, the docs run what the checkout built.
 */

const ROOT = resolve(import.meta.dirname, '../..');

/** Our package and binary names: on the registry they would be anyone's. */
const OURS = (name: string): boolean => name.startsWith('@capture-inbox/') || name === 'cin' || name === 'capture-inbox-mcp';
/** A local folder or tarball, not a name the registry resolves. */
const isLocal = (spec: string): boolean => /^[./~]/.test(spec) || /\.(tgz|tar\.gz|tar)$/.test(spec) || spec.startsWith('file:');

interface Snippet {
  where: string;
  text: string;
}

/** What a reader may paste into a shell: each line of a fenced block (a console's `$` lines only), each inline code span. */
function snippetsOf(where: string, markdown: string): { code: Snippet[]; prose: Snippet[] } {
  const code: Snippet[] = [];
  const prose: Snippet[] = [];
  let fence: { marker: string; console: boolean } | null = null;
  markdown.split('\n').forEach((line, index) => {
    const at = `${where}:${index + 1}`;
    const marker = /^\s*(```|~~~)\s*(\S*)/.exec(line);
    if (marker && (fence === null || marker[1] === fence.marker)) {
      fence = fence === null ? { marker: marker[1]!, console: marker[2] === 'console' } : null;
      return;
    }
    if (fence !== null) {
      if (!fence.console) code.push({ where: at, text: line });
      else if (line.startsWith('$ ')) code.push({ where: at, text: line.slice(2) });
      return;
    }
    for (const m of line.matchAll(/`([^`\n]+)`/g)) code.push({ where: at, text: m[1]! });
    prose.push({ where: at, text: line.replace(/`[^`\n]*`/g, '') });
  });
  // An agent config's "command" and "args" are a command line too.
  const joined = code.map((s) => s.text).join('\n');
  for (const m of joined.matchAll(/"command"\s*:\s*"([^"]*)"\s*,\s*"args"\s*:\s*\[([^\]]*)\]/g)) {
    const args = JSON.parse(`[${m[2]!}]`) as string[];
    code.push({ where: `${where} (config)`, text: [m[1]!, ...args].map((w) => `'${w}'`).join(' ') });
  }
  return { code, prose };
}

const SEPARATORS = new Set(['|', '||', '&&', ';', '(', ')', '$(', '<(', '>', '>>', '2>']);

/** Shell words of one line, split into simple commands at pipes, `&&`, `;` and subshells; `# comments` dropped. */
function commandsOf(line: string): string[][] {
  const words: string[] = [];
  let word: string | null = null;
  const text = line.replace(/\\\|/g, '|');
  for (let i = 0; i < text.length; i += 1) {
    const c = text[i]!;
    if (c === "'" || c === '"') {
      const end = text.indexOf(c, i + 1);
      word = (word ?? '') + text.slice(i + 1, end < 0 ? text.length : end);
      i = end < 0 ? text.length : end;
    } else if (/\s/.test(c)) {
      if (word !== null) words.push(word);
      word = null;
    } else if (c === '#' && word === null) {
      break;
    } else {
      const operator = ['$(', '<(', '&&', '||', '>>', '|', ';', '(', ')', '>'].find((op) => text.startsWith(op, i));
      if (operator && !(operator === '(' && word !== null) && !(operator === ')' && word !== null && word.includes('('))) {
        if (word !== null) words.push(word);
        words.push(operator);
        word = null;
        i += operator.length - 1;
      } else word = (word ?? '') + c;
    }
  }
  if (word !== null) words.push(word);
  const commands: string[][] = [[]];
  for (const w of words) {
    if (SEPARATORS.has(w)) commands.push([]);
    else commands.at(-1)!.push(w);
  }
  // `claude mcp add NAME -- cin mcp`: what follows `--` is a command of its own.
  return commands.flatMap((c) => {
    const cut = c.indexOf('--');
    return cut > 0 && c[0] !== 'npm' ? [c.slice(0, cut), c.slice(cut + 1)] : [c];
  });
}

/** Environment assignments and wrappers (`sudo`, `exec`) before the command itself. */
const bare = (command: string[]): string[] => {
  let i = 0;
  while (i < command.length && (/^[A-Za-z_][A-Za-z0-9_]*=/.test(command[i]!) || ['sudo', 'exec', 'source', 'env'].includes(command[i]!))) i += 1;
  return command.slice(i);
};

const PLACEHOLDER = /^(?:[A-Z][A-Z_.]*|…|\.\.\.)$/;
/** A flag as a synopsis writes it, `[--tag` or `--due=WHEN`, reduced to its name. */
const flagName = (word: string): string | null => /^[[(]?(--?[A-Za-z][\w-]*)/.exec(word)?.[1] ?? null;

function flagsOf(command: Command): Set<string> {
  const options = { ...COMMON_OPTIONS, ...command.options };
  return new Set(Object.entries(options).flatMap(([name, spec]) => [`--${name}`, ...(spec.short ? [`-${spec.short}`] : [])]));
}

/** What is wrong with one `cin ...` command line, if anything. */
function cinProblems(args: string[]): string[] {
  const [name, next] = args;
  if (name === undefined || PLACEHOLDER.test(name) || ['--help', '-h', '--version', '-V'].includes(name)) return [];
  if (name === 'help')
    return next === undefined || PLACEHOLDER.test(next) || COMMANDS.some((c) => c.name === next) ? [] : [`cin help ${next}: no such command`];
  const command = COMMANDS.find((c) => c.name === name);
  if (!command) return [`cin ${name}: no such command`];
  const problems: string[] = [];
  if (command.subcommands && next !== undefined && /^[a-z][a-z-]*$/.test(next) && !command.subcommands.includes(next) && next !== 'ls')
    problems.push(`cin ${name} ${next}: no such subcommand`);
  const flags = flagsOf(command);
  for (const word of args.slice(1)) {
    const flag = flagName(word);
    if (flag && !flags.has(flag)) problems.push(`cin ${name} ${flag}: no such flag`);
  }
  return problems;
}

const rootScripts = (): Record<string, string> => (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts;
const workspaceScripts = (workspace: string): Record<string, string> =>
  (JSON.parse(readFileSync(join(ROOT, workspace, 'package.json'), 'utf8')) as { scripts?: Record<string, string> }).scripts ?? {};

/** `npm run [--silent] [-w DIR] NAME [-- ARGS]`, `npm test`, `npm start`; and `npm run admin -- COMMAND`. */
function npmRunProblems(args: string[]): string[] {
  const [verb, ...rest] = args;
  if (verb === 'test' || verb === 'start' || verb === 't') return rootScripts()[verb === 't' ? 'test' : verb] ? [] : [`npm ${verb}: no such script`];
  if (verb !== 'run' && verb !== 'run-script') return [];
  let workspace: string | undefined;
  const positionals: string[] = [];
  let after: string[] = [];
  for (let i = 0; i < rest.length; i += 1) {
    const w = rest[i]!;
    if (w === '--') {
      after = rest.slice(i + 1);
      break;
    }
    if (w === '-w' || w === '--workspace') workspace = rest[++i];
    else if (w.startsWith('--workspace=')) workspace = w.slice('--workspace='.length);
    else if (!w.startsWith('-')) positionals.push(w);
  }
  const script = positionals[0]?.replace(/[:.,]$/, '');
  if (script === undefined || PLACEHOLDER.test(script)) return [];
  const scripts = workspace ? workspaceScripts(workspace) : rootScripts();
  if (!scripts[script]) return [`npm run ${script}${workspace ? ` -w ${workspace}` : ''}: no such script`];
  if (script !== 'admin') return [];
  const words = after.filter((w, i) => !w.startsWith('-') && after.slice(0, i).every((x) => !x.startsWith('-')));
  if (words.length === 0 || words[0]!.startsWith('<') || PLACEHOLDER.test(words[0]!)) return [];
  const two = words.slice(0, 2).join(' ');
  return ADMIN_COMMAND_NAMES.includes(two) || ADMIN_COMMAND_NAMES.includes(words[0]!) ? [] : [`npm run admin -- ${two}: no such admin command`];
}

/** An install or a one-off run (`npx`) of one of our names, which the registry would answer. */
function registryProblems(command: string[]): string[] {
  const [tool, verb, ...rest] = command;
  let specs: string[] = [];
  const packageFlags = (words: string[]): string[] =>
    words.flatMap((w, i) => (w.startsWith('--package=') ? [w.slice('--package='.length)] : w === '--package' || w === '-p' ? [words[i + 1] ?? ''] : []));
  const firstPositional = (words: string[]): string[] => words.filter((w) => !w.startsWith('-')).slice(0, 1);
  if (tool === 'npx' || tool === 'bunx') {
    const words = command.slice(1);
    const named = packageFlags(words);
    specs = named.length > 0 ? named : firstPositional(words);
  } else if ((tool === 'pnpm' || tool === 'yarn') && verb === 'dlx') specs = [...packageFlags(rest), ...firstPositional(rest)];
  else if (tool === 'npm' && verb === 'exec') specs = packageFlags(rest);
  else if (['npm', 'pnpm', 'yarn', 'bun'].includes(tool ?? '') && ['i', 'install', 'add', 'in', 'isntall'].includes(verb ?? ''))
    specs = rest.filter((w) => !w.startsWith('-'));
  return specs
    .filter((spec) => !isLocal(spec) && OURS(spec.replace(/(.)@[^/]*$/, '$1')))
    .map((spec) => `${command.join(' ')}: fetches ${spec} from the registry`);
}

/** Every problem of one document: unknown commands, flags, scripts, admin commands, registry installs. */
function problemsOf(where: string, markdown: string): string[] {
  const { code, prose } = snippetsOf(where, markdown);
  const problems: string[] = [];
  for (const snippet of code) {
    for (const command of commandsOf(snippet.text).map(bare)) {
      const found = [
        ...(command[0] === 'cin' ? cinProblems(command.slice(1)) : []),
        ...(command[0] === 'node' && command[1]?.endsWith('/cin.js') ? cinProblems(command.slice(2)) : []),
        ...(command[0] === 'npm' ? npmRunProblems(command.slice(1)) : []),
        ...registryProblems(command),
      ];
      problems.push(...found.map((p) => `${snippet.where}: ${p}`));
    }
  }
  // Prose can tell the reader to do it too ("run npx @capture-inbox/mcp").
  for (const line of prose) {
    if (
      /\b(?:npx|bunx|dlx)\s+(?:-\S+\s+)*@capture-inbox\//.test(line.text) ||
      /\b(?:npm|pnpm|yarn|bun)\s+(?:i|install|add)\s+(?:-\S+\s+)*@capture-inbox\//.test(line.text)
    )
      problems.push(`${line.where}: tells the reader to fetch a @capture-inbox package from the registry`);
  }
  return problems;
}

const GUIDES = (): string[] => [
  join(ROOT, 'README.md'),
  ...readdirSync(join(ROOT, 'docs'))
    .filter((name) => name.endsWith('.md'))
    .map((name) => join(ROOT, 'docs', name)),
  ...readdirSync(join(ROOT, 'packages')).map((name) => join(ROOT, 'packages', name, 'README.md')),
];

describe('the commands the docs name', () => {
  it('finds unknown commands, flags, scripts and admin commands, and registry installs of our packages, in sample text', () => {
    const sample = [
      '```sh',
      'npm install -g @capture-inbox/cli        # or a built checkout',
      'npx @capture-inbox/mcp',
      'cin frobnicate && cin ls --bogus',
      'cin projects adopt Work',
      'npm run --silent nope',
      'npm run --silent admin -- user frob --email E',
      '```',
      'Run `npx --package=@capture-inbox/cli cin mcp` or `claude mcp add x -- npx cin mcp`.',
      '```json',
      '{ "command": "npx", "args": ["--package=@capture-inbox/cli", "cin", "mcp"] }',
      '```',
    ].join('\n');
    expect(problemsOf('sample.md', sample)).toEqual([
      'sample.md:2: npm install -g @capture-inbox/cli: fetches @capture-inbox/cli from the registry',
      'sample.md:3: npx @capture-inbox/mcp: fetches @capture-inbox/mcp from the registry',
      'sample.md:4: cin frobnicate: no such command',
      'sample.md:4: cin ls --bogus: no such flag',
      'sample.md:5: cin projects adopt: no such subcommand',
      'sample.md:6: npm run nope: no such script',
      'sample.md:7: npm run admin -- user frob: no such admin command',
      'sample.md:9: npx --package=@capture-inbox/cli cin mcp: fetches @capture-inbox/cli from the registry',
      'sample.md:9: npx cin mcp: fetches cin from the registry',
      'sample.md (config): npx --package=@capture-inbox/cli cin mcp: fetches @capture-inbox/cli from the registry',
    ]);
  });

  it('accepts what the checkout builds: a folder, a packed tarball, the built file, real commands and scripts', () => {
    const sample = [
      '```console',
      '$ cin add "Send the report friday 5pm #Work" --due "fri 5pm" --tag x   # a comment --not-a-flag',
      'added     986ede45  [ ]  cin frobnicate is output, not a command',
      '```',
      '```sh',
      'npm install -g ./packages/cli && npm pack -w packages/cli && npm install -g ./capture-inbox-cli-0.1.0.tgz',
      'node /path/to/capture-inbox/packages/cli/dist/cin.js mcp',
      'source <(cin completion bash); cin help add; cin projects rm Office --yes',
      'npm run --silent admin -- user create --email a@example.com && npm run sdk:types && npm test',
      '```',
      '`cin show ID` · `cin rm ID [--yes]` · `cin add [--raw \\| --dry-run]` · `cin COMMAND --help`',
    ].join('\n');
    expect(problemsOf('sample.md', sample)).toEqual([]);
  });

  it('README.md, docs/*.md and the packages’ READMEs name only commands, flags and scripts that exist, and install nothing from the registry', () => {
    const problems = GUIDES().flatMap((file) => problemsOf(relative(ROOT, file), readFileSync(file, 'utf8')));
    expect(problems).toEqual([]);
  });

  it("cin's own manual pages install nothing from the registry either", () => {
    // A manual is prose around its examples: only what it would fetch is checked here.
    const problems = COMMANDS.flatMap((command) =>
      command.manual.split('\n').flatMap((line) =>
        commandsOf(line)
          .map(bare)
          .flatMap(registryProblems)
          .map((p) => `cin help ${command.name}: ${p}`),
      ),
    );
    expect(problems).toEqual([]);
  });

  it("operations.md's admin table names the admin CLI's commands, each of them", () => {
    const text = readFileSync(join(ROOT, 'docs/operations.md'), 'utf8');
    const section = text.slice(text.indexOf('## Admin CLI'), text.indexOf('\n## ', text.indexOf('## Admin CLI') + 1));
    const rows = [...section.matchAll(/^\| `([a-z]+(?: [a-z][a-z-]*)?)(?: [^`]*)?` \|/gm)].map((m) => m[1]!);
    expect(rows.filter((name) => !ADMIN_COMMAND_NAMES.includes(name))).toEqual([]);
    expect(ADMIN_COMMAND_NAMES.filter((name) => name !== 'help' && !rows.includes(name))).toEqual([]);
  });
});
