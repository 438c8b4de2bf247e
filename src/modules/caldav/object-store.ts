import type { Db } from '../../db/schema.js';
import { AppError } from '../../errors.js';
import { isUuid } from '../../lib/ids.js';
import type { FiltersService } from '../filters/filters.service.js';
import { itemEtag } from '../items/item-etag.js';
import type { ItemLoader } from '../items/item-loader.js';
import type { ItemView } from '../items/item-view.js';
import type { ItemsService } from '../items/items.service.js';
import { checkRecurrence } from '../recurrence/rrule-subset.js';
import type { AuthUser } from '../../schemas/auth-user.js';
import { findObjectsByItems, findObjectsByName, type ObjectRow } from './caldav.repository.js';
import { holds, type Collection } from './collections.js';
import { renderObject } from './ical-write.js';

/*
 * Calendar objects as the service holds them: an item, the file name it is served at, the UID the
 * client knows it by, and its iCalendar text (the kept text overlaid with the item, made on demand).
 */

export interface DavObject {
  item: ItemView;
  name: string;
  uid: string;
  etag: string;
  /** The object's iCalendar text, rendered when asked (PROPFIND of etags never renders). */
  ics(): string;
}

/** Whether a rule is outside the service's RRULE subset (then it is kept verbatim, read-only). */
export function isForeignRule(rule: string): boolean {
  try {
    checkRecurrence({ rule, from: 'due' });
    return false;
  } catch {
    return true;
  }
}

/** One query of findObjectsByItems a page (its chunk is 500), and a first byte sooner. */
const PAGE = 500;
/** A saved filter's pages are smaller: its compiled query may sort and join. */
const FILTER_PAGE = 200;
/** Ids per IN list: well under SQLite's and PostgreSQL's parameter limits. */
const ID_CHUNK = 500;
/** 1,000 pages of 500: more items than any account holds; the loop is bounded all the same. */
const MAX_PAGES = 1000;

export interface ObjectStore {
  /** Every object of a collection. */
  list(user: AuthUser, collection: Collection): Promise<DavObject[]>;
  /** The objects of a collection a page at a time, so a listing of 10,000 is never held whole (a streamed REPORT). */
  pages(user: AuthUser, collection: Collection): AsyncGenerator<DavObject[]>;
  /** Tells the collection's members: a project's todos, every note, or what a saved filter's query picks (read once). */
  membership(user: AuthUser, collection: Collection): Promise<(item: ItemView) => boolean>;
  /** The objects of these items (already loaded), with their rows (a feed asks with the user's id and zone only). */
  ofItems(user: Pick<AuthUser, 'id' | 'timezone'>, items: readonly ItemView[]): Promise<DavObject[]>;
  /** The object at `name` in the collection, or undefined. */
  find(user: AuthUser, collection: Collection, name: string): Promise<DavObject | undefined>;
  /** An item by id, or undefined (missing, malformed or another user's). */
  item(user: AuthUser, id: string): Promise<ItemView | undefined>;
  /** The user's items among `ids` (two queries a chunk of 500, not one a item); the others are left out. */
  items(user: AuthUser, ids: readonly string[]): Promise<ItemView[]>;
}

export const defaultName = (itemId: string): string => `${itemId}.ics`;

/** A filter collection serves todos: the component set of a task list (a note is in `notes`). */
const isTodo = (item: ItemView): boolean => item.type === 'todo';

