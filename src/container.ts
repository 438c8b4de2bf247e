import { buildAccounts } from './container/build-accounts.js';
import { buildBasics, buildLimits } from './container/build-basics.js';
import { buildCapture } from './container/build-capture.js';
import { buildItems } from './container/build-items.js';
import { buildWorkers } from './container/build-workers.js';
import type { ServiceInputs } from './container/inputs.js';
import type { Services } from './container/services.js';

export type { ClusterWorkerLink, Injections, ServiceDb, ServiceInputs, WebhookInjections } from './container/inputs.js';
export type { Services } from './container/services.js';

/**
 * Wires every service once. No HTTP here: the server, the CLI and tests all build from this. The
 * steps run in this order, each built from the ones before it (src/container/, decisions/0082).
 */
export function createServices(inputs: ServiceInputs): Services {
  const basics = buildBasics(inputs);
  const kernel = buildItems(basics, inputs);
  const limits = buildLimits(basics, inputs);
  const made = buildCapture(basics, kernel, limits, inputs);
  const people = buildAccounts(basics, kernel, made, limits, inputs);
  const workers = buildWorkers(basics, kernel, made, people, limits, inputs);
  const { db, dialect, clock, logger, metrics } = basics;
  const { projects, tags, recurrence, events, search, bulk, filters, attachments, attachmentCollector } = kernel;
  const { organizer, quickAdd, items, capture, subtasks, undo, batchCapture, caldav, feeds } = made;
  const { users, keys, idempotency, voice, instance, accounts, accountSettings, pairing, transfer } = people;
  const { webhooks, channels, webhookWorker, reminders, reminderScheduler, live, emailIn, emailInReader } = workers;

  return {
    db,
    dialect,
    clock,
    users,
    keys,
    projects,
    filters,
    tags,
    items,
    capture,
    quickAdd,
    recurrence,
    subtasks,
    undo,
    batchCapture,
    caldav,
    feeds,
    events,
    idempotency,
    search,
    bulk,
    limits,
    organizer,
    metrics,
    voice,
    logger,
    accounts,
    accountSettings,
    instance,
    transfer,
    pairing,
    webhooks,
    webhookWorker,
    channels,
    reminders,
    reminderScheduler,
    live,
    emailIn,
    emailInReader,
    attachments,
    attachmentCollector,
    async close() {
      attachmentCollector.stop();
      await workers.close();
      await limits.close();
    },
  };
}
