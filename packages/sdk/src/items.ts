import { batchesApi } from './batches.js';
import { paginate } from './pages.js';
import { conditional, unwrap, type Api } from './transport.js';
import type {
  BulkInput,
  BulkResult,
  CaptureBatchInput,
  CaptureInput,
  CapturedItem,
  Item,
  ItemPage,
  ItemPatch,
  ListItemsQuery,
  Page,
  PageQuery,
  QuickAdd,
  SearchQuery,
  SplitItem,
  SplitPreview,
} from './types.js';

/** Options of a change to one item: `ifMatch` makes it conditional (412 precondition_failed when the item changed). */
export interface ChangeOptions {
  ifMatch?: string | undefined;
  /** Overrides the Idempotency-Key the client would pick (send the same one to repeat an operation). */
  idempotencyKey?: string | undefined;
}

/** Reads the array-plus-X-Next-Cursor shape of project items and children as a page. */
export async function arrayPage<T>(pending: Promise<{ data?: T[]; error?: unknown; response: Response }>): Promise<Page<T>> {
  const answer = await pending;
  const items = await unwrap(Promise.resolve(answer));
  return { items, next_cursor: answer.response.headers.get('x-next-cursor') };
}

export function itemsApi(api: Api) {
  const path = (id: string) => ({ path: { id } });
  return {
    ...batchesApi(api),
    /** POST /capture: the first line becomes the title. */
    capture: (input: CaptureInput, options: { idempotencyKey?: string } = {}): Promise<CapturedItem> =>
      unwrap(api.POST('/api/v1/capture', { body: input, params: { header: conditional(options) } })),
    /** POST /parse: what a capture with `parse: true` would understand in the text (#project, @tag, dates, every …); stores nothing. */
    parse: async (text: string): Promise<QuickAdd> => (await unwrap(api.POST('/api/v1/parse', { body: { text } }))) as QuickAdd,
    /**
     * POST /parse with split: the brain-dump preview, the items captureBatch would store for the text; stores nothing.
     * `organize` (Pro) lets an instance with the OpenAI-compatible engine split prose; captureBatch with the same
     * text and `organize: true` then stores that split.
     */
    parseSplit: async (text: string, options: { organize?: boolean } = {}): Promise<SplitItem[]> =>
      ((await unwrap(api.POST('/api/v1/parse', { body: { text, split: true, ...(options.organize ? { organize: true } : {}) } }))) as SplitPreview).items,
    /** POST /capture/batch: a list (one item a line, `[x]` done, `Heading:` over its lines) captured as items at once, exactly as parseSplit previews it. */
    captureBatch: async (input: CaptureBatchInput, options: { idempotencyKey?: string } = {}): Promise<Item[]> =>
      (await unwrap(api.POST('/api/v1/capture/batch', { body: input, params: { header: conditional(options) } }))).items,
    /** One page of GET /items (newest first; with `since`, oldest `updated_at` first). */
    list: (query: ListItemsQuery = {}): Promise<ItemPage> => unwrap(api.GET('/api/v1/items', { params: { query } })),
    /** Every item, page after page. */
    listAll: (query: Omit<ListItemsQuery, 'cursor'> = {}): AsyncGenerator<Item, void, undefined> =>
      paginate((cursor) => unwrap(api.GET('/api/v1/items', { params: { query: { ...query, ...(cursor ? { cursor } : {}) } } }))),
    get: (id: string): Promise<Item> => unwrap(api.GET('/api/v1/items/{id}', { params: path(id) })),
    update: (id: string, patch: ItemPatch, options: Pick<ChangeOptions, 'ifMatch'> = {}): Promise<Item> =>
      unwrap(api.PATCH('/api/v1/items/{id}', { params: { ...path(id), header: conditional(options) }, body: patch })),
    /** Deletes the item and its subtasks. */
    delete: async (id: string, options: Pick<ChangeOptions, 'ifMatch'> = {}): Promise<void> => {
      await unwrap(api.DELETE('/api/v1/items/{id}', { params: { ...path(id), header: conditional(options) } }));
    },
    /** Flips is_completed. To set it, use `update(id, { status: 'done' })`. */
    toggle: (id: string, options: ChangeOptions = {}): Promise<Item> =>
      unwrap(api.POST('/api/v1/items/{id}/toggle', { params: { ...path(id), header: conditional(options) } })),
    archive: (id: string, options: ChangeOptions = {}): Promise<Item> =>
      unwrap(api.POST('/api/v1/items/{id}/archive', { params: { ...path(id), header: conditional(options) } })),
    unarchive: (id: string, options: ChangeOptions = {}): Promise<Item> =>
      unwrap(api.POST('/api/v1/items/{id}/unarchive', { params: { ...path(id), header: conditional(options) } })),
    children: (id: string, query: PageQuery = {}): Promise<Page<Item>> => arrayPage(api.GET('/api/v1/items/{id}/children', { params: { ...path(id), query } })),
    /** One page of search results, newest first. */
    search: (query: SearchQuery = {}): Promise<ItemPage> => unwrap(api.GET('/api/v1/items/search', { params: { query } })),
    /** Every search result, page after page. */
    searchAll: (query: Omit<SearchQuery, 'cursor'> = {}): AsyncGenerator<Item, void, undefined> =>
      paginate((cursor) => unwrap(api.GET('/api/v1/items/search', { params: { query: { ...query, ...(cursor ? { cursor } : {}) } } }))),
    bulk: (input: BulkInput, options: { idempotencyKey?: string } = {}): Promise<BulkResult> =>
      unwrap(api.POST('/api/v1/items/bulk', { body: input, params: { header: conditional(options) } })),
    /** Runs the organizer on an item (Pro). */
    organize: (id: string, options: { idempotencyKey?: string } = {}): Promise<CapturedItem> =>
      unwrap(api.POST('/api/v1/items/{id}/organize', { params: { ...path(id), header: conditional(options) } })),
  };
}
