import { randomBytes } from 'node:crypto';
import type { Db } from '../../db/schema.js';
import type { Clock } from '../../lib/clock.js';
import { toTimestamp } from '../../lib/timestamps.js';
import { addressPattern, type AddressPattern } from './address-pattern.js';
import { findToken, findUsersByTokens, insertTokenIfMissing, replaceToken } from './email-in.repository.js';

/** Users' secret addresses (contract: Email to inbox). The mailbox reader is mail-reader.ts. */
export interface EmailInService {
  /** True when EMAIL_IN_IMAP_URL and EMAIL_IN_ADDRESS are set. */
  readonly enabled: boolean;
  /** The user's address (made at first ask), or null when email-in is off. */
  address(userId: string): Promise<string | null>;
  /** A new token for the user; the old address stops matching at once. Null when email-in is off. */
  rotate(userId: string): Promise<string | null>;
  /** The ids of the users whose current address is among `addresses` (To, Cc, Delivered-To). */
  usersAddressed(addresses: readonly string[]): Promise<string[]>;
}

/** 120 random bits, as 24 lowercase hex characters: safe in any mail local part, unguessable. */
const newToken = (): string => randomBytes(12).toString('hex');

export function createEmailInService(deps: { db: Db; clock: Clock; addressPattern: string | undefined }): EmailInService {
  const { db, clock } = deps;
  const pattern: AddressPattern | undefined = deps.addressPattern === undefined ? undefined : addressPattern(deps.addressPattern);

  return {
    enabled: pattern !== undefined,

    async address(userId) {
      if (!pattern) return null;
      const existing = await findToken(db, userId);
      if (existing) return pattern.addressFor(existing);
      await insertTokenIfMissing(db, { user_id: userId, token: newToken(), created_at: toTimestamp(clock.now()) });
      const token = await findToken(db, userId);
      return token === undefined ? null : pattern.addressFor(token);
    },

    async rotate(userId) {
      if (!pattern) return null;
      const token = newToken();
      await replaceToken(db, { user_id: userId, token, created_at: toTimestamp(clock.now()) });
      return pattern.addressFor(token);
    },

    async usersAddressed(addresses) {
      if (!pattern) return [];
      const rows = await findUsersByTokens(db, pattern.tokensIn(addresses));
      return rows.map((row) => row.user_id);
    },
  };
}
