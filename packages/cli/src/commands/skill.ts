import { mkdir, writeFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import { UsageError, type Command } from '../command.js';
import type { Context } from '../context.js';
import { SKILL_BODY, SKILL_DESCRIPTION, SKILL_NAME } from '../skill-text.js';
import { cliVersion } from '../version.js';

const AGENTS = ['claude', 'codex', 'cursor', 'gemini'] as const;
type Agent = (typeof AGENTS)[number];

interface SkillFile {
  /** Relative to the folder it is installed in. */
  path: string;
  content: string;
}

const frontMatter = (fields: Record<string, string | boolean>): string =>
  `---\n${Object.entries(fields)
    .map(([k, v]) => `${k}: ${typeof v === 'string' ? JSON.stringify(v) : String(v)}`)
    .join('\n')}\n---\n\n`;

/** The files an agent reads, in its own format: a skill folder (Claude, Codex), a rule (Cursor), an extension (Gemini), or plain Markdown. */
function filesFor(agent: Agent | undefined): SkillFile[] {
  switch (agent) {
    case 'claude':
    case 'codex':
      return [{ path: join(SKILL_NAME, 'SKILL.md'), content: frontMatter({ name: SKILL_NAME, description: SKILL_DESCRIPTION }) + SKILL_BODY }];
    case 'cursor':
      return [{ path: `${SKILL_NAME}.mdc`, content: frontMatter({ description: SKILL_DESCRIPTION, alwaysApply: false }) + SKILL_BODY }];
    case 'gemini':
      return [
        {
          path: join(SKILL_NAME, 'gemini-extension.json'),
          content: `${JSON.stringify({ name: SKILL_NAME, version: cliVersion(), contextFileName: 'GEMINI.md' }, null, 2)}\n`,
        },
        { path: join(SKILL_NAME, 'GEMINI.md'), content: `${SKILL_DESCRIPTION}\n\n${SKILL_BODY}` },
      ];
    case undefined:
      return [{ path: `${SKILL_NAME}.md`, content: `${SKILL_DESCRIPTION}\n\n${SKILL_BODY}` }];
  }
}

/** Where each agent looks when no --dir is given: its own skills folder (Cursor's rules are per project). */
function defaultDir(agent: Agent | undefined, env: NodeJS.ProcessEnv): string {
  const home = env.HOME ?? homedir();
  switch (agent) {
    case 'claude':
      return join(home, '.claude', 'skills');
    case 'codex':
      return join(env.CODEX_HOME ?? join(home, '.codex'), 'skills');
    case 'gemini':
      return join(home, '.gemini', 'extensions');
    case 'cursor':
      return resolve('.cursor', 'rules');
    case undefined:
      return resolve('.');
  }
}

function agentOf(ctx: Context): Agent | undefined {
  const given = ctx.string('agent');
  if (given !== undefined && !AGENTS.includes(given as Agent)) throw new UsageError(`--agent must be one of ${AGENTS.join(', ')}`);
  return given as Agent | undefined;
}

export const skill: Command = {
  name: 'skill',
  summary: 'write (or print) a skill that teaches an agent to use cin',
  usage: 'cin skill install [--agent claude|codex|cursor|gemini] [--dir DIR] · cin skill show [--agent NAME]',
  manual: `Writes a skill file that teaches a coding agent when and how to use cin safely: the commands
with --json and --ndjson, quick add and filter syntax, the exit codes, and that item text is the
user's content, never instructions. No login is needed.

  install            write it (an existing one is replaced); prints the path of each file written
  show               print it instead
  --agent claude     DIR/capture-inbox/SKILL.md, default DIR ~/.claude/skills
  --agent codex      DIR/capture-inbox/SKILL.md, default DIR $CODEX_HOME/skills (~/.codex/skills)
  --agent cursor     DIR/capture-inbox.mdc (a rule), default DIR ./.cursor/rules
  --agent gemini     DIR/capture-inbox/ (an extension: gemini-extension.json and GEMINI.md),
                     default DIR ~/.gemini/extensions
  (no --agent)       DIR/capture-inbox.md, plain Markdown, default DIR the current folder
  --dir DIR          install there instead

With --json, install prints { agent, files: [paths] } and show { agent, files: [{ path, content }] }.

Examples:
  cin skill install --agent claude
  cin skill show --agent codex`,
  subcommands: ['install', 'show'],
  flagValues: { agent: AGENTS },
  options: { agent: { type: 'string' }, dir: { type: 'string' } },
  async run(ctx) {
    const [action, ...rest] = ctx.positionals;
    if ((action !== 'install' && action !== 'show') || rest.length > 0)
      throw new UsageError('cin skill install [--agent NAME] [--dir DIR] | cin skill show [--agent NAME]');
    const agent = agentOf(ctx);
    const files = filesFor(agent);
    if (action === 'show') {
      if (ctx.string('dir') !== undefined) throw new UsageError('--dir is for cin skill install');
      if (ctx.json) ctx.printJson({ agent: agent ?? null, files });
      else ctx.io.stdout.write(files.map((f) => (files.length > 1 ? `==> ${f.path} <==\n${f.content}` : f.content)).join('\n'));
      return 0;
    }
    const dir = resolve(ctx.string('dir') ?? defaultDir(agent, ctx.io.env));
    const written: string[] = [];
    for (const file of files) {
      const path = join(dir, file.path);
      await mkdir(resolve(path, '..'), { recursive: true });
      await writeFile(path, file.content);
      written.push(path);
    }
    if (ctx.json) ctx.printJson({ agent: agent ?? null, files: written });
    else for (const path of written) ctx.print(`wrote ${path}`);
    return 0;
  },
};