export function createObjectStore(deps: {
  db: Db;
  items: Pick<ItemsService, 'get' | 'list' | 'inProject'>;
  loader: Pick<ItemLoader, 'rows' | 'views'>;
  filters: Pick<FiltersService, 'query'>;
}): ObjectStore {
  const { db, items } = deps;

  async function item(user: AuthUser, id: string): Promise<ItemView | undefined> {
    if (!isUuid(id)) return undefined;
    try {
      return await items.get(user.id, id);
    } catch (error) {
      if (error instanceof AppError && error.statusCode === 404) return undefined;
      throw error;
    }
  }

  /** One page of a collection's candidates, read with the keyset pager of the service that serves it. */
  function readPage(user: AuthUser, collection: Collection, cursor: string | undefined) {
    if (collection.filter !== null) return deps.filters.query.items(user, collection.filter.query, { limit: FILTER_PAGE, ...(cursor ? { cursor } : {}) });
    const query = { limit: PAGE, ...(cursor ? { cursor } : {}) };
    return collection.projectId === null ? items.list(user.id, query) : items.inProject(user.id, collection.projectId, query);
  }

  /**
   * A collection's members a page at a time: a project's todos, every note, or the todos a saved
   * filter's query picks (a query that no longer reads, a project it named being gone, picks none).
   */
  async function* itemPages(user: AuthUser, collection: Collection): AsyncGenerator<ItemView[]> {
    const member = collection.filter !== null ? isTodo : (i: ItemView) => holds(collection, i);
    let cursor: string | undefined;
    for (let page = 0; page < MAX_PAGES; page += 1) {
      let result;
      try {
        result = await readPage(user, collection, cursor);
      } catch (error) {
        if (collection.filter !== null && error instanceof AppError && error.statusCode === 400) return;
        throw error;
      }
      const members = result.items.filter(member);
      if (members.length > 0) yield members;
      if (result.next_cursor === null) return;
      cursor = result.next_cursor;
    }
  }

  async function allItems(user: AuthUser, collection: Collection): Promise<ItemView[]> {
    const found: ItemView[] = [];
    for await (const page of itemPages(user, collection)) found.push(...page);
    return found;
  }

  async function ofItems(user: Pick<AuthUser, 'id' | 'timezone'>, list: readonly ItemView[]): Promise<DavObject[]> {
    const parentIds = [...new Set(list.flatMap((i) => (i.parent_id ? [i.parent_id] : [])))];
    const rows = await findObjectsByItems(db, user.id, [...new Set([...list.map((i) => i.id), ...parentIds])]);
    const rowOf = new Map<string, ObjectRow>(rows.map((r) => [r.item_id, r]));
    return list.map((it) => {
      const row = rowOf.get(it.id);
      const uid = row?.uid ?? it.id;
      const parentUid = it.parent_id === null ? null : (rowOf.get(it.parent_id)?.uid ?? it.parent_id);
      return {
        item: it,
        name: row?.name ?? defaultName(it.id),
        uid,
        etag: itemEtag(it),
        ics: () => renderObject({ item: it, uid, parentUid, kept: row?.ics ?? null, zone: user.timezone, ruleIsForeign: isForeignRule }),
      };
    });
  }

  async function membership(user: AuthUser, collection: Collection): Promise<(item: ItemView) => boolean> {
    if (collection.filter === null) return (i) => holds(collection, i);
    const ids = new Set((await allItems(user, collection)).map((i) => i.id));
    return (i) => ids.has(i.id);
  }

  async function itemsByIds(user: AuthUser, ids: readonly string[]): Promise<ItemView[]> {
    const valid = ids.filter(isUuid);
    const found: ItemView[] = [];
    for (let i = 0; i < valid.length; i += ID_CHUNK) {
      found.push(...(await deps.loader.views(db, user.id, await deps.loader.rows(db, user.id, valid.slice(i, i + ID_CHUNK)))));
    }
    return found;
  }

  return {
    item,
    items: itemsByIds,
    ofItems,
    membership,
    list: async (user, collection) => ofItems(user, await allItems(user, collection)),

    async *pages(user, collection) {
      for await (const page of itemPages(user, collection)) yield await ofItems(user, page);
    },

    async find(user, collection, name) {
      const rows = await findObjectsByName(db, user.id, name);
      const id = name.endsWith('.ics') ? name.slice(0, -4) : '';
      if (rows.length === 0 && !isUuid(id)) return undefined;
      const isMember = await membership(user, collection);
      for (const row of rows) {
        const found = await item(user, row.item_id);
        if (found && isMember(found)) return (await ofItems(user, [found]))[0];
      }
      // An item made elsewhere is at {id}.ics until a client PUTs it somewhere else.
      const found = await item(user, id);
      if (!found || !isMember(found)) return undefined;
      const [object] = await ofItems(user, [found]);
      return object?.name === name ? object : undefined;
    },
  };
}
