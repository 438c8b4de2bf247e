import { request, type IncomingMessage } from 'node:http';
import { createParser, type EventSourceMessage } from 'eventsource-parser';
import { waitFor } from './wait.js';

/** An open text/event-stream response as a test sees it: its events, comments and end. */
export interface SseReader {
  status: number;
  headers: IncomingMessage['headers'];
  /** The body when the answer was not a stream (an error as JSON). */
  body: string;
  events: EventSourceMessage[];
  comments: string[];
  ended: boolean;
  /** Waits until at least `n` events have arrived (bounded by waitFor's timeout). */
  waitForEvents(n: number, timeoutMs?: number): Promise<EventSourceMessage[]>;
  waitForEnd(timeoutMs?: number): Promise<void>;
  close(): void;
}

/** GET on a real socket (inject waits for the end of a response, which a stream never reaches). */
export function openSse(url: string, headers: Record<string, string> = {}): Promise<SseReader> {
  return new Promise((resolve, reject) => {
    const req = request(url, { headers: { accept: 'text/event-stream', ...headers } }, (res) => {
      const reader: SseReader = {
        status: res.statusCode ?? 0,
        headers: res.headers,
        body: '',
        events: [],
        comments: [],
        ended: false,
        waitForEvents: (n, timeoutMs = 5_000) =>
          waitFor(() => (reader.events.length >= n ? reader.events : undefined), { timeoutMs, what: `${n} events (have ${reader.events.length})` }),
        waitForEnd: (timeoutMs = 5_000) => waitFor(() => (reader.ended ? true : undefined), { timeoutMs, what: 'the stream to end' }).then(() => undefined),
        close: () => req.destroy(),
      };
      const parser = createParser({
        onEvent: (event) => reader.events.push(event),
        onComment: (comment) => reader.comments.push(comment),
      });
      res.setEncoding('utf8');
      const isStream = String(res.headers['content-type'] ?? '').startsWith('text/event-stream');
      res.on('data', (chunk: string) => {
        if (isStream) parser.feed(chunk);
        else reader.body += chunk;
      });
      const end = () => {
        reader.ended = true;
      };
      res.on('end', end);
      res.on('close', end);
      res.on('error', end);
      resolve(reader);
    });
    req.on('error', reject);
    req.end();
  });
}
