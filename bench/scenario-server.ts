import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createScratchDatabase, vacuumAnalyze, type BenchDialect } from './databases.js';
import { createHttpClient, WebSession, type HttpClient } from './http-client.js';
import { onCleanup } from './lifecycle.js';
import { BENCH_EMAIL, createUserAndKey } from './seed.js';
import { startTarget, type RunningTarget } from './targets.js';

/*
 * The scenario scripts' server (capture-organize, account): `node dist/server.js` as an operator
 * starts it, on a fresh database of its own, with one Pro user who has an API key and a password,
 * signed in to the web app. Unlike `npm run bench` there is no baseline beside it: these paths have
 * no bare equivalent, so they are measured against the issue's targets, not as a ratio.
 */

/** Limits no scenario reaches, so the limiter still runs on every request but never refuses one. */
const NO_LIMIT = '1000000000';
const PASSWORD = 'bench correct horse battery';

export interface ScenarioServerOptions {
  dialect: BenchDialect;
  workers: number;
  pgAdminUrl: string;
  /** Names the scratch database (bench_<pid>_<label> on PostgreSQL). */
  label: string;
  /** Fills the database for the user before the server starts (direct SQL, as bench/seed.ts does). */
  seed?: (databaseUrl: string, userId: string) => Promise<void>;
  /** Extra server settings. */
  env?: NodeJS.ProcessEnv;
  /** Node's own options before the server's script (e.g. `--import` of a probe). */
  nodeArgs?: readonly string[];
}

export interface ScenarioServer {
  url: string;
  databaseUrl: string;
  userId: string;
  /** `Authorization` header of the user's API key. */
  auth: { authorization: string };
  api: HttpClient;
  web: WebSession;
  target: RunningTarget;
  /** Stops the server and drops its database; answers the highest summed RSS the server reached. */
  stop(): Promise<{ peakRssMb: number }>;
}

/** Only what the server needs from this shell: a stray REDIS_URL or WORKERS must not change what is measured. */
function cleanEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const name of ['PATH', 'HOME', 'LANG', 'TZ']) if (process.env[name] !== undefined) env[name] = process.env[name];
  return env;
}

export async function startScenarioServer(o: ScenarioServerOptions): Promise<ScenarioServer> {
  const work = mkdtempSync(join(tmpdir(), 'inbox-bench-scenario-'));
  const removeWork = onCleanup(`remove ${work}`, () => rmSync(work, { recursive: true, force: true }));
  const db = await createScratchDatabase(o.dialect, o.pgAdminUrl, o.label);
  const env: NodeJS.ProcessEnv = {
    ...cleanEnv(),
    DATABASE_URL: db.url,
    SECRET_KEY: randomBytes(32).toString('hex'),
    WORKERS: String(o.workers),
    RATE_LIMIT_PRO_PER_MINUTE: NO_LIMIT,
    RATE_LIMIT_PRO_PER_DAY: NO_LIMIT,
    RATE_LIMIT_FREE_PER_MINUTE: NO_LIMIT,
    RATE_LIMIT_FREE_PER_DAY: NO_LIMIT,
    AI_DAILY_QUOTA: NO_LIMIT,
    ...o.env,
  };
  let target: RunningTarget | undefined;
  let api: HttpClient | undefined;
  const stopServer = onCleanup(`scenario server ${o.label}`, async () => {
    api?.close();
    await target?.stop();
  });
  try {
    const { userId, token } = await createUserAndKey(join('dist', 'cli', 'admin.js'), env, PASSWORD);
    if (o.seed) {
      await o.seed(db.url, userId);
      // As the bench does: PostgreSQL's plans then do not depend on whether autovacuum came by first.
      if (o.dialect === 'postgres') await vacuumAnalyze(db.url);
    }
    target = await startTarget({ side: 'service', args: [...(o.nodeArgs ?? []), 'dist/server.js'], env, logFile: join(work, 'server.log') });
    api = createHttpClient(target.url);
    const web = new WebSession(api);
    await web.signIn(BENCH_EMAIL, PASSWORD);
    const running = target;
    const client = api;
    return {
      url: running.url,
      databaseUrl: db.url,
      userId,
      auth: { authorization: `Bearer ${token}` },
      api: client,
      web,
      target: running,
      async stop() {
        client.close();
        const stopped = await running.stop();
        target = undefined;
        await stopServer();
        await db.drop();
        await removeWork();
        return { peakRssMb: Math.round(stopped.peakRssKb / 102.4) / 10 };
      },
    };
  } catch (error) {
    await stopServer();
    await db.drop();
    await removeWork();
    throw error;
  }
}
