import { UsageError } from '../command.js';
import type { Context } from '../context.js';

export const DEFAULT_LIMIT = 20;
/** Pages are 200 at most; more than this many items are not a terminal's business. */
const MAX_LIMIT = 10_000;

export function limitOf(ctx: Context): number {
  const given = ctx.string('limit');
  if (given === undefined) return DEFAULT_LIMIT;
  const n = Number(given);
  if (!Number.isInteger(n) || n < 1 || n > MAX_LIMIT) throw new UsageError(`--limit must be a whole number from 1 to ${MAX_LIMIT}`);
  return n;
}

/** The first `limit` entries that pass `keep`, fetching no page beyond them. */
export async function take<T>(entries: AsyncIterable<T>, limit: number, keep: (entry: T) => boolean = () => true): Promise<T[]> {
  const out: T[] = [];
  if (limit <= 0) return out;
  for await (const entry of entries) {
    if (!keep(entry)) continue;
    out.push(entry);
    if (out.length >= limit) break;
  }
  return out;
}
