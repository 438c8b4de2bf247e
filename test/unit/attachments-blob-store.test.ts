import { createHash } from 'node:crypto';
import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, describe, expect, it } from 'vitest';
import { createBlobStore, FileTooLarge } from '../../src/modules/attachments/blob-store.js';

const MIB = 1024 * 1024;
const CHUNK = 64 * 1024;

/** Bytes in the store's temporary files: what has reached the disk. */
const onDisk = (dir: string): number => {
  try {
    return readdirSync(join(dir, 'tmp')).reduce((sum, name) => sum + statSync(join(dir, 'tmp', name)).size, 0);
  } catch {
    return 0;
  }
};

/**
 * `total` bytes made chunk by chunk as they are read; at each read it records how many bytes were
 * made but are not on disk yet: what the store holds in memory at most.
 */
function generated(total: number, samples: number[], dir?: string): Readable {
  let sent = 0;
  return new Readable({
    read() {
      if (sent >= total) {
        this.push(null);
        return;
      }
      if (dir !== undefined) samples.push(sent - onDisk(dir));
      else samples.push(sent);
      const size = Math.min(CHUNK, total - sent);
      this.push(Buffer.alloc(size, sent % 251));
      sent += size;
    },
  });
}

describe('blob store (FILES_DIR)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'blob-store-'));
  const store = createBlobStore(dir);
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('streams a 25 MiB file to disk without holding it in memory, and places it by its SHA-256', async () => {
    const samples: number[] = [];
    const file = await store.receive(generated(25 * MIB, samples, dir), 25 * MIB);
    expect(file.size).toBe(25 * MIB);
    expect(samples.length).toBeGreaterThan(300);
    // Back-pressure: the source is read only as fast as the disk takes it, a few chunks ahead at most.
    expect(Math.max(...samples)).toBeLessThan(2 * MIB);
    const hash = createHash('sha256');
    for await (const chunk of generated(25 * MIB, [])) hash.update(chunk as Buffer);
    expect(file.sha256).toBe(hash.digest('hex'));
    await store.place(file);
    expect(statSync(join(dir, file.sha256.slice(0, 2), file.sha256)).size).toBe(25 * MIB);
    expect(readdirSync(join(dir, 'tmp'))).toEqual([]);
  });

  it('fails as the stream passes the limit, and leaves no partial file', async () => {
    const samples: number[] = [];
    await expect(store.receive(generated(3 * MIB, samples), MIB)).rejects.toBeInstanceOf(FileTooLarge);
    // Refused at the limit: the rest of the stream was never read.
    expect(samples.length).toBeLessThanOrEqual(MIB / CHUNK + 4);
    expect(readdirSync(join(dir, 'tmp'))).toEqual([]);
  });

  it('leaves nothing behind when the source breaks off half-way', async () => {
    const source = new Readable({ read() {} });
    source.push(Buffer.alloc(CHUNK));
    setTimeout(() => source.destroy(new Error('connection reset')), 10);
    await expect(store.receive(source, MIB)).rejects.toThrow('connection reset');
    expect(readdirSync(join(dir, 'tmp'))).toEqual([]);
  });
});
