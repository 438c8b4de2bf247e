import { badRequest } from '../../errors.js';
import type { FeedPosition } from './events.repository.js';

/**
 * Change-feed cursors: a feed position and when the cursor was issued (epoch ms), as base64url
 * JSON. The issue time is what makes a cursor expire: events are kept longer than cursors live, so
 * a cursor that is still valid never points before a pruned event.
 */
export interface ChangeCursor extends FeedPosition {
  issuedAt: number;
}

const TAG = 'changes';

export const encodeChangeCursor = (c: ChangeCursor): string => Buffer.from(JSON.stringify([TAG, c.txid, c.seq, c.issuedAt]), 'utf8').toString('base64url');

const isCount = (v: unknown): v is number => typeof v === 'number' && Number.isSafeInteger(v) && v >= 0;

export function decodeChangeCursor(cursor: string): ChangeCursor {
  const invalid = badRequest('cursor is not a change-feed cursor; pass next_cursor (or a change cursor) unchanged', 'cursor');
  if (!/^[A-Za-z0-9_-]{1,200}$/.test(cursor)) throw invalid;
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    throw invalid;
  }
  if (!Array.isArray(parsed) || parsed.length !== 4) throw invalid;
  const [tag, txid, seq, issuedAt] = parsed as unknown[];
  if (tag !== TAG || !isCount(txid) || !isCount(seq) || !isCount(issuedAt)) throw invalid;
  return { txid, seq, issuedAt };
}
