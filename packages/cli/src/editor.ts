import { CliError, UsageError } from './command.js';
import type { Context } from './context.js';

/** What the editor shows: the title on the first line, a blank line, then the notes (Markdown). */
export interface TitleAndNotes {
  title: string;
  notes: string | null;
}

const editorText = (value: TitleAndNotes): string => `${value.title}\n\n${value.notes ?? ''}${value.notes ? '\n' : ''}`;

/** The first line is the title; what follows (after blank lines) the notes; none: null. */
function readEditorText(text: string): TitleAndNotes {
  const [first = '', ...rest] = text.replace(/\r\n/g, '\n').split('\n');
  const notes = rest
    .join('\n')
    .replace(/^\s*\n/, '')
    .trimEnd();
  return { title: first.trim(), notes: notes.trim() === '' ? null : notes };
}

/** VISUAL, else EDITOR (as git reads them), else vi on a terminal; no editor at all is a usage error. */
function editorCommand(ctx: Context): string {
  const named = ctx.io.env.VISUAL || ctx.io.env.EDITOR;
  if (named) return named;
  if (ctx.io.stdin.isTTY) return 'vi';
  throw new UsageError('nothing to change: give --title, --notes, --due, --project, --tag, --every or --remind, or set EDITOR to edit the title and notes');
}

/**
 * Opens the user's editor on a private temporary file holding `value` and answers what it holds
 * when the editor exits. The command is run by the shell, so EDITOR="code --wait" works; the
 * file is removed whatever happens.
 */
export async function editInEditor(ctx: Context, value: TitleAndNotes): Promise<TitleAndNotes> {
  const command = editorCommand(ctx);
  // Only this command needs these: cin starts without them.
  const [{ spawn }, { mkdtemp, readFile, rm, writeFile }, { tmpdir }, { join }] = await Promise.all([
    import('node:child_process'),
    import('node:fs/promises'),
    import('node:os'),
    import('node:path'),
  ]);
  const dir = await mkdtemp(join(tmpdir(), 'cin-edit-'));
  const file = join(dir, 'item.md');
  try {
    await writeFile(file, editorText(value), { mode: 0o600 });
    const code = await new Promise<number | null>((resolve, reject) => {
      const child = spawn('/bin/sh', ['-c', `${command} "$1"`, 'sh', file], { stdio: 'inherit', env: ctx.io.env });
      child.on('error', reject);
      child.on('exit', (exitCode, signal) => resolve(signal ? null : exitCode));
    });
    if (code !== 0) throw new CliError('editor_failed', `the editor (${command}) exited with ${code ?? 'a signal'}; nothing was changed`);
    return readEditorText(await readFile(file, 'utf8'));
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
