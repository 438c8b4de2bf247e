import { createHash } from 'node:crypto';
import type { IncomingMessage } from 'node:http';

/**
 * Hashes a request body as it is read, whoever reads it: Fastify's parsers and @fastify/multipart
 * (which pipes the raw request into busboy itself, past any preParsing stream) all receive the body
 * as 'data' events of the raw request, in flowing and paused mode alike. So the hash sees every byte
 * once, as it arrives, and nothing is buffered for it. Answers the SHA-256 (hex) of what was read.
 */
export function observeBody(raw: IncomingMessage): () => string {
  const hash = createHash('sha256');
  const emit = raw.emit.bind(raw);
  raw.emit = ((event: string | symbol, ...args: unknown[]): boolean => {
    if (event === 'data') {
      const chunk = args[0];
      if (typeof chunk === 'string' || Buffer.isBuffer(chunk)) hash.update(chunk);
    }
    return emit(event, ...args);
  }) as IncomingMessage['emit'];
  return () => hash.copy().digest('hex');
}

/** The request a key was first used with: method, path and the body's hash. */
export function requestFingerprint(method: string, url: string, bodyHash: string): string {
  const path = url.split('?', 1)[0]!;
  return createHash('sha256').update(`${method}\n${path}\n${bodyHash}`).digest('hex');
}
