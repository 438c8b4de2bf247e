import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { createServices, type Services } from '../../src/container.js';
import type { DbHandle } from '../../src/db/create-db.js';
import { migrateToLatest } from '../../src/db/migrate.js';
import { openDatabase } from '../../src/open-database.js';
import { storagePortsFor } from '../../src/storage-ports.js';

/*
 * The engine is chosen at start from what is on PATH, and every engine needs ffmpeg. So that the
 * choice below depends on the settings and not on this machine's programs, PATH is a directory
 * holding nothing but an executable named ffmpeg: selection only looks for it, nothing runs it.
 */
const programs = mkdtempSync(join(tmpdir(), 'service-settings-path-'));
writeFileSync(join(programs, 'ffmpeg'), '#!/bin/sh\nexit 1\n');
chmodSync(join(programs, 'ffmpeg'), 0o755);
afterAll(() => rmSync(programs, { recursive: true, force: true }));

/** Settings the services read, each changed from its default as an operator would set it. */
const ENV = {
  PATH: programs,
  RATE_LIMIT_FREE_PER_MINUTE: '7',
  RATE_LIMIT_PRO_PER_DAY: '70',
  TRANSCRIBE_ENGINE: 'openai',
  TRANSCRIBE_BASE_URL: 'http://127.0.0.1:9001/v1',
  SECRET_KEY: 'ab'.repeat(32),
  ALLOW_SIGNUP: 'false',
  DEFAULT_PLAN: 'pro',
};

describe('createServices({ db, ports, config })', () => {
  let handle: DbHandle | undefined;
  let services: Services | undefined;

  afterEach(async () => {
    await services?.close();
    await handle?.db.destroy();
    services = undefined;
    handle = undefined;
  });

  async function build(env: Record<string, string>): Promise<Services> {
    handle = openDatabase('sqlite::memory:');
    await migrateToLatest(handle.db);
    services = createServices({ db: handle, ports: storagePortsFor(handle.dialect), config: loadConfig(env) });
    return services;
  }

  it('builds the services from the settings it is given: limits, transcription, sign-up and plan, webhook sealing', async () => {
    const s = await build(ENV);
    expect(s.limits.limitsFor('free').perMinute).toBe(7);
    expect(s.limits.limitsFor('pro').perDay).toBe(70);
    expect(s.limits.storeKind).toBe('memory');
    expect(s.voice.engineName).toBe('openai');
    expect(s.instance.defaultPlan).toBe('pro');
    expect(await s.instance.signup()).toEqual({ open: false, closedBySetting: true });
    const user = await s.users.create({ email: 'settings@example.test', plan: 'pro' });
    const { webhook } = await s.webhooks.create(user.id, { url: 'https://hooks.example.test/in', events: ['item.created'] });
    expect(webhook.url).toBe('https://hooks.example.test/in');
  });

  it('builds from an empty environment as the defaults say, with no SECRET_KEY to seal webhook keys', async () => {
    const s = await build({});
    expect(s.limits.limitsFor('free').perMinute).toBe(60);
    expect(s.instance.defaultPlan).toBe('free');
    expect(await s.instance.signup()).toEqual({ open: true, closedBySetting: false });
    const user = await s.users.create({ email: 'defaults@example.test', plan: 'pro' });
    await expect(s.webhooks.create(user.id, { url: 'https://hooks.example.test/in', events: ['item.created'] })).rejects.toThrow(/SECRET_KEY/);
  });

  it('takes no service without its settings: config is required', () => {
    const db = openDatabase('sqlite::memory:');
    try {
      // @ts-expect-error config is required: no default stands in for a missing setting
      expect(() => createServices({ db, ports: storagePortsFor(db.dialect) })).toThrow();
    } finally {
      void db.db.destroy();
    }
  });

  it('builds the email-in address service and reader from EMAIL_IN_IMAP_URL and EMAIL_IN_ADDRESS, and neither without them', async () => {
    const on = await build({ EMAIL_IN_IMAP_URL: 'imap://reader:secret@127.0.0.1:9/INBOX', EMAIL_IN_ADDRESS: 'inbox+{token}@example.test' });
    expect(on.emailIn.enabled).toBe(true);
    expect(on.emailInReader).toBeDefined();
    await on.close();
    await handle?.db.destroy();
    services = undefined;
    const off = await build({});
    expect(off.emailIn.enabled).toBe(false);
    expect(off.emailInReader).toBeUndefined();
  });
});
