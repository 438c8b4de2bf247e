import { createRequire } from 'node:module';
import { pino, type Logger, type LoggerOptions } from 'pino';

/**
 * Never logged whatever a later change adds to a log line: keys, cookies, passwords. Fastify's
 * request serializer logs no headers today; these paths keep it so if someone logs a request whole.
 */
const REDACTED_PATHS = [
  'req.headers.authorization',
  'req.headers.cookie',
  'res.headers["set-cookie"]',
  'headers.authorization',
  'headers.cookie',
  'password',
  '*.password',
  'token',
  '*.token',
];

/** pino-pretty is a dev dependency: a production install (`npm ci --omit=dev`) does not have it. */
function prettyAvailable(): boolean {
  try {
    createRequire(import.meta.url).resolve('pino-pretty');
    return true;
  } catch {
    return false;
  }
}

/**
 * JSON lines for log collectors; human-readable lines when a person watches the terminal and
 * pino-pretty is installed. `pretty` overrides the terminal check (tests).
 */
export function createLogger(level: string, pretty: boolean = process.stdout.isTTY === true): Logger {
  const options: LoggerOptions = { level, redact: { paths: REDACTED_PATHS, censor: '[redacted]' } };
  if (pretty && prettyAvailable()) {
    return pino({ ...options, transport: { target: 'pino-pretty', options: { translateTime: 'SYS:HH:MM:ss.l', ignore: 'pid,hostname' } } });
  }
  // Written asynchronously: under load many lines go out in one write instead of one write each;
  // pino flushes what is pending when the process exits.
  const destination = pino.destination({ sync: false });
  const logger = pino(options, destination);
  // The same lines into the same stream, without the redaction pass (see fixedFieldLogger).
  unredacted.set(logger, pino({ level }, destination));
  return logger;
}

const unredacted = new WeakMap<Logger, Logger>();

/**
 * For lines whose fields are fixed and hold no secret (the request log line): a logger writing to
 * the same place as `logger`, but without redaction, which costs about 3 µs a line because the
 * wildcard paths make pino copy and walk every object it logs. A logger that createLogger did not
 * make (a test's) is answered itself.
 */
export const fixedFieldLogger = (logger: Logger): Logger => unredacted.get(logger) ?? logger;
