import type { Logger } from 'pino';
import type { Config } from '../../config.js';
import type { DialectName } from '../../db/create-db.js';
import type { Db } from '../../db/schema.js';
import type { Clock } from '../../lib/clock.js';
import type { IdGenerator } from '../../lib/ids.js';
import type { EventsService } from '../events/events.service.js';
import type { InstanceService } from '../instance/instance.service.js';
import { createChannelsService, type ChannelsService } from './channels.service.js';
import { createDeliveryWorker, type DeliveryWorker } from './delivery-worker.js';
import { createNotifier } from './notifier.js';
import { leaseFor } from './retry-policy.js';
import { createTargetSecretVault } from './target-secrets.js';
import { systemResolver, type Resolver } from './transports/delivery-transport.js';
import type { DestinationPolicy } from './transports/destination-rules.js';
import { createTargetTransports } from './transports/target-transports.js';
import { createVapidKeyStore } from './vapid-keys.js';
import { createWebhooksService, type WebhooksService } from './webhooks.service.js';
import { DEFAULT_WORKER_SETTINGS, type WorkerSettings } from './worker-settings.js';

/*
 * The deliveries module, wired once (decision 0066): the targets (webhooks and notification
 * channels, rows of one table it alone writes), a transport per kind of target, and the worker
 * that takes outbox events to them. Everything is built before what uses it: no late binding.
 */

/** What tests inject; production passes none. */
export interface DeliveryInjections {
  /** Host name resolution for deliveries; tests inject one so no real DNS is ever asked. */
  resolver?: Resolver;
  /** Extra trusted CA certificates (PEM) for receivers. */
  ca?: string[];
  worker?: Partial<WorkerSettings>;
}

export interface DeliveriesService {
  /** Webhook registration and the delivery log (/webhooks). */
  webhooks: WebhooksService;
  /** Notification channels, their test sends and the VAPID key (/channels, /push/key). */
  channels: ChannelsService;
  /** Delivers outbox events to every target; only the server process starts it. */
  worker: DeliveryWorker;
  /** Stops the worker, then closes outbound connections. */
  close(): Promise<void>;
}

export function createDeliveries(deps: {
  db: Db;
  dialect: DialectName;
  clock: Clock;
  newId: IdGenerator;
  logger: Logger;
  events: EventsService;
  instance: Pick<InstanceService, 'keepFirst'>;
  config: Pick<Config, 'secretKey' | 'webhooks' | 'publicUrl' | 'mail'>;
  inject?: DeliveryInjections;
  /** Told the outcome of every finished attempt (the metrics' counter). */
  onAttempt?: (outcome: 'succeeded' | 'failed' | 'interrupted') => void;
}): DeliveriesService {
  const { db, dialect, clock, newId, config, inject = {} } = deps;
  const settings = config.webhooks;
  const vault = createTargetSecretVault(config.secretKey);
  const vapid = createVapidKeyStore({ instance: deps.instance, vault });
  const destinations: DestinationPolicy = {
    allowPrivateTargets: settings.allowPrivateTargets,
    ...(settings.trustedTargets ? { trustedTargets: settings.trustedTargets } : {}),
  };
  const transports = createTargetTransports({
    clock,
    resolver: inject.resolver ?? systemResolver,
    ...destinations,
    timeoutMs: settings.timeoutMs,
    ...(inject.ca ? { ca: inject.ca } : {}),
    vapid: vapid.pair,
    publicUrl: config.publicUrl,
    smtpUrl: config.mail.smtpUrl,
    smtpFrom: config.mail.from,
  });
  const notify = createNotifier({ db, publicUrl: config.publicUrl, transports });
  const webhooks = createWebhooksService({ db, dialect, clock, newId, events: deps.events, vault, destinations });
  const channels = createChannelsService({
    db,
    clock,
    newId,
    vault,
    vapid,
    notify,
    destinations,
    smtpConfigured: Boolean(config.mail.smtpUrl),
  });
  const worker = createDeliveryWorker({
    db,
    dialect,
    clock,
    newId,
    logger: deps.logger,
    events: deps.events,
    vault,
    transports,
    notify,
    settings: { ...DEFAULT_WORKER_SETTINGS, retryDelaysMs: settings.retryDelaysMs, leaseMs: leaseFor(settings.timeoutMs), ...inject.worker },
    ...(deps.onAttempt ? { onAttempt: deps.onAttempt } : {}),
  });
  return {
    webhooks,
    channels,
    worker,
    async close() {
      await worker.stop();
      await transports.close();
    },
  };
}
