import { paginate } from './pages.js';
import { conditional, unwrap, type Api } from './transport.js';
import type { BulkInput, BulkResult, Item, ItemPage, ItemPatch } from './types.js';

/** The most ids one batch takes (the API's bulk limit); more is a 400 that changes nothing. */
export const MAX_BATCH_IDS = 100;

/** One id's outcome in a batch: `ok`, or the API's error code and message (`not_found` for an id that is not yours). */
export interface BatchOutcome {
  id: string;
  ok: boolean;
  error?: string;
  message?: string;
}

export interface CompletedQuery {
  /** ISO 8601; default: seven days ago. */
  since?: string;
  limit?: number;
  cursor?: string;
}

/**
 * A bulk answer per id, in the order the ids were given, each id once (the API counts a repeated id
 * once too).
 */
export function outcomesOf(ids: readonly string[], result: BulkResult): BatchOutcome[] {
  const failed = new Map(result.failures.map((f) => [f.id, f]));
  return [...new Set(ids)].map((id) => {
    const failure = failed.get(id);
    return failure ? { id, ok: false, error: failure.error, message: failure.message } : { id, ok: true };
  });
}

type Options = { idempotencyKey?: string };

/** Changes to many items in one request each (POST /items/bulk): 1..100 ids, the same change to each. */
export function batchesApi(api: Api) {
  const bulk = (body: BulkInput, options: Options): Promise<BulkResult> =>
    unwrap(api.POST('/api/v1/items/bulk', { body, params: { header: conditional(options) } }));
  return {
    /** Sets is_completed on each id (never flips): repeating it is safe. */
    completeMany: (ids: string[], done = true, options: Options = {}): Promise<BulkResult> =>
      bulk({ op: 'toggle', ids, payload: { is_completed: done } }, options),
    /** PATCH's fields applied to each id (each with PATCH's checks and events); an id PATCH refuses fails alone. */
    updateMany: (ids: string[], patch: ItemPatch, options: Options = {}): Promise<BulkResult> => bulk({ op: 'update', ids, payload: patch }, options),
    archiveMany: (ids: string[], options: Options = {}): Promise<BulkResult> => bulk({ op: 'archive', ids }, options),
    /** One page of completed items, the latest completion first (GET /items/completed). */
    completed: (query: CompletedQuery = {}): Promise<ItemPage> => unwrap(api.GET('/api/v1/items/completed', { params: { query } })),
    /** Every completed item since `since`, page after page. */
    completedAll: (query: Omit<CompletedQuery, 'cursor'> = {}): AsyncGenerator<Item, void, undefined> =>
      paginate((cursor) => unwrap(api.GET('/api/v1/items/completed', { params: { query: { ...query, ...(cursor ? { cursor } : {}) } } }))),
  };
}
