import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { DialectName } from '../../db/create-db.js';
import type { Db } from '../../db/schema.js';
import { AppError, badRequest, notFound } from '../../errors.js';
import type { Clock } from '../../lib/clock.js';
import { isUuid, type IdGenerator } from '../../lib/ids.js';
import { toTimestamp } from '../../lib/timestamps.js';
import type { ObjectStore } from '../caldav/object-store.js';
import type { FiltersService } from '../filters/filters.service.js';
import type { ItemView } from '../items/item-view.js';
import type { ItemsService } from '../items/items.service.js';
import type { ProjectsService } from '../projects/projects.service.js';
import { eventsDocument, todosDocument } from './feed-ical.js';
import {
  countFeeds,
  deleteFeed,
  findFeed,
  findFeedById,
  findFeeds,
  findUserZone,
  insertFeed,
  lockUser,
  updateFeedSecret,
  type FeedRow,
} from './feeds.repository.js';

/*
 * Subscribable calendar feeds (contract "Calendar apps: CalDAV and feeds", decisions/0083). The URL's
 * secret is `{feed id}{random}`: the id finds the row, then the whole secret is compared in constant
 * time, so the lookup itself tells nothing about the secret. It is kept in clear (the list shows the
 * URL again, like the email-in address); rotating replaces it, so the old URL stops at once.
 */

/** The contract's limit: the 21st feed is 400. */
const MAX_FEEDS = 20;
const PAGE = 200;
/** At most 100 pages of 200 items are read for one feed: every loop is bounded. */
const MAX_PAGES = 100;
const ID_LENGTH = 36;

export type FeedKind = 'todos' | 'events';

export interface FeedView {
  id: string;
  url: string;
  project_id: string | null;
  filter_id: string | null;
  all: boolean;
  as: FeedKind;
  created_at: string;
  updated_at: string;
}

export interface NewFeed {
  project_id?: string;
  filter_id?: string;
  all?: boolean;
  as: FeedKind;
}

export interface FeedDocument {
  body: string;
  etag: string;
}

export interface FeedsService {
  list(userId: string): Promise<FeedView[]>;
  create(userId: string, input: NewFeed): Promise<FeedView>;
  remove(userId: string, id: string): Promise<void>;
  rotate(userId: string, id: string): Promise<FeedView>;
  /** The document at a public URL's secret; 404 for any secret that is not a feed's now. */
  document(secret: string): Promise<FeedDocument>;
}

const newSecret = (id: string): string => `${id}${randomBytes(32).toString('base64url')}`;
const digest = (s: string): Buffer => createHash('sha256').update(s).digest();
const feedNotFound = () => notFound('feed');

function requireId(value: string, field: string): string {
  if (!isUuid(value)) throw badRequest(`${field} must be an id`, field);
  return value;
}

/** Open todos only: a feed shows what is still to do. */
const isOpen = (item: ItemView): boolean => item.type === 'todo' && !item.is_completed && item.status !== 'archived';

