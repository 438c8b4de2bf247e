import type { CompiledQuery } from 'kysely';
import type { DialectName } from '../../db/create-db.js';
import type { Db, Executor } from '../../db/schema.js';
import { AppError, badRequest } from '../../errors.js';
import type { Clock } from '../../lib/clock.js';
import { clampLimit } from '../../lib/cursor.js';
import type { IdGenerator } from '../../lib/ids.js';
import { toTimestamp } from '../../lib/timestamps.js';
import type { SavedFilterView } from '../../schemas/filter.js';
import type { ItemView } from '../../schemas/item.js';
import { decodeChangeCursor, encodeChangeCursor } from './change-cursor.js';
import {
  findFeedPage,
  findFeedTail,
  hasHeldBackEvents,
  insertBuiltEventAfterWrite,
  insertOutboxAfterWrite,
  insertOutboxEvents,
  outboxInsertQuery,
  outboxColumns,
  type BuiltEventParams,
  type FeedPosition,
  type OutboxColumns,
  type OutboxRow,
} from './events.repository.js';
import { claimUndispatchedEvents, deleteUserEvents, pruneDispatchedEvents, reopenEventsSince, type UndispatchedEvent } from './outbox-dispatch.repository.js';

export type { UndispatchedEvent } from './outbox-dispatch.repository.js';
export type { BuiltEventParams, OutboxColumns } from './events.repository.js';

const DAY_MS = 24 * 3600_000;
/** The contract: changes are kept at least 30 days; a cursor issued longer ago is 410. */
const CURSOR_LIFETIME_MS = 30 * DAY_MS;
/**
 * How long events are kept. A day more than a cursor lives, so every event after a live cursor is
 * still there: an event can be committed a little after the clock time it carries.
 */
export const EVENT_RETENTION_MS = 31 * DAY_MS;
/**
 * How far ahead of this process's clock a cursor's issue time may be. Every process of the service
 * (WORKERS, or several hosts behind one database) stamps cursors with its own clock, and a client
 * may take a cursor from one and read with it from another: NTP keeps hosts far closer than this.
 * Further ahead, the cursor was not issued by the service (made up, or edited to dodge expiry): 400.
 */
const CURSOR_CLOCK_SKEW_MS = 5 * 60_000;

export type ItemEventName = 'item.created' | 'item.updated' | 'item.completed' | 'item.uncompleted' | 'item.archived' | 'item.deleted' | 'item.reminder';

export const ITEM_EVENT_NAMES: readonly ItemEventName[] = [
  'item.created',
  'item.updated',
  'item.completed',
  'item.uncompleted',
  'item.archived',
  'item.deleted',
  'item.reminder',
];

/** A saved filter's changes are in the feed too (contract "Filters and saved views"); webhooks subscribe to item events only. */
export type FilterEventName = 'filter.created' | 'filter.updated' | 'filter.deleted';
const FILTER_EVENT_NAMES: readonly FilterEventName[] = ['filter.created', 'filter.updated', 'filter.deleted'];
/** Every event name the change feed may carry. */
export const FEED_EVENT_NAMES: readonly (ItemEventName | FilterEventName)[] = [...ITEM_EVENT_NAMES, ...FILTER_EVENT_NAMES];

export interface PendingEvent {
  name: ItemEventName;
  item: ItemView;
  /** item.completed of a recurring item: the due date it moved to (contract "Recurrence"). */
  next_due_at?: string;
}

export interface DeliveryBody {
  id: string;
  event: ItemEventName;
  created_at: string;
  data: { item: ItemView; next_due_at?: string };
}

/** A saved filter's event: the filter after the change (for filter.deleted, as it was). */
export interface FilterEventBody {
  id: string;
  event: FilterEventName;
  created_at: string;
  data: { filter: SavedFilterView };
}

/** A change of the feed: the delivery body, plus the cursor just after it. */
export type Change = (DeliveryBody | FilterEventBody) & { cursor: string };

export interface ChangePage {
  changes: Change[];
  next_cursor: string;
  has_more: boolean;
}

export interface EventsService {
  /** Must be called with the transaction of the change itself: that is what makes events crash-safe. Answers the events' ids, in order. */
  record(trx: Executor, userId: string, events: PendingEvent[]): Promise<string[]>;
  /**
   * PostgreSQL one-statement writes (decisions/0032): `outboxParams` turns events into a prepared
   * query's parameters, and `insertAfterWrite` is the statement's last part, built from them: the
   * only way outside this module to write outbox_events.
   */
  outboxParams(userId: string, events: readonly PendingEvent[]): OutboxColumns;
  /** SQLite's synchronous units: `record` as a compiled statement to run in the change's unit. */
  recordQuery(db: Executor, userId: string, events: PendingEvent[]): CompiledQuery;
  /** A saved filter's change, in the transaction of the change itself; the outbox row's item_id holds the filter's id. */
  recordFilter(trx: Executor, userId: string, name: FilterEventName, filter: SavedFilterView): Promise<void>;
  insertAfterWrite: typeof insertOutboxAfterWrite;
  /** The id and time for insertBuiltAfterWrite's event, from the service's id generator and clock. */
  builtEventParams(): BuiltEventParams;
  /** PostgreSQL: the end of a one-statement change whose event's item view the statement builds itself (decisions/0107). */
  insertBuiltAfterWrite: typeof insertBuiltEventAfterWrite;
  /** GET /changes: the user's events in feed order after `cursor` (from the oldest kept without one). */
  changes(userId: string, query: { cursor?: string; limit?: number }): Promise<ChangePage>;
  /** The live stream's start without a cursor: the cursor just after the user's newest change now. */
  tail(userId: string): Promise<string>;
  /**
   * Whether changes after `cursor` exist that no read can serve yet (PostgreSQL: an older
   * transaction is still running); the live stream reads again shortly when so.
   */
  heldBack(userId: string, cursor: string): Promise<boolean>;
  /** Webhook fan-out, in its transaction: takes up to `limit` events not yet dispatched, oldest first. */
  takeUndispatched(trx: Executor, now: string, limit: number): Promise<UndispatchedEvent[]>;
  /** A new webhook, in its transaction: its user's events since `since` go back to fan-out. */
  reopenSince(trx: Executor, userId: string, since: string): Promise<void>;
  /** Account deletion, in its transaction: every event of the user goes, with its deliveries. */
  forgetUser(trx: Executor, userId: string): Promise<void>;
  /** Deletes up to `limit` dispatched events created before `cutoff` that no delivery still needs. */
  pruneDispatched(cutoff: string, limit: number): Promise<number>;
}

