import { readFile } from 'node:fs/promises';
import { CliError } from '../command.js';
import type { Context } from '../context.js';

/** A file the user named, or stdin for "-"; an unreadable file is a refusal (exit 1), not a crash. */
export async function readInput(ctx: Context, path: string): Promise<Buffer> {
  if (path === '-') return Buffer.from(await ctx.readStdin());
  try {
    return await readFile(path);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new CliError('unreadable_file', `cannot read ${path}: ${code === 'ENOENT' ? 'no such file' : (error as Error).message}`);
  }
}