export function createFeedsService(deps: {
  db: Db;
  dialect: DialectName;
  clock: Clock;
  newId: IdGenerator;
  publicUrl: string;
  items: Pick<ItemsService, 'list' | 'inProject'>;
  projects: Pick<ProjectsService, 'get'>;
  filters: Pick<FiltersService, 'get' | 'query'>;
  objects: Pick<ObjectStore, 'ofItems'>;
}): FeedsService {
  const { db } = deps;
  const base = deps.publicUrl.replace(/\/+$/, '');

  const toView = (row: FeedRow): FeedView => ({
    id: row.id,
    url: `${base}/feeds/${row.secret}.ics`,
    project_id: row.project_id,
    filter_id: row.filter_id,
    all: row.project_id === null && row.filter_id === null,
    as: row.as_kind,
    created_at: row.created_at,
    updated_at: row.updated_at,
  });

  /** Checks the source exists and is the user's: 404 as for any unknown id. */
  async function source(userId: string, input: NewFeed): Promise<Pick<FeedRow, 'project_id' | 'filter_id'>> {
    const given = [input.project_id !== undefined, input.filter_id !== undefined, input.all === true].filter(Boolean).length;
    if (given !== 1) throw badRequest('give exactly one of project_id, filter_id or all: true', 'project_id');
    if (input.project_id !== undefined) {
      await deps.projects.get(userId, requireId(input.project_id, 'project_id'));
      return { project_id: input.project_id, filter_id: null };
    }
    if (input.filter_id !== undefined) {
      await deps.filters.get(userId, requireId(input.filter_id, 'filter_id'));
      return { project_id: null, filter_id: input.filter_id };
    }
    return { project_id: null, filter_id: null };
  }

  async function collect(next: (cursor: string | undefined) => Promise<{ items: ItemView[]; next_cursor: string | null }>): Promise<ItemView[]> {
    const found: ItemView[] = [];
    let cursor: string | undefined;
    for (let page = 0; page < MAX_PAGES; page += 1) {
      const result = await next(cursor);
      found.push(...result.items.filter(isOpen));
      if (result.next_cursor === null) break;
      cursor = result.next_cursor;
    }
    return found;
  }

  /** The feed's open items and its calendar's name; 404 once its project or filter is gone. */
  async function picked(row: FeedRow, zone: string): Promise<{ name: string; items: ItemView[] }> {
    const user = { id: row.user_id, timezone: zone };
    const query = (cursor: string | undefined) => ({ limit: PAGE, ...(cursor ? { cursor } : {}) });
    try {
      if (row.project_id !== null) {
        const projectId = row.project_id;
        const project = await deps.projects.get(user.id, projectId);
        return { name: project.name, items: await collect((c) => deps.items.inProject(user.id, projectId, query(c))) };
      }
      if (row.filter_id !== null) {
        const filter = await deps.filters.get(user.id, row.filter_id);
        return { name: filter.name, items: await collect((c) => deps.filters.query.items(user, filter.query, query(c))) };
      }
    } catch (error) {
      if (error instanceof AppError && (error.statusCode === 404 || error.statusCode === 400)) throw feedNotFound();
      throw error;
    }
    return { name: 'Capture Inbox', items: await collect((c) => deps.items.list(user.id, query(c))) };
  }

  return {
    async list(userId) {
      return (await findFeeds(db, userId)).map(toView);
    },

    async create(userId, input) {
      const from = await source(userId, input);
      return db.transaction().execute(async (trx) => {
        await lockUser(trx, deps.dialect, userId);
        if ((await countFeeds(trx, userId)) >= MAX_FEEDS) throw badRequest(`at most ${MAX_FEEDS} feeds a user; delete one first`);
        const at = toTimestamp(deps.clock.now());
        const id = deps.newId();
        const row: FeedRow = { id, user_id: userId, secret: newSecret(id), ...from, as_kind: input.as, created_at: at, updated_at: at };
        await insertFeed(trx, row);
        return toView(row);
      });
    },

    async remove(userId, id) {
      if (!isUuid(id) || !(await deleteFeed(db, userId, id))) throw feedNotFound();
    },

    async rotate(userId, id) {
      if (!isUuid(id)) throw feedNotFound();
      if (!(await updateFeedSecret(db, userId, id, newSecret(id), toTimestamp(deps.clock.now())))) throw feedNotFound();
      const row = await findFeed(db, userId, id);
      if (!row) throw feedNotFound();
      return toView(row);
    },

    async document(secret) {
      const id = secret.slice(0, ID_LENGTH);
      const row = isUuid(id) ? await findFeedById(db, id) : undefined;
      // Compared as digests: equal lengths, and the time taken says nothing about the stored secret.
      if (!row || !timingSafeEqual(digest(row.secret), digest(secret))) throw feedNotFound();
      const zone = (await findUserZone(db, row.user_id)) ?? 'UTC';
      const { name, items } = await picked(row, zone);
      let body: string;
      if (row.as_kind === 'events') body = eventsDocument(name, items, zone);
      else
        body = todosDocument(
          name,
          (await deps.objects.ofItems({ id: row.user_id, timezone: zone }, items)).map((o) => o.ics()),
        );
      return { body, etag: `"${digest(body).toString('base64url').slice(0, 27)}"` };
    },
  };
}
