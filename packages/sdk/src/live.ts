import { createParser, type EventSourceMessage } from 'eventsource-parser';
import { ApiError } from './errors.js';
import { sleep } from './retry.js';
import { unwrap, type Api } from './transport.js';
import type { Change } from './types.js';

export interface StreamOptions {
  /** Start after this position (a change's cursor or a `next_cursor`); default: at the newest change. */
  cursor?: string;
  /** Ends the iteration (it then throws the signal's reason). */
  signal?: AbortSignal;
  /** Reconnects in a row that may fail before the iteration throws (default 10). */
  maxReconnects?: number;
  /** Wait before the first reconnect, doubled each failed one up to 30 s (default 1 s). */
  reconnectMs?: number;
}

/** Change ids remembered to drop a repeat (there should be none: the server resumes after Last-Event-ID). */
const SEEN_IDS = 1_000;
const MAX_RECONNECT_MS = 30_000;

/**
 * The live change stream (GET /changes/stream) as an async iterator: every change committed from
 * now (or after `cursor`) on, as it happens. When the connection ends (a server restart, a proxy,
 * the network) it reconnects with Last-Event-ID, so nothing is missed and nothing comes twice.
 * Refusals the server means (401, 403, 410 cursor_expired, 429 too_many_streams) end it with an ApiError.
 */
export async function* streamChanges(api: Api, options: StreamOptions = {}): AsyncGenerator<Change, void, undefined> {
  let last = options.cursor;
  const seen: string[] = [];
  const seenSet = new Set<string>();
  const maxReconnects = options.maxReconnects ?? 10;
  let failures = 0;
  for (;;) {
    options.signal?.throwIfAborted();
    let received = false;
    try {
      const body = await unwrap<ReadableStream<Uint8Array> | null>(
        api.GET('/api/v1/changes/stream', {
          params: { header: last ? { 'last-event-id': last } : {} },
          parseAs: 'stream',
          ...(options.signal ? { signal: options.signal } : {}),
        }),
      );
      if (!body) throw new Error('the stream answered without a body');
      for await (const event of serverSentEvents(body)) {
        if (event.event !== 'change') continue;
        const change = JSON.parse(event.data) as Change;
        if (event.id) last = event.id;
        received = true;
        failures = 0;
        if (seenSet.has(change.id)) continue;
        seenSet.add(change.id);
        seen.push(change.id);
        if (seen.length > SEEN_IDS) seenSet.delete(seen.shift()!);
        yield change;
      }
    } catch (error) {
      if (options.signal?.aborted) throw options.signal.reason;
      if (error instanceof ApiError) throw error;
      if (failures >= maxReconnects) throw error;
    }
    // The stream ended or broke: reconnect after a pause (none after a stream that delivered).
    if (!received) failures += 1;
    if (failures > maxReconnects) throw new Error(`the change stream ended ${failures} times in a row without a change`);
    if (failures > 0) await sleep(Math.min((options.reconnectMs ?? 1_000) * 2 ** (failures - 1), MAX_RECONNECT_MS), options.signal);
  }
}

/** The events of an SSE body, parsed by eventsource-parser as the bytes arrive. */
async function* serverSentEvents(body: ReadableStream<Uint8Array>): AsyncGenerator<EventSourceMessage, void, undefined> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let ready: EventSourceMessage[] = [];
  const parser = createParser({ onEvent: (event) => ready.push(event) });
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return;
      parser.feed(decoder.decode(value, { stream: true }));
      const events = ready;
      ready = [];
      yield* events;
    }
  } finally {
    await reader.cancel().catch(() => undefined);
  }
}
