import type { Logger } from 'pino';
import type { AttachmentsService } from './attachments.service.js';

/** How often the server process looks for contents no attachment uses (deleted items, failed uploads). */
const COLLECT_EVERY_MS = 10 * 60 * 1000;

export interface BlobCollector {
  start(): void;
  stop(): void;
}

/**
 * Deleting an attachment removes its bytes at once when they were its last use; deleting an item
 * (or an account) removes its attachments' rows by cascade, and this pass removes their bytes. Every
 * server process may run it: the collector's lock (attachments.repository.ts) makes them safe together.
 */
export function createBlobCollector(attachments: Pick<AttachmentsService, 'collectGarbage'>, logger: Logger, everyMs = COLLECT_EVERY_MS): BlobCollector {
  let timer: NodeJS.Timeout | undefined;
  let running = false;
  const pass = async () => {
    if (running) return;
    running = true;
    try {
      const removed = await attachments.collectGarbage();
      if (removed > 0) logger.info({ removed }, 'removed attachment files no attachment uses');
    } catch (err) {
      logger.error({ err }, 'attachment file collection failed');
    } finally {
      running = false;
    }
  };
  return {
    start() {
      if (timer) return;
      void pass();
      timer = setInterval(() => void pass(), everyMs);
      timer.unref();
    },
    stop() {
      if (timer) clearInterval(timer);
      timer = undefined;
    },
  };
}
