import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createWriteStream } from 'node:fs';
import { crc32 } from 'node:zlib';
import yauzl from 'yauzl';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { zipStream } from '../../src/modules/transfer/zip-writer.js';
import { findProgram, lacking, UNZIP } from '../helpers/system-programs.js';

const MIB = 1024 * 1024;

/** Every entry as yauzl reads it (sizes checked against the directory), with the CRC-32 of what it inflated to. */
async function readZip(path: string): Promise<Map<string, { bytes: Buffer; declaredCrc: number; actualCrc: number; method: number }>> {
  const zip = await yauzl.openPromise(path, { lazyEntries: true, autoClose: false, validateEntrySizes: true, strictFileNames: true });
  const out = new Map<string, { bytes: Buffer; declaredCrc: number; actualCrc: number; method: number }>();
  try {
    for await (const entry of zip.eachEntry()) {
      const chunks: Buffer[] = [];
      for await (const chunk of await zip.openReadStreamPromise(entry)) chunks.push(chunk as Buffer);
      const bytes = Buffer.concat(chunks);
      out.set(entry.fileName, { bytes, declaredCrc: entry.crc32, actualCrc: crc32(bytes), method: entry.compressionMethod });
    }
  } finally {
    zip.close();
  }
  return out;
}

describe('the export zip writer', () => {
  let dir: string;
  const contents = new Map<string, Buffer>();
  // Empty, tiny, just under and over one 1 MiB output chunk, and several chunks with a ragged end.
  const sizes = [0, 1, 4096, MIB - 30 - 9, MIB - 100, MIB + 1, 3 * MIB + 12345, 70_000, 70_000];

  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'zip-writer-'));
    sizes.forEach((size, n) => {
      const bytes = randomBytes(size);
      writeFileSync(join(dir, `f${n}`), bytes);
      contents.set(`files/f${n}`, bytes);
    });
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  const text = ['{"items":[', ...Array.from({ length: 2000 }, (_, n) => `${n ? ',' : ''}{"title":"item ${n} — café ✓"}`), ']}'];
  const files = () => [...contents.keys()].map((name) => ({ name, path: join(dir, name.slice('files/'.length)) }));

  async function write(name: string, forceZip64: boolean, extra: Array<{ name: string; path: string }> = []): Promise<string> {
    const path = join(dir, name);
    await pipeline(zipStream({ name: 'export.json', source: Readable.from(text) }, [...files(), ...extra], { forceZip64 }), createWriteStream(path));
    return path;
  }

  for (const forceZip64 of [false, true]) {
    it(`writes a zip yauzl reads whole, every CRC-32 and size right${forceZip64 ? ' (zip64 records)' : ''}`, async () => {
      const path = await write(`out-${String(forceZip64)}.zip`, forceZip64, [{ name: 'files/missing', path: join(dir, 'not-there') }]);
      const read = await readZip(path);
      expect([...read.keys()]).toEqual(['export.json', ...contents.keys()]);
      const document = read.get('export.json');
      expect(document?.method).toBe(8);
      expect(document?.bytes.toString('utf8')).toBe(text.join(''));
      for (const [name, entry] of read) {
        expect(entry.actualCrc, name).toBe(entry.declaredCrc);
        if (name !== 'export.json') {
          expect(entry.method, name).toBe(0);
          expect(entry.bytes.equals(contents.get(name) ?? Buffer.alloc(1)), name).toBe(true);
        }
      }
    });
  }

  it.skipIf(lacking(UNZIP))('passes Info-ZIP’s own test of every entry (unzip -t)', async () => {
    for (const forceZip64 of [false, true]) {
      const path = await write(`unzip-${String(forceZip64)}.zip`, forceZip64);
      const report = execFileSync(findProgram(UNZIP)!, ['-t', path], { encoding: 'utf8' });
      expect(report).toContain('No errors detected');
    }
  });

  it('fails the stream, not the zip, when the document fails half-way', async () => {
    async function* broken(): AsyncGenerator<string> {
      yield '{"items":[';
      throw new Error('the database went away');
    }
    const stream = zipStream({ name: 'export.json', source: broken() }, files());
    await expect(pipeline(stream, createWriteStream(join(dir, 'broken.zip')))).rejects.toThrow('the database went away');
  });
});
