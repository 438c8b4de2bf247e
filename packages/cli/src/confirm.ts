import { CliError, UsageError } from './command.js';
import type { Context } from './context.js';

/** The flag every destructive command takes to skip its question. */
export const YES_OPTION = { yes: { type: 'boolean', short: 'y' } } as const;

/** Refuses at once (before anything is asked of the server) when a question could not be answered. */
export function canConfirm(ctx: Context, refusal: string): void {
  if (!ctx.flag('yes') && !ctx.io.stdin.isTTY) throw new UsageError(`${refusal}: there is no terminal to confirm on; pass --yes to go ahead without asking`);
}

/**
 * Asks before something is destroyed. --yes skips the question; without a terminal to ask on (a
 * script, a pipe) and without --yes the command refuses (exit 2) rather than deleting silently.
 * A "no" (or no answer) is exit 1 with nothing done.
 */
export async function confirm(ctx: Context, question: string, refusal: string): Promise<void> {
  if (ctx.flag('yes')) return;
  canConfirm(ctx, refusal);
  // readline only when asking: cin starts without it. terminal: false leaves Ctrl-C to the process,
  // whose handler aborts the signal that ends the question.
  const { createInterface } = await import('node:readline/promises');
  const reader = createInterface({ input: ctx.io.stdin, output: ctx.io.stderr, terminal: false });
  try {
    const answer = await reader.question(`${question} [y/N] `, { signal: ctx.io.signal });
    if (!/^\s*y(es)?\s*$/i.test(answer)) throw new CliError('cancelled', `${refusal}: not confirmed`);
  } finally {
    reader.close();
  }
}