export function createEventsService(deps: { db: Db; dialect: DialectName; clock: Clock; newId: IdGenerator }): EventsService {
  const outboxRows = (userId: string, events: readonly PendingEvent[]): OutboxRow[] => {
    const createdAt = toTimestamp(deps.clock.now());
    return events.map(({ name, item, next_due_at }) => {
      const id = deps.newId();
      const body: DeliveryBody = { id, event: name, created_at: createdAt, data: next_due_at === undefined ? { item } : { item, next_due_at } };
      return { id, user_id: userId, event: name, item_id: item.id, payload: JSON.stringify(body), created_at: createdAt };
    });
  };
  /** A cursor of the feed, checked: 400 when it does not decode or was issued in the future, 410 when it is older than cursors live. */
  const positionOf = (cursor: string, now: number): FeedPosition => {
    const decoded = decodeChangeCursor(cursor);
    if (decoded.issuedAt > now + CURSOR_CLOCK_SKEW_MS) {
      throw badRequest('cursor was issued in the future, so the service did not issue it; pass next_cursor (or a change cursor) unchanged', 'cursor');
    }
    if (decoded.issuedAt < now - CURSOR_LIFETIME_MS) {
      throw new AppError(
        'cursor_expired',
        'this cursor is older than 30 days and its changes may be gone; re-read GET /items and start the feed again without a cursor',
      );
    }
    return { txid: decoded.txid, seq: decoded.seq };
  };
  return {
    outboxParams: (userId, events) => outboxColumns(outboxRows(userId, events)),
    insertAfterWrite: insertOutboxAfterWrite,
    builtEventParams: () => ({ eventId: deps.newId(), eventCreatedAt: toTimestamp(deps.clock.now()) }),
    insertBuiltAfterWrite: insertBuiltEventAfterWrite,
    async recordFilter(trx, userId, name, filter) {
      const id = deps.newId();
      const createdAt = toTimestamp(deps.clock.now());
      const body: FilterEventBody = { id, event: name, created_at: createdAt, data: { filter } };
      await insertOutboxEvents(trx, deps.dialect, userId, [
        { id, user_id: userId, event: name, item_id: filter.id, payload: JSON.stringify(body), created_at: createdAt },
      ]);
    },
    recordQuery: (db, userId, events) => outboxInsertQuery(db, deps.dialect, userId, outboxRows(userId, events)),
    async record(trx, userId, events) {
      const rows = outboxRows(userId, events);
      await insertOutboxEvents(trx, deps.dialect, userId, rows);
      return rows.map((r) => r.id);
    },
    async changes(userId, query) {
      const issuedAt = deps.clock.now().getTime();
      const after: FeedPosition = query.cursor === undefined ? { txid: 0, seq: 0 } : positionOf(query.cursor, issuedAt);
      const limit = clampLimit(query.limit, 100, 500);
      const rows = await findFeedPage(deps.db, deps.dialect, userId, after, limit);
      const page = rows.slice(0, limit);
      const changes = page.map((row): Change => ({
        ...(JSON.parse(row.payload) as DeliveryBody),
        cursor: encodeChangeCursor({ txid: row.txid, seq: row.seq, issuedAt }),
      }));
      const last = page[page.length - 1] ?? after;
      return { changes, next_cursor: encodeChangeCursor({ txid: last.txid, seq: last.seq, issuedAt }), has_more: rows.length > limit };
    },
    async tail(userId) {
      const tail = (await findFeedTail(deps.db, deps.dialect, userId)) ?? { txid: 0, seq: 0 };
      return encodeChangeCursor({ ...tail, issuedAt: deps.clock.now().getTime() });
    },
    heldBack: (userId, cursor) => hasHeldBackEvents(deps.db, deps.dialect, userId, positionOf(cursor, deps.clock.now().getTime())),
    takeUndispatched: (trx, now, limit) => claimUndispatchedEvents(trx, deps.dialect, now, limit),
    reopenSince: (trx, userId, since) => reopenEventsSince(trx, userId, since),
    forgetUser: deleteUserEvents,
    pruneDispatched: (cutoff, limit) => pruneDispatchedEvents(deps.db, cutoff, limit),
  };
}
