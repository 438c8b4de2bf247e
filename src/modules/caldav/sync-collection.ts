import { createHash } from 'node:crypto';
import { AppError } from '../../errors.js';
import type { EventsService } from '../events/events.service.js';
import type { AuthUser } from '../../schemas/auth-user.js';
import { findObjectsByItems } from './caldav.repository.js';
import type { Collection } from './collections.js';
import { invalidSyncToken } from './dav-error.js';
import { defaultName, type DavObject, type ObjectStore } from './object-store.js';
import type { Db } from '../../db/schema.js';

/*
 * Sync tokens are the change feed's cursors (RFC 6578 over GET /changes): a token names a place in
 * the user's feed, so one token serves every collection and `getctag` is the same value. A token
 * the feed refuses (not issued, malformed, older than the feed keeps) is 403 valid-sync-token.
 * A saved filter's members change without a change to them (`today` moves on at midnight), so its
 * collection's token also carries a digest of its member ids: when they differ, the token is
 * refused and the client lists the collection afresh, which drops the items that left.
 */

const PREFIX = 'urn:capture-inbox:sync:';
const PAGE = 500;
/** Between a filter collection's cursor and its members' digest; never in a cursor (base64url). */
const MEMBERS = '~';
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
  /** The current token (and ctag) of the user's project and notes collections. */
  token(user: AuthUser): Promise<string>;
  /** The token (and ctag) of one collection, given the user's token: a filter's adds its members' digest. */
  collectionToken(user: AuthUser, collection: Collection, userToken: string): Promise<string>;
  sync(user: AuthUser, collection: Collection, token: string | null): Promise<SyncResult>;
}

export function createSyncCollection(deps: { db: Db; events: Pick<EventsService, 'changes' | 'tail'>; store: ObjectStore }): SyncCollection {
  const { events, store } = deps;
  const token = async (user: AuthUser) => PREFIX + (await events.tail(user.id));
  const digest = (ids: readonly string[]) =>
    createHash('sha256')
      .update([...ids].sort().join(','))
      .digest('base64url')
      .slice(0, 16);
  const withMembers = (base: string, ids: readonly string[] | null) => (ids === null ? base : `${base}${MEMBERS}${digest(ids)}`);
  async function memberIds(user: AuthUser, collection: Collection): Promise<string[] | null> {
    return collection.filter === null ? null : (await store.list(user, collection)).map((o) => o.item.id);
  }

  return {
    token,
    collectionToken: async (user, collection, userToken) => withMembers(userToken, await memberIds(user, collection)),
    async sync(user, collection, given) {
      if (given === null) {
        // The token comes first: a change made while the listing is read is reported again next time, never lost.
        const start = await token(user);
        const listed = await store.list(user, collection);
        return { changed: listed, removed: [], token: withMembers(start, collection.filter === null ? null : listed.map((o) => o.item.id)), truncated: false };
      }
      if (!given.startsWith(PREFIX)) throw invalidSyncToken();
      const members = await memberIds(user, collection);
      let cursor = given.slice(PREFIX.length);
      if (members !== null) {
        const suffix = `${MEMBERS}${digest(members)}`;
        if (!cursor.endsWith(suffix)) throw invalidSyncToken();
        cursor = cursor.slice(0, -suffix.length);
      }
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
      const isMember = await store.membership(user, collection);
      const current = new Map((await store.items(user, [...touched])).map((i) => [i.id, i]));
      for (const id of touched) {
        const item = current.get(id);
        if (item && isMember(item)) present.push(item);
        else gone.push(id);
      }
      const rows = await findObjectsByItems(deps.db, user.id, gone);
      const nameOf = new Map(rows.map((r) => [r.item_id, r.name]));
      return {
        changed: await store.ofItems(user, present),
        removed: gone.map((id) => nameOf.get(id) ?? defaultName(id)),
        token: withMembers(PREFIX + cursor, members),
        truncated,
      };
    },
  };
}
