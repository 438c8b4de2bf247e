import { chmod, mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';

/** What `cin login` saves; the token never leaves this file (no argv, no output). */
export interface SavedLogin {
  server: string;
  token: string;
  key_id: string;
}

/** $XDG_CONFIG_HOME/capture-inbox/config.json, ~/.config/… when XDG_CONFIG_HOME is unset or relative (XDG spec). */
export function configPath(env: NodeJS.ProcessEnv): string {
  const xdg = env.XDG_CONFIG_HOME;
  const base = xdg && xdg.startsWith('/') ? xdg : join(env.HOME || homedir(), '.config');
  return join(base, 'capture-inbox', 'config.json');
}

export async function readLogin(path: string): Promise<SavedLogin | undefined> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
  const parsed = JSON.parse(text) as Partial<SavedLogin>;
  if (typeof parsed.server !== 'string' || typeof parsed.token !== 'string') return undefined;
  return { server: parsed.server, token: parsed.token, key_id: String(parsed.key_id ?? '') };
}

/**
 * Written to a private temporary file and renamed over the old one, so the key is never readable
 * by others, not even for a moment, and a crash leaves the old file whole.
 */
export async function writeLogin(path: string, login: SavedLogin): Promise<void> {
  await mkdir(dirname(path), { recursive: true, mode: 0o700 });
  const temporary = `${path}.${process.pid}.tmp`;
  await writeFile(temporary, `${JSON.stringify(login, null, 2)}\n`, { mode: 0o600 });
  await chmod(temporary, 0o600);
  await rename(temporary, path);
}

/** True when there was a saved login to forget. */
export async function removeLogin(path: string): Promise<boolean> {
  const existed = (await readLogin(path).catch(() => undefined)) !== undefined;
  await rm(path, { force: true });
  return existed;
}
