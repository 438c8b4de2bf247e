import { createDeliveries } from '../modules/deliveries/deliveries.js';
import { createEmailInService } from '../modules/email-in/email-in.service.js';
import { lazyEmailInReader } from '../modules/email-in/lazy-reader.js';
import { DEFAULT_READER_SETTINGS } from '../modules/email-in/reader-settings.js';
import { findUnrevokedKeyIds } from '../modules/keys/keys.repository.js';
import type { LimitsService } from '../modules/limits/limits.service.js';
import { createLiveHub } from '../modules/live/live-hub.js';
import { createLiveService, DEFAULT_LIVE, type LiveOptions } from '../modules/live/live.service.js';
import { createStreamRegistry } from '../modules/live/stream-registry.js';
import type { WakeupSource } from '../modules/live/wakeups.js';
import { createReminderScheduler } from '../modules/reminders/reminder-scheduler.js';
import { createRemindersService } from '../modules/reminders/reminders.service.js';
import type { AccountParts } from './build-accounts.js';
import type { Basics } from './build-basics.js';
import type { CaptureParts } from './build-capture.js';
import type { ItemParts } from './build-items.js';
import type { ServiceInputs } from './inputs.js';

/** A database opened without openDatabase hears of no commits: its streams get only what they read when opened. */
const NO_WAKEUPS: WakeupSource = { crossProcess: true, subscribe: () => () => undefined, close: async () => undefined };

/**
 * What works beside the requests: deliveries (webhooks, channels and their worker, one module built
 * whole, decisions/0066), reminders and their scheduler, the live streams, email-in and its reader.
 * Nothing here starts: the server process starts the workers after listen.
 */
export function buildWorkers(
  { handle, db, dialect, clock, newId, logger, metrics }: Basics,
  { events, attachments }: Pick<ItemParts, 'events' | 'attachments'>,
  { items, capture }: Pick<CaptureParts, 'items' | 'capture'>,
  { instance, users, voice }: Pick<AccountParts, 'instance' | 'users' | 'voice'>,
  limits: LimitsService,
  { config, inject = {} }: ServiceInputs,
) {
  const base = { db, clock, newId };
  const deliveries = createDeliveries({
    ...base,
    dialect,
    logger,
    events,
    instance,
    config,
    ...(inject.webhooks ? { inject: inject.webhooks } : {}),
    onAttempt: (outcome) => metrics.webhookAttempts.inc({ outcome }),
  });
  const { webhooks, channels, worker: webhookWorker } = deliveries;
  const reminders = createRemindersService({ db, clock, items });
  const reminderScheduler = createReminderScheduler({
    ...base,
    logger,
    events,
    itemView: (userId, id) => items.get(userId, id).catch(() => undefined),
    onFired: () => webhookWorker.wake(),
    pollMs: inject.reminderPollMs ?? 1000,
  });
  const liveOptions: LiveOptions = { ...DEFAULT_LIVE, ...inject.live };
  const live = createLiveService({
    events,
    hub: createLiveHub(handle.wakeups ?? NO_WAKEUPS, { clock, logger, liveKeys: (ids) => findUnrevokedKeyIds(db, ids) }, inject.cluster?.wakeups),
    registry: createStreamRegistry({ db, clock, newId, logger, heartbeatMs: liveOptions.processHeartbeatMs }),
    logger,
    options: liveOptions,
  });
  const emailIn = createEmailInService({ db, clock, addressPattern: config.emailIn?.address });
  const emailInConfig = config.emailIn;
  const emailInReader = emailInConfig
    ? lazyEmailInReader(async () =>
        (await import('../modules/email-in/mail-reader.js')).createEmailInReader({
          db,
          clock,
          newId,
          logger,
          metrics: metrics.emailIn,
          imapUrl: emailInConfig.imapUrl,
          settings: { ...DEFAULT_READER_SETTINGS, ...inject.emailInReader },
          emailIn,
          users,
          capture,
          limits,
          attachments,
        }),
      )
    : undefined;
  metrics.watchQueues({ webhookDeliveries: () => webhookWorker.pendingCount(), transcriptions: () => voice.limiter.waiting });

  /** Stops the workers and releases their connections, the newest first. */
  async function close(): Promise<void> {
    await emailInReader?.stop();
    await reminderScheduler.stop();
    live.endAll();
    await live.close();
    await deliveries.close();
  }
  return { webhooks, channels, webhookWorker, reminders, reminderScheduler, live, emailIn, emailInReader, close };
}
