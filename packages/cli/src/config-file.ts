import { chmod, mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import { serverRoot } from '@capture-inbox/sdk';

/** What `cin login` saves for one server; the token never leaves this file (no argv, no output). */
export interface SavedLogin {
  server: string;
  token: string;
  key_id: string;
}

/**
 * The config file, `{ server, token, key_id, other_servers? }` (decision 0071): the top level is the
 * last login, the default server, in the shape every cin before wrote and read; `other_servers`
 * holds the logins to other servers, oldest first, and is left out while there are none.
 */
export interface SavedConfig {
  current: SavedLogin | undefined;
  others: SavedLogin[];
}

const EMPTY: SavedConfig = { current: undefined, others: [] };

/** $XDG_CONFIG_HOME/capture-inbox/config.json, ~/.config/… when XDG_CONFIG_HOME is unset or relative (XDG spec). */
export function configPath(env: NodeJS.ProcessEnv): string {
  const xdg = env.XDG_CONFIG_HOME;
  const base = xdg && xdg.startsWith('/') ? xdg : join(env.HOME || homedir(), '.config');
  return join(base, 'capture-inbox', 'config.json');
}

const rootOf = (server: string): string => {
  try {
    return serverRoot(server);
  } catch {
    return server;
  }
};

/** Whether two addresses name one server (`http://HOST:8080/` and `http://host:8080`). */
const sameServer = (a: string, b: string): boolean => rootOf(a) === rootOf(b);

function loginOf(value: unknown): SavedLogin | undefined {
  const v = (value ?? {}) as Partial<Record<keyof SavedLogin, unknown>>;
  if (typeof v.server !== 'string' || typeof v.token !== 'string') return undefined;
  return { server: v.server, token: v.token, key_id: typeof v.key_id === 'string' ? v.key_id : '' };
}

export async function readConfig(path: string): Promise<SavedConfig> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return EMPTY;
    throw error;
  }
  const parsed = JSON.parse(text) as Record<string, unknown>;
  const others = Array.isArray(parsed.other_servers) ? parsed.other_servers.flatMap((o) => loginOf(o) ?? []) : [];
  return { current: loginOf(parsed), others };
}

/** The saved login for `server`, the default one's or another's. */
export const loginFor = (config: SavedConfig, server: string): SavedLogin | undefined =>
  [...(config.current ? [config.current] : []), ...config.others].find((login) => sameServer(login.server, server));

/**
 * Written to a private temporary file and renamed over the old one, so the keys are never readable
 * by others, not even for a moment, and a crash leaves the old file whole. No login left: no file.
 */
async function writeConfig(path: string, config: SavedConfig): Promise<void> {
  // Without a default, the most recent other login takes its place.
  const current = config.current ?? config.others.at(-1);
  const others = config.current ? config.others : config.others.slice(0, -1);
  if (!current) {
    await rm(path, { force: true });
    return;
  }
  const file = { server: current.server, token: current.token, key_id: current.key_id, ...(others.length > 0 ? { other_servers: others } : {}) };
  await mkdir(dirname(path), { recursive: true, mode: 0o700 });
  const temporary = `${path}.${process.pid}.tmp`;
  await writeFile(temporary, `${JSON.stringify(file, null, 2)}\n`, { mode: 0o600 });
  await chmod(temporary, 0o600);
  await rename(temporary, path);
}

/** A new login becomes the default; the one before it stays saved for its own server. */
export async function saveLogin(path: string, login: SavedLogin): Promise<void> {
  const before = await readConfig(path).catch(() => EMPTY);
  const others = [...before.others, ...(before.current ? [before.current] : [])].filter((o) => !sameServer(o.server, login.server));
  await writeConfig(path, { current: login, others });
}

/**
 * Forgets the login for `server`. When it was the default, the most recent other login becomes the
 * default (answered, so cin can say so). An unreadable file is removed whole.
 */
export async function forgetLogin(path: string, server: string | undefined): Promise<{ forgot: boolean; nowDefault?: string }> {
  let config: SavedConfig;
  try {
    config = await readConfig(path);
  } catch {
    await rm(path, { force: true });
    return { forgot: true };
  }
  const login = server === undefined ? config.current : loginFor(config, server);
  if (!login) return { forgot: false };
  if (login === config.current) {
    const next = config.others.at(-1);
    await writeConfig(path, { current: undefined, others: config.others });
    return { forgot: true, ...(next ? { nowDefault: next.server } : {}) };
  }
  await writeConfig(path, { current: config.current, others: config.others.filter((o) => o !== login) });
  return { forgot: true };
}
