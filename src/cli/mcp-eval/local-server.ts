import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildApp } from '../../app.js';
import { loadConfig } from '../../config.js';
import { createServices } from '../../container.js';
import { migrateToLatest } from '../../db/migrate.js';
import { openDatabase } from '../../open-database.js';
import { storagePortsFor } from '../../storage-ports.js';

export interface LocalServer {
  baseUrl: string;
  /** A fresh user with an API key holding every scope. */
  newAccount(label: string): Promise<{ token: string }>;
  close(): Promise<void>;
}

/**
 * The whole service on a throwaway SQLite file, listening on 127.0.0.1 only: every task of the
 * evaluation gets a fresh account on it, so tasks never see each other's changes.
 */
export async function startLocalServer(): Promise<LocalServer> {
  const dir = mkdtempSync(join(tmpdir(), 'capture-inbox-eval-'));
  const config = loadConfig({ DATABASE_URL: `sqlite:${join(dir, 'eval.db')}`, LOG_LEVEL: 'silent', SECRET_KEY: Buffer.alloc(32, 5).toString('base64') });
  const handle = openDatabase(config.databaseUrl);
  await migrateToLatest(handle.db);
  const services = createServices({ db: handle, ports: storagePortsFor(handle.dialect), config });
  const app = await buildApp({ config, services });
  const baseUrl = await app.listen({ port: 0, host: '127.0.0.1' });
  let accounts = 0;
  return {
    baseUrl,
    async newAccount(label) {
      accounts += 1;
      const user = await services.users.create({ email: `eval-${accounts}@example.test`, plan: 'free' });
      return { token: (await services.keys.mint(user.id, label)).token };
    },
    async close() {
      await app.close();
      await services.close();
      await handle.db.destroy().catch(() => undefined);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
