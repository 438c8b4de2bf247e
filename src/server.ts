import cluster from 'node:cluster';
import closeWithGrace from 'close-with-grace';
import type { Logger } from 'pino';
import { buildApp } from './app.js';
import { clusterWorkerLink } from './cluster/worker-link.js';
import { connectToPrimary } from './cluster/primary-channel.js';
import { runPrimary } from './cluster/primary.js';
import { loadConfig, loadEnvFile, type Config } from './config.js';
import { createServices } from './container.js';
import { storagePortsFor } from './storage-ports.js';
import { openDatabase, writerHoldWarning } from './open-database.js';
import { logConnectionError } from './db/log-connection-error.js';
import type { DbHandle } from './db/create-db.js';
import { claimSqliteServer, type ServerClaim } from './db/sqlite/server-claim.js';
import { describeDatabase } from './db/database-url.js';
import { migrateToLatest } from './db/migrate.js';
import { createLogger } from './lib/logger.js';
import { loadOrCreateSecretKeyFile } from './lib/secret-key.js';

/** Where SECRET_KEY lives when the environment does not set it (operations.md). */
const SECRET_KEY_FILE = './data/secret.key';
/** A moment after listening: a test's or a script's short-lived server is usually gone by then. */
const WARM_DATE_READER_AFTER_MS = 2_000;

function secretKeyOf(config: Config, logger: Logger): Buffer {
  if (config.secretKey) return config.secretKey;
  const loaded = loadOrCreateSecretKeyFile(SECRET_KEY_FILE);
  if (loaded.created) logger.info({ file: SECRET_KEY_FILE }, 'generated SECRET_KEY; every instance of this deployment needs the same key');
  return loaded.key;
}

/** Held for the process's life: no second server on this SQLite file (decisions/0067). */
let serverClaim: ServerClaim | undefined;

/**
 * Once per start, before any process serves: the claim of a SQLite file, the schema and the secret
 * key file. A cluster's primary, which serves nothing, opens the database for it alone; a single
 * process migrates on the handle it then serves with (one pool and one first connection fewer at start).
 */
async function prepareDeployment(config: Config, logger: Logger, serving?: Pick<DbHandle, 'db'>): Promise<void> {
  serverClaim ??= claimSqliteServer(config.databaseUrl);
  const handle = serving ?? openDatabase(config.databaseUrl, { onConnectionError: logConnectionError(logger) });
  try {
    await migrateToLatest(handle.db, logger).catch((error: unknown) => {
      throw new Error(`DATABASE_URL: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
    });
  } finally {
    if (!serving) await handle.db.destroy();
  }
  secretKeyOf(config, logger);
  if (config.webhooks.allowPrivateTargets) {
    logger.warn('WEBHOOK_ALLOW_PRIVATE_TARGETS is on: webhooks may reach loopback and private addresses; use this for testing only');
  }
}

/** One process serving HTTP: the whole server with WORKERS=1, or one worker of the cluster. */
async function serve(config: Config, logger: Logger): Promise<void> {
  const inCluster = cluster.isWorker;
  // Migrations hold the writer as long as they need: the hold watch starts after them.
  let migrating = !inCluster;
  const handle = openDatabase(config.databaseUrl, {
    onConnectionError: logConnectionError(logger),
    ...(config.logLevel === 'debug' || config.logLevel === 'trace'
      ? {
          sqliteHoldWatch: writerHoldWarning((heldMs, stack) => {
            if (migrating) return;
            logger.warn(
              { heldMs: Math.round(heldMs), stack },
              'a transaction held the SQLite writer: await nothing but its own statements inside db.transaction()',
            );
          }),
        }
      : {}),
  });
  if (!inCluster) {
    try {
      await prepareDeployment(config, logger, handle);
    } catch (error) {
      await handle.db.destroy();
      throw error;
    }
    migrating = false;
  }
  const channel = inCluster ? connectToPrimary() : undefined;
  const services = createServices({
    db: handle,
    ports: storagePortsFor(handle.dialect),
    config: { ...config, secretKey: secretKeyOf(config, logger) },
    inject: { logger, processMetrics: true, ...(channel ? { cluster: clusterWorkerLink(channel) } : {}) },
  });
  const app = await buildApp({ config, services });
  app.addHook('onClose', async () => {
    // Stops the webhook worker first (in-flight attempts finish or hand their lease back), then the rest.
    await services.close();
    channel?.close();
    await handle.wakeups.close();
    await handle.db.destroy();
  });
  const counting = await services.limits.ready(2_000);
  logger[counting ? 'info' : 'warn']({ store: services.limits.storeKind, counting }, 'rate-limit counters');
  logger.info({ engine: config.organizer.engine, model: config.organizer.openai?.model }, 'organizer engine');
  if (services.voice.engineName) logger.info({ engine: services.voice.engineName }, 'transcription engine');
  else logger.warn({ reason: services.voice.unavailableReason }, 'transcription unavailable: POST /voice/transcribe answers 503');

  // SIGTERM/SIGINT: stop accepting, let in-flight requests finish, then close the database.
  closeWithGrace(
    {
      delay: 10_000,
      // A worker may get both the terminal's SIGINT and the primary's SIGTERM: one shutdown is enough.
      ...(inCluster ? { onSecondSignal: (signal: string) => app.log.info({ signal }, 'already shutting down') } : {}),
    },
    async ({ signal, err }) => {
      if (err) app.log.error({ err }, 'shutting down after an uncaught error');
      else app.log.info({ signal }, 'shutting down');
      await app.close();
    },
  );
  // A worker whose primary is gone (killed) would serve alone with no one to stop it.
  if (inCluster) process.once('disconnect', () => process.kill(process.pid, 'SIGTERM'));

  await app.listen({ port: config.port, host: config.host });
  // After listen: a process that cannot serve should not start delivering either.
  services.webhookWorker.start();
  services.reminderScheduler.start();
  services.attachmentCollector.start();
  // Every process runs a reader; the database lease lets one read at a time (docs/email-in.md).
  services.emailInReader?.start();
  // The VAPID key pair is made at first start (contract "Reminders"), not at the first push.
  services.channels.publicKey().catch((err: unknown) => app.log.error({ err }, 'could not make or read the VAPID key pair'));
  // Off the start-up path (imported then, not before) and out of a short-lived process's way (decision 0112).
  setTimeout(() => {
    import('./lib/dates/warm-date-reader.js')
      .then(({ warmDateReader }) => warmDateReader())
      .catch((err: unknown) => app.log.warn({ err }, 'could not warm the date reader'));
  }, WARM_DATE_READER_AFTER_MS).unref();
}

async function main(): Promise<void> {
  loadEnvFile();
  const config = loadConfig();
  const logger = createLogger(config.logLevel);
  // Once per start (a cluster's workers share the primary's): which database, never its password.
  if (cluster.isPrimary) logger.info({ database: describeDatabase(config.databaseUrl) }, 'database');
  if (config.workers > 1 && cluster.isPrimary) await runPrimary(config, logger, () => prepareDeployment(config, logger));
  else await serve(config, logger);
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
