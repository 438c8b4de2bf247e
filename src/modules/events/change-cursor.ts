import { badRequest } from '../../errors.js';
import { decodeToken, encodeToken } from '../../lib/cursor.js';
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

export const encodeChangeCursor = (c: ChangeCursor): string => encodeToken([TAG, c.txid, c.seq, c.issuedAt]);

const isCount = (v: unknown): v is number => typeof v === 'number' && Number.isSafeInteger(v) && v >= 0;

export function decodeChangeCursor(cursor: string): ChangeCursor {
  const invalid = badRequest('cursor is not a change-feed cursor; pass next_cursor (or a change cursor) unchanged', 'cursor');
  const parsed = cursor.length <= 200 ? decodeToken(cursor, 4) : undefined;
  if (!parsed) throw invalid;
  const [tag, txid, seq, issuedAt] = parsed;
  if (tag !== TAG || !isCount(txid) || !isCount(seq) || !isCount(issuedAt)) throw invalid;
  return { txid, seq, issuedAt };
}
