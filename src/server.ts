import closeWithGrace from 'close-with-grace';
import { pino } from 'pino';
import { buildApp } from './app.js';
import { loadConfig } from './config.js';
import { createServices } from './container.js';
import { createDb } from './db/create-db.js';
import { migrateToLatest } from './db/migrate.js';
import { loadOrCreateSecretKeyFile } from './lib/secret-key.js';

/** Where SECRET_KEY lives when the environment does not set it (operations.md). */
const SECRET_KEY_FILE = './data/secret.key';

/** The only place that listens on a port. */
async function main(): Promise<void> {
  const config = loadConfig();
  const handle = createDb(config.databaseUrl);
  await migrateToLatest(handle.db);
  const logger = pino({ level: config.logLevel });
  let secretKey = config.secretKey;
  if (!secretKey) {
    const loaded = loadOrCreateSecretKeyFile(SECRET_KEY_FILE);
    secretKey = loaded.key;
    if (loaded.created) logger.info({ file: SECRET_KEY_FILE }, 'generated SECRET_KEY; every instance of this deployment needs the same key');
  }
  if (config.webhooks.allowPrivateTargets) {
    logger.warn('WEBHOOK_ALLOW_PRIVATE_TARGETS is on: webhooks may reach loopback and private addresses; use this for testing only');
  }
  const services = createServices(handle, {
    logger,
    limits: config.limits,
    organizer: config.organizer,
    ...(config.redisUrl ? { redis: { url: config.redisUrl, keyPrefix: config.redisKeyPrefix } } : {}),
    transcribe: config.transcribe,
    webhooks: { secretKey, delivery: config.webhooks },
  });
  const app = await buildApp({ config, services });
  app.addHook('onClose', async () => {
    // Stops the webhook worker first (in-flight attempts finish or hand their lease back), then the rest.
    await services.close();
    await handle.db.destroy();
  });
  const counting = await services.limits.ready(2_000);
  logger[counting ? 'info' : 'warn']({ store: services.limits.storeKind, counting }, 'rate-limit counters');
  logger.info({ engine: config.organizer.engine, model: config.organizer.openai?.model }, 'organizer engine');
  if (services.voice.engineName) logger.info({ engine: services.voice.engineName }, 'transcription engine');
  else logger.warn({ reason: services.voice.unavailableReason }, 'transcription unavailable: POST /voice/transcribe answers 503');

  // SIGTERM/SIGINT: stop accepting, let in-flight requests finish, then close the database.
  closeWithGrace({ delay: 10_000 }, async ({ signal, err }) => {
    if (err) app.log.error({ err }, 'shutting down after an uncaught error');
    else app.log.info({ signal }, 'shutting down');
    await app.close();
  });

  await app.listen({ port: config.port, host: config.host });
  // After listen: a process that cannot serve should not start delivering either.
  services.webhookWorker.start();
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
