import { Socket } from 'node:net';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

export interface DrainLimits {
  /** Bytes of an unread body read and discarded after the answer, at most. */
  maxBytes: number;
  /** How long the rest of the body may take to arrive, at most. */
  maxMs: number;
}

/** Enough for the rest of a refused 10 MiB upload over a slow phone link; more is cut off. */
const DEFAULT_DRAIN: DrainLimits = Object.freeze({ maxBytes: 32 * 1024 * 1024, maxMs: 15_000 });

/**
 * An answer given before the body was read in full (413, 401, 415, ...) must still reach a client
 * that is busy sending: closing the connection under it makes its next write fail (EPIPE, reset)
 * before it ever reads the answer. So the connection is not closed after such an answer; the rest
 * of the body is read and thrown away, bounded in bytes and time, past which the connection is
 * cut after all (the answer has been on the wire for that long).
 */
export function installBodyDrain(app: FastifyInstance, limits: DrainLimits = DEFAULT_DRAIN): void {
  // Callback hooks: they run for every request, and a promise each shows in a small request's cost.
  app.addHook('onSend', (request, reply, payload, done) => {
    if (stillSending(request)) keepOpen(reply);
    done(null, payload);
  });
  const keepOpen = (reply: FastifyReply): void => {
    // Node closes the socket right after an answer marked `Connection: close` (by us, or because
    // the client asked for it); keeping it open is what lets the rest of the body be read.
    if (String(reply.getHeader('connection') ?? '').toLowerCase() === 'close') reply.removeHeader('connection');
    reply.raw.shouldKeepAlive = true;
  };

  // onResponse runs after Node's own response-finished handling, which may already have resumed
  // the body ("dumped": its bytes are dropped without events); this adds the bounds Node lacks.
  // Bytes are counted on the socket, which sees them whether or not the body is dumped.
  app.addHook('onResponse', (request, _reply, done) => {
    if (stillSending(request)) drain(request);
    done();
  });
  const drain = (request: FastifyRequest): void => {
    const body = request.raw;
    const socket = body.socket;
    const startBytes = socket.bytesRead;
    const stop = () => {
      clearTimeout(deadline);
      clearInterval(meter);
      // A keep-alive connection outlives many requests: a listener left on it per answer piled up.
      socket.removeListener('close', stop);
    };
    const cut = () => {
      stop();
      socket.destroy();
    };
    const deadline = setTimeout(cut, limits.maxMs);
    const meter = setInterval(() => {
      if (body.complete) stop();
      else if (socket.bytesRead - startBytes > limits.maxBytes) cut();
    }, METER_INTERVAL_MS);
    deadline.unref();
    meter.unref();
    body.once('end', () => {
      stop();
      // The client asked to close: now that it has sent everything, closing cannot cut it off.
      if (
        String(request.headers.connection ?? '')
          .toLowerCase()
          .includes('close')
      )
        socket.end();
    });
    body.once('close', stop);
    socket.once('close', stop);
    body.unpipe();
    body.resume();
  };
}

/**
 * A body still arriving over a real connection (injected requests have none to keep open). A
 * request without a body (no Content-Length above 0, no Transfer-Encoding) has nothing to drain,
 * even when it is answered before Node marked it complete (a 401 from a synchronous hook).
 */
const stillSending = (request: FastifyRequest): boolean =>
  hasBody(request) && !request.raw.complete && !request.raw.destroyed && request.raw.socket instanceof Socket;

const hasBody = (request: FastifyRequest): boolean => {
  const length = request.headers['content-length'];
  return request.headers['transfer-encoding'] !== undefined || (length !== undefined && length !== '0');
};

/** How often the bytes read are compared with the bound (a fast client overshoots by what arrives meanwhile). */
const METER_INTERVAL_MS = 50;
