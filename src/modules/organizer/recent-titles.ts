import type { Db } from '../../db/schema.js';
import type { Clock } from '../../lib/clock.js';
import type { EventsService } from '../events/events.service.js';
import { findRecentTitles, type RecentTitle } from './organizer.repository.js';

/**
 * Each user's latest titles, kept per process and brought up to date from the change feed
 * (decision 0103): reading the 2,000 latest titles on every decision was ~6–10 ms of the event loop
 * (one synchronous `all` on SQLite), and an organized capture changes them every time, so the
 * cache is updated, not invalidated. The feed is the one record of every change to an item (what
 * clients sync by), served in commit order: a cursor taken before the full read, then the events
 * after it applied in order, end at what the database holds.
 */
export interface RecentTitles {
  /** The user's latest `limit` titled items, newest first, without `excludeItemId`. */
  latest(userId: string, excludeItemId?: string): Promise<readonly RecentTitle[]>;
}

/** Users whose titles are kept: past this, the least recently used goes. */
const USERS_KEPT = 200;
/** Changes read per refresh; more than this (a bulk edit, an import) and the titles are read again whole. */
const FEED_PAGE = 200;
/** However well the feed kept them, the titles are read whole again this often (a write no event records). */
const REREAD_AFTER_MS = 10 * 60_000;

interface Kept {
  /** Newest first (created_at, then id, as the full read orders them), at most `limit + 1`. */
  rows: RecentTitle[];
  /** True when the full read found fewer rows than it asked for: the user has no older titled item. */
  complete: boolean;
  cursor: string;
  readAt: number;
}

const newerFirst = (a: RecentTitle, b: RecentTitle): number => (a.created_at === b.created_at ? (a.id < b.id ? 1 : -1) : a.created_at < b.created_at ? 1 : -1);

/**
 * Applies one item's state to the kept rows; false when the rows can no longer stand for the
 * latest titles (one of them left a window that holds older ones beyond it).
 */
export function applyChange(
  kept: { rows: RecentTitle[]; complete: boolean },
  size: number,
  change: { deleted: boolean; item: RecentTitle | { id: string; project_id: string; title: string | null; created_at: string } },
): boolean {
  const at = kept.rows.findIndex((r) => r.id === change.item.id);
  const title = change.deleted ? null : change.item.title;
  if (title === null) {
    if (at < 0) return true;
    kept.rows.splice(at, 1);
    // The next older title is not here to take its place, unless there is none.
    return kept.complete;
  }
  const row: RecentTitle = { id: change.item.id, project_id: change.item.project_id, title, created_at: change.item.created_at };
  if (at >= 0) {
    kept.rows[at] = row;
    return true;
  }
  const oldest = kept.rows[kept.rows.length - 1];
  // Older than every kept row of a window that is full: not among the latest.
  if (!kept.complete && oldest && newerFirst(row, oldest) > 0) return true;
  let i = 0;
  while (i < kept.rows.length && newerFirst(kept.rows[i]!, row) < 0) i += 1;
  kept.rows.splice(i, 0, row);
  if (kept.rows.length > size) {
    kept.rows.length = size;
    kept.complete = false;
  }
  return true;
}

export function createRecentTitles(deps: { db: Db; clock: Clock; events: Pick<EventsService, 'tail' | 'changes'>; limit: number }): RecentTitles {
  // One more than asked, so that leaving one item out still leaves `limit`.
  const size = deps.limit + 1;
  const kept = new Map<string, Kept>();
  // A user's refreshes run one after another: an older page applied after a newer one would undo it.
  const running = new Map<string, Promise<unknown>>();

  function remember(userId: string, entry: Kept): void {
    kept.delete(userId);
    if (kept.size >= USERS_KEPT) kept.delete(kept.keys().next().value!);
    kept.set(userId, entry);
  }

  function oneAtATime<T>(userId: string, job: () => Promise<T>): Promise<T> {
    const run = (running.get(userId) ?? Promise.resolve()).then(job);
    const settled = run.catch(() => undefined);
    running.set(userId, settled);
    void settled.then(() => {
      if (running.get(userId) === settled) running.delete(userId);
    });
    return run;
  }

  async function readWhole(userId: string): Promise<Kept> {
    // The cursor first: what changes after it is in the feed, whether or not the read below saw it.
    const cursor = await deps.events.tail(userId);
    const rows = await findRecentTitles(deps.db, userId, { limit: size });
    return { rows, complete: rows.length < size, cursor, readAt: deps.clock.now().getTime() };
  }

  /** Brings the kept rows up to date; false when they must be read whole instead. */
  async function refresh(userId: string, entry: Kept): Promise<boolean> {
    if (deps.clock.now().getTime() - entry.readAt > REREAD_AFTER_MS) return false;
    let page;
    try {
      page = await deps.events.changes(userId, { cursor: entry.cursor, limit: FEED_PAGE });
    } catch {
      // An expired cursor (30 days), or a clock that went back: read whole.
      return false;
    }
    if (page.has_more) return false;
    for (const change of page.changes) {
      if (!change.event.startsWith('item.') || !('item' in change.data)) continue;
      if (!applyChange(entry, size, { deleted: change.event === 'item.deleted', item: change.data.item })) return false;
    }
    entry.cursor = page.next_cursor;
    return true;
  }

  return {
    latest: (userId, excludeItemId) =>
      oneAtATime(userId, async () => {
        let entry = kept.get(userId);
        if (!entry || !(await refresh(userId, entry))) {
          // Half-applied rows must not outlive a failed read.
          kept.delete(userId);
          entry = await readWhole(userId);
        }
        remember(userId, entry);
        // A copy: later refreshes change the kept array, never the rows in it.
        const rows = excludeItemId === undefined ? entry.rows : entry.rows.filter((r) => r.id !== excludeItemId);
        return rows.slice(0, deps.limit);
      }),
  };
}
