import { AppError } from '../../errors.js';
import type { EventsService } from '../events/events.service.js';
import type { AuthUser } from '../../schemas/auth-user.js';
import { findObjectsByItems } from './caldav.repository.js';
import { holds, type Collection } from './collections.js';
import { invalidSyncToken } from './dav-error.js';
import { defaultName, type DavObject, type ObjectStore } from './object-store.js';
import type { Db } from '../../db/schema.js';

/*
 * Sync tokens are the change feed's cursors (RFC 6578 over GET /changes): a token names a place in
 * the user's feed, so one token serves every collection and `getctag` is the same value. A token
 * the feed refuses (not issued, malformed, older than the feed keeps) is 403 valid-sync-token.
 */

const PREFIX = 'urn:capture-inbox:sync:';
const PAGE = 500;
/** Changes read per report; past them the answer is cut short (507 on the collection, RFC 6578 section 3.6). */
const MAX_CHANGES = 10_000;

export interface SyncResult {
  changed: DavObject[];
  /** File names of members gone from the collection (deleted, or moved elsewhere). */
  removed: string[];
  token: string;
  truncated: boolean;
}

export interface SyncCollection {
  /** The current token (and ctag) of the user's collections. */
  token(user: AuthUser): Promise<string>;
  sync(user: AuthUser, collection: Collection, token: string | null): Promise<SyncResult>;
}

export function createSyncCollection(deps: { db: Db; events: Pick<EventsService, 'changes' | 'tail'>; store: ObjectStore }): SyncCollection {
  const { events, store } = deps;
  const token = async (user: AuthUser) => PREFIX + (await events.tail(user.id));

  return {
    token,
    async sync(user, collection, given) {
      if (given === null) {
        // The token comes first: a change made while the listing is read is reported again next time, never lost.
        const start = await token(user);
        return { changed: await store.list(user, collection), removed: [], token: start, truncated: false };
      }
      if (!given.startsWith(PREFIX)) throw invalidSyncToken();
      let cursor = given.slice(PREFIX.length);
      const touched = new Set<string>();
      let truncated = false;
      for (let read = 0; ; read += PAGE) {
        if (read >= MAX_CHANGES) {
          truncated = true;
          break;
        }
        let page;
        try {
          page = await events.changes(user.id, { cursor, limit: PAGE });
        } catch (error) {
          if (error instanceof AppError && (error.statusCode === 400 || error.statusCode === 410)) throw invalidSyncToken();
          throw error;
        }
        // Saved filters' changes share the feed (filter.*); a calendar collection holds items only.
        for (const change of page.changes) if ('item' in change.data) touched.add(change.data.item.id);
        cursor = page.next_cursor;
        if (!page.has_more) break;
      }
      const present = [];
      const gone: string[] = [];
      for (const id of touched) {
        const item = await store.item(user, id);
        if (item && holds(collection, item)) present.push(item);
        else gone.push(id);
      }
      const rows = await findObjectsByItems(deps.db, user.id, gone);
      const nameOf = new Map(rows.map((r) => [r.item_id, r.name]));
      return {
        changed: await store.ofItems(user, present),
        removed: gone.map((id) => nameOf.get(id) ?? defaultName(id)),
        token: PREFIX + cursor,
        truncated,
      };
    },
  };
}
