import { paginate } from './pages.js';
import { unwrap, type Api } from './transport.js';
import type { FilterInput, FilterItemsQuery, FilterPatch, Item, ItemPage, SavedFilter } from './types.js';

/**
 * Saved filters (contract "Filters and saved views"). A query that does not parse is an ApiError
 * 400 whose `details[0]` has the `position` where reading failed. For a query without saving it,
 * `items.list({ filter })`.
 */
export function filtersApi(api: Api) {
  const path = (id: string) => ({ path: { id } });
  return {
    /** The user's filters, in their order. */
    list: async (): Promise<SavedFilter[]> => (await unwrap(api.GET('/api/v1/filters'))).filters,
    create: async (input: FilterInput): Promise<SavedFilter> => (await unwrap(api.POST('/api/v1/filters', { body: input }))).filter,
    get: async (id: string): Promise<SavedFilter> => (await unwrap(api.GET('/api/v1/filters/{id}', { params: path(id) }))).filter,
    /** Rename, change the query or colour, or move it (`position`) in the order. */
    update: async (id: string, patch: FilterPatch): Promise<SavedFilter> =>
      (await unwrap(api.PATCH('/api/v1/filters/{id}', { params: path(id), body: patch }))).filter,
    delete: async (id: string): Promise<void> => {
      await unwrap(api.DELETE('/api/v1/filters/{id}', { params: path(id) }));
    },
    /** One page of the items the filter picks: by due date (none last), then newest first. */
    items: (id: string, query: FilterItemsQuery = {}): Promise<ItemPage> => unwrap(api.GET('/api/v1/filters/{id}/items', { params: { ...path(id), query } })),
    itemsAll: (id: string, query: Omit<FilterItemsQuery, 'cursor'> = {}): AsyncGenerator<Item, void, undefined> =>
      paginate((cursor) => unwrap(api.GET('/api/v1/filters/{id}/items', { params: { ...path(id), query: { ...query, ...(cursor ? { cursor } : {}) } } }))),
  };
}
