import { pino, type Logger } from 'pino';
import { describe, expect, it } from 'vitest';
import { createLogger, fixedFieldLogger } from '../../src/lib/logger.js';
import { LazyRequestLogger } from '../../src/plugins/lazy-request-logger.js';
import { capturingLogger } from '../helpers/log-capture.js';

/* The two loggers a request's own lines go through (src/plugins/lazy-request-logger.ts, src/lib/logger.ts). */
describe('request loggers', () => {
  it("makes a request's child logger only when the request logs, bound to its id", () => {
    const { logger, lines } = capturingLogger();
    let children = 0;
    const parent = Object.assign(Object.create(logger) as Logger, {
      child: (...args: Parameters<Logger['child']>) => {
        children += 1;
        return logger.child(...args);
      },
    });
    const log = new LazyRequestLogger(parent, { reqId: 'r-1' }, {});
    expect(log.level).toBe('info');
    log.debug('not at info');
    expect(children).toBe(1);
    const quiet = new LazyRequestLogger(parent, { reqId: 'r-2' }, {});
    expect(quiet.level).toBe('info');
    expect(children).toBe(1);
    log.error({ err: new Error('boom') }, 'request failed');
    log.warn('careful');
    expect(children).toBe(1);
    expect(lines.map((l) => [l.reqId, l.msg])).toEqual([
      ['r-1', 'request failed'],
      ['r-1', 'careful'],
    ]);
    expect(lines[0]?.err).toMatchObject({ message: 'boom' });
  });

  it("answers the level a route's log level gives its child, before and after the child exists", () => {
    const { logger } = capturingLogger();
    const log = new LazyRequestLogger(logger, { reqId: 'r' }, { level: 'warn' });
    expect(log.level).toBe('warn');
    log.info('dropped');
    expect(log.level).toBe('warn');
    log.level = 'error';
    expect(log.level).toBe('error');
  });

  it("writes fixed-field lines into the same stream as the service's logger, at its level", () => {
    const logger = createLogger('warn', false);
    const lines = fixedFieldLogger(logger);
    expect(lines).not.toBe(logger);
    expect(lines.level).toBe('warn');
    expect((lines as unknown as Record<symbol, unknown>)[pino.symbols.streamSym]).toBe((logger as unknown as Record<symbol, unknown>)[pino.symbols.streamSym]);
  });

  it('answers a logger it did not make with that logger, redaction and all', () => {
    const { logger } = capturingLogger();
    expect(fixedFieldLogger(logger)).toBe(logger);
  });
});
