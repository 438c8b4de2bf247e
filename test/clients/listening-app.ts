import type { AddressInfo } from 'node:net';
import type { DialectName } from '../../src/db/create-db.js';
import { createTestApp, type TestApp, type TestAppOptions } from '../helpers/test-app.js';

export interface ListeningApp extends TestApp {
  /** http://127.0.0.1:<port>, what a client is given as its server. */
  baseUrl: string;
}

/** The app on a fresh database, listening on loopback with an ephemeral port, for clients that speak real HTTP. */
export async function startListeningApp(dialect: DialectName, options: TestAppOptions = {}): Promise<ListeningApp> {
  const t = await createTestApp(dialect, options);
  await t.app.listen({ host: '127.0.0.1', port: 0 });
  return { ...t, baseUrl: `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}` };
}

/** The state of an approval URL (`…/connect/agent?state=…`). */
export const stateOf = (url: string): string => new URL(url).searchParams.get('state') ?? '';
