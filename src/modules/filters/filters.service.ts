import type { DialectName } from '../../db/create-db.js';
import type { Db, Executor } from '../../db/schema.js';
import { badRequest, notFound } from '../../errors.js';
import type { Clock } from '../../lib/clock.js';
import { isUuid, type IdGenerator } from '../../lib/ids.js';
import { toTimestamp } from '../../lib/timestamps.js';
import { FILTER_NAME_MAX, FILTER_QUERY_MAX, type SavedFilterView } from '../../schemas/filter.js';
import type { EventsService, FilterEventName } from '../events/events.service.js';
import type { FilterItems, FilterItemsQuery, FilterUser, ItemPage } from './filter-items.js';
import { parseFilter } from './language/parse.js';
import {
  deleteSavedFilter,
  findHeldFilterIds,
  findSavedFilter,
  findSavedFilters,
  insertSavedFilters,
  lockUser,
  updateSavedFilter,
  type SavedFilterRow,
} from './saved-filters.repository.js';

/** The contract's limit: the 101st filter is 400. */
const MAX_FILTERS = 100;

export interface NewFilter {
  name: string;
  query: string;
  color?: string | null;
}

export interface FilterPatch {
  name?: string;
  query?: string;
  color?: string | null;
  /** Moves the filter to this place in the user's order (0 first; past the end is last). */
  position?: number;
}

/** A filter as the export writes it and the import reads it. */
export type ExportedFilter = Pick<SavedFilterView, 'id' | 'name' | 'query' | 'color' | 'position'>;

export interface FiltersService {
  list(userId: string): Promise<SavedFilterView[]>;
  get(userId: string, id: string): Promise<SavedFilterView>;
  create(user: FilterUser, input: NewFilter): Promise<SavedFilterView>;
  update(user: FilterUser, id: string, patch: FilterPatch): Promise<SavedFilterView>;
  remove(userId: string, id: string): Promise<void>;
  /** GET /filters/{id}/items: exactly GET /items?filter=<its query>. */
  items(user: FilterUser, id: string, q: FilterItemsQuery): Promise<ItemPage>;
  /** GET /items?filter=: the items a query picks. */
  query: FilterItems;
  /** The export's `filters`, in the user's order. */
  exportFilters(db: Executor, userId: string): Promise<ExportedFilter[]>;
  /** The import's filters, in its transaction: ids the user holds are skipped, and none past the limit. Answers how many were added. */
  importFilters(trx: Executor, userId: string, filters: readonly ExportedFilter[]): Promise<number>;
}

const toView = (row: SavedFilterRow): SavedFilterView => ({
  id: row.id,
  name: row.name,
  query: row.query,
  color: row.color,
  position: Number(row.position),
  created_at: row.created_at,
  updated_at: row.updated_at,
});

function cleanName(raw: string): string {
  const name = raw.trim();
  const length = Array.from(name).length;
  if (length < 1 || length > FILTER_NAME_MAX) throw badRequest(`name must be 1 to ${FILTER_NAME_MAX} characters`, 'name');
  return name;
}

function cleanQuery(raw: string): string {
  const query = raw.trim();
  if (query.length < 1 || query.length > FILTER_QUERY_MAX) throw badRequest(`query must be 1 to ${FILTER_QUERY_MAX} characters`, 'query');
  return query;
}

const cleanColor = (color: string | null | undefined): string | null => (color ? color.toLowerCase() : null);

