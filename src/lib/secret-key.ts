import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';

const MIN_BYTES = 32;
const HEX = /^[0-9a-fA-F]+$/;
const BASE64 = /^[A-Za-z0-9+/_-]+={0,2}$/;

/**
 * SECRET_KEY as operations.md describes it: 32+ random bytes written as hex or base64 (base64url
 * too). All-hex text is read as hex. The message never repeats the value.
 */
export function parseSecretKey(text: string): Buffer {
  const value = text.trim();
  let bytes: Buffer;
  if (HEX.test(value) && value.length % 2 === 0) bytes = Buffer.from(value, 'hex');
  else if (BASE64.test(value)) bytes = Buffer.from(value, value.includes('-') || value.includes('_') ? 'base64url' : 'base64');
  else throw new Error('must be hex or base64');
  if (bytes.length < MIN_BYTES) throw new Error(`must hold at least ${MIN_BYTES} bytes (got ${bytes.length})`);
  return bytes;
}

export interface LoadedSecretKey {
  key: Buffer;
  created: boolean;
}

/**
 * The SECRET_KEY default: read the key file, or create it with fresh random bytes on first start.
 * `wx` makes creation atomic, so two processes starting together agree on one key.
 */
export function loadOrCreateSecretKeyFile(path: string): LoadedSecretKey {
  try {
    return { key: parseSecretKey(readFileSync(path, 'utf8')), created: false };
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw new Error(`${path}: ${(error as Error).message}`, { cause: error });
  }
  mkdirSync(dirname(path), { recursive: true });
  const encoded = `${randomBytes(MIN_BYTES).toString('base64')}\n`;
  try {
    writeFileSync(path, encoded, { flag: 'wx', mode: 0o600 });
    return { key: parseSecretKey(encoded), created: true };
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return { key: parseSecretKey(readFileSync(path, 'utf8')), created: false };
    throw error;
  }
}
