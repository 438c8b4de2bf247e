import { streamChanges, type StreamOptions } from './live.js';
import { sleep } from './retry.js';
import { unwrap, type Api } from './transport.js';
import type {
  Change,
  ChangePage,
  ChangesQuery,
  CreatedWebhook,
  DeliveriesQuery,
  DeliveryPage,
  ExportDocument,
  ImportDocument,
  ImportResult,
  Webhook,
  WebhookInput,
} from './types.js';

export interface FollowOptions {
  /** Where to start: a `next_cursor` or a change's `cursor` saved earlier (default: the oldest kept change). */
  cursor?: string;
  /** Page size, 1..500 (default 100). */
  limit?: number;
  /** Keep polling once caught up (default true); false ends the iteration at the first page without more. */
  wait?: boolean;
  /** Pause between polls once caught up (default 5 s). */
  pollMs?: number;
  /** Stops the follower (the iteration then throws the signal's reason). */
  signal?: AbortSignal;
}

export function changesApi(api: Api) {
  const list = (query: ChangesQuery = {}): Promise<ChangePage> => unwrap(api.GET('/api/v1/changes', { params: { query } }));
  return {
    /** One page of the change feed, in commit order. */
    list,
    /**
     * Every change from `cursor` on, in commit order. Save `change.cursor` after applying a change
     * and start there next time; a replayed change is harmless.
     */
    async *follow(options: FollowOptions = {}): AsyncGenerator<Change, void, undefined> {
      let cursor = options.cursor;
      for (;;) {
        options.signal?.throwIfAborted();
        const page = await list({ ...(cursor ? { cursor } : {}), ...(options.limit ? { limit: options.limit } : {}) });
        yield* page.changes;
        cursor = page.next_cursor;
        if (page.has_more) continue;
        if (options.wait === false) return;
        await sleep(options.pollMs ?? 5000, options.signal);
      }
    },
    /**
     * The live stream: each change as it is committed (after `cursor`, else from now on). It
     * reconnects with Last-Event-ID and never yields a change twice; save `change.cursor` to resume later.
     */
    stream: (options: StreamOptions = {}): AsyncGenerator<Change, void, undefined> => streamChanges(api, options),
  };
}

export function webhooksApi(api: Api) {
  return {
    list: async (): Promise<Webhook[]> => (await unwrap(api.GET('/api/v1/webhooks'))).webhooks,
    /** The answer carries the signing secret, shown only here. */
    create: (input: WebhookInput): Promise<CreatedWebhook> => unwrap(api.POST('/api/v1/webhooks', { body: input })),
    delete: async (id: string): Promise<void> => {
      await unwrap(api.DELETE('/api/v1/webhooks/{id}', { params: { path: { id } } }));
    },
    deliveries: (id: string, query: DeliveriesQuery = {}): Promise<DeliveryPage> =>
      unwrap(api.GET('/api/v1/webhooks/{id}/deliveries', { params: { path: { id }, query } })),
    redeliver: (id: string, deliveryId: string): Promise<unknown> =>
      unwrap(api.POST('/api/v1/webhooks/{id}/deliveries/{delivery_id}/redeliver', { params: { path: { id, delivery_id: deliveryId } } })),
  };
}

export function transferApi(api: Api) {
  return {
    /** The whole account as the export document. */
    exportJson: (): Promise<ExportDocument> => unwrap(api.GET('/api/v1/export', { params: { query: { format: 'json' } } })) as Promise<ExportDocument>,
    /** The whole account as one GitHub-flavoured Markdown document. */
    exportMarkdown: (): Promise<string> => unwrap<string>(api.GET('/api/v1/export', { params: { query: { format: 'markdown' } }, parseAs: 'text' })),
    /** Imports an export document, or CSV text. */
    import: (document: ImportDocument | string, options: { idempotencyKey?: string } = {}): Promise<ImportResult> =>
      unwrap(
        api.POST('/api/v1/import', {
          body: document as ImportDocument,
          ...(typeof document === 'string' ? { bodySerializer: (body: unknown) => body as string, headers: { 'content-type': 'text/csv' } } : {}),
          params: { header: options.idempotencyKey ? { 'idempotency-key': options.idempotencyKey } : {} },
        }),
      ),
  };
}