export function createFiltersService(deps: {
  db: Db;
  dialect: DialectName;
  clock: Clock;
  newId: IdGenerator;
  events: EventsService;
  filterItems: FilterItems;
}): FiltersService {
  const { db, events, filterItems } = deps;

  async function requireRow(ex: Executor, userId: string, id: string): Promise<SavedFilterRow> {
    const row = isUuid(id) ? await findSavedFilter(ex, userId, id) : undefined;
    if (!row) throw notFound('filter');
    return row;
  }

  const record = (trx: Executor, userId: string, name: FilterEventName, row: SavedFilterRow) => events.recordFilter(trx, userId, name, toView(row));

  /** Checks a query as GET /items?filter= reads it: a 400 names the field `query` too, so a form can show it. */
  async function checkQuery(user: FilterUser, raw: string): Promise<string> {
    const query = cleanQuery(raw);
    await filterItems.check(user, query);
    return query;
  }

  return {
    query: filterItems,

    async list(userId) {
      return (await findSavedFilters(db, userId)).map(toView);
    },

    async get(userId, id) {
      return toView(await requireRow(db, userId, id));
    },

    async create(user, input) {
      const name = cleanName(input.name);
      const query = await checkQuery(user, input.query);
      return db.transaction().execute(async (trx) => {
        await lockUser(trx, deps.dialect, user.id);
        const existing = await findSavedFilters(trx, user.id);
        if (existing.length >= MAX_FILTERS) throw badRequest(`at most ${MAX_FILTERS} saved filters a user; delete one first`);
        const at = toTimestamp(deps.clock.now());
        const position = existing.reduce((max, f) => Math.max(max, Number(f.position) + 1), 0);
        const row: SavedFilterRow = {
          id: deps.newId(),
          user_id: user.id,
          name,
          query,
          color: cleanColor(input.color),
          position,
          created_at: at,
          updated_at: at,
        };
        await insertSavedFilters(trx, [row]);
        await record(trx, user.id, 'filter.created', row);
        return toView(row);
      });
    },

    async update(user, id, patch) {
      const name = patch.name === undefined ? undefined : cleanName(patch.name);
      const query = patch.query === undefined ? undefined : await checkQuery(user, patch.query);
      return db.transaction().execute(async (trx) => {
        await lockUser(trx, deps.dialect, user.id);
        const row = await requireRow(trx, user.id, id);
        const at = toTimestamp(deps.clock.now());
        const changed: SavedFilterRow = {
          ...row,
          ...(name === undefined ? {} : { name }),
          ...(query === undefined ? {} : { query }),
          ...(patch.color === undefined ? {} : { color: cleanColor(patch.color) }),
          updated_at: at,
        };
        if (patch.position !== undefined) {
          // Renumber the whole order 0..n-1 with this one at its new place; each other filter that moves is changed too.
          const others = (await findSavedFilters(trx, user.id)).filter((f) => f.id !== id);
          const place = Math.min(patch.position, others.length);
          const order = [...others.slice(0, place), changed, ...others.slice(place)];
          for (const [i, f] of order.entries()) {
            if (f.id === id) {
              changed.position = i;
              continue;
            }
            if (Number(f.position) === i) continue;
            const moved = { ...f, position: i, updated_at: at };
            await updateSavedFilter(trx, user.id, f.id, { position: i, updated_at: at });
            await record(trx, user.id, 'filter.updated', moved);
          }
        }
        const { name: n, query: q, color, position } = changed;
        await updateSavedFilter(trx, user.id, id, { name: n, query: q, color, position, updated_at: at });
        await record(trx, user.id, 'filter.updated', changed);
        return toView(changed);
      });
    },

    async remove(userId, id) {
      await db.transaction().execute(async (trx) => {
        const row = await requireRow(trx, userId, id);
        await deleteSavedFilter(trx, userId, id);
        await record(trx, userId, 'filter.deleted', row);
      });
    },

    async items(user, id, q) {
      const row = await requireRow(db, user.id, id);
      return filterItems.items(user, row.query, q);
    },

    async exportFilters(ex, userId) {
      return (await findSavedFilters(ex, userId)).map(({ id, name, query, color, position }) => ({ id, name, query, color, position: Number(position) }));
    },

    async importFilters(trx, userId, filters) {
      const held = await findHeldFilterIds(
        trx,
        userId,
        filters.map((f) => f.id),
      );
      const existing = await findSavedFilters(trx, userId);
      const room = Math.max(0, MAX_FILTERS - existing.length);
      const at = toTimestamp(deps.clock.now());
      let next = existing.reduce((max, f) => Math.max(max, Number(f.position) + 1), 0);
      const seen = new Set<string>();
      const rows: SavedFilterRow[] = [];
      for (const f of [...filters].sort((a, b) => a.position - b.position)) {
        // A query this service cannot read (a hand-edited document) would only ever answer 400: left out.
        if (held.has(f.id) || seen.has(f.id) || rows.length >= room || !parseFilter(f.query).ok) continue;
        seen.add(f.id);
        rows.push({ id: f.id, user_id: userId, name: f.name, query: f.query, color: cleanColor(f.color), position: next++, created_at: at, updated_at: at });
      }
      await insertSavedFilters(trx, rows);
      for (const row of rows) await record(trx, userId, 'filter.created', row);
      return rows.length;
    },
  };
}
