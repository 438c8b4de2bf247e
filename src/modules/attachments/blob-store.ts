import { createHash, randomUUID } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, readdir, rename, rm, stat, unlink } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { pipeline as pipe, Transform, type Readable, type TransformCallback } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { notePassedBytes } from '../../lib/gc-requests.js';

/** The first bytes of a file, kept while it streams to disk: enough for the content type's magic numbers. */
const HEAD_BYTES = 4100;
/** A temporary file older than this belongs to an upload whose process died; the collector removes it. */
const STALE_TEMP_MS = 60 * 60 * 1000;

/** A file on disk under the store's temporary folder, hashed and counted as it was written. */
export interface ReceivedFile {
  tempPath: string;
  sha256: string;
  size: number;
  /** Its first bytes (up to 4100), to tell its type from. */
  head: Buffer;
}

/** Raised by receive() the moment the stream passes maxBytes; nothing of it is left on disk. */
export class FileTooLarge extends Error {
  override readonly name = 'FileTooLarge';
  constructor(readonly maxBytes: number) {
    super(`the file is larger than ${maxBytes} bytes`);
  }
}

/** Hands a download's chunks on unchanged, counting them for lib/gc-requests.ts. */
class PassedCount extends Transform {
  override _transform(chunk: Buffer, _encoding: BufferEncoding, done: TransformCallback): void {
    notePassedBytes(chunk.length);
    done(null, chunk);
  }
}

/** Hashes, counts and keeps the head of what flows through; fails as soon as the count passes the limit. */
class Meter extends Transform {
  readonly hash = createHash('sha256');
  size = 0;
  private readonly headParts: Buffer[] = [];
  private headSize = 0;

  constructor(private readonly maxBytes: number) {
    super();
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, done: TransformCallback): void {
    this.size += chunk.length;
    if (this.size > this.maxBytes) {
      done(new FileTooLarge(this.maxBytes));
      return;
    }
    if (this.headSize < HEAD_BYTES) {
      const part = chunk.subarray(0, HEAD_BYTES - this.headSize);
      this.headParts.push(Buffer.from(part));
      this.headSize += part.length;
    }
    this.hash.update(chunk);
    notePassedBytes(chunk.length);
    done(null, chunk);
  }

  head(): Buffer {
    return Buffer.concat(this.headParts);
  }
}

/**
 * The content-addressed store under FILES_DIR (decision 0084): a content lives at
 * `<dir>/<first two hex digits>/<sha256>`, written once whatever the number of attachments using
 * it. Uploads stream into `<dir>/tmp/` while hashed (never whole in memory) and are renamed into
 * place, which is atomic on one file system: a reader never sees half a file. Which contents may
 * be removed is the database's to say (attachments.repository.ts); this only moves bytes.
 */
export interface BlobStore {
  readonly dir: string;
  pathOf(sha256: string): string;
  /** Streams `source` to a temporary file; FileTooLarge past maxBytes (the partial file removed). */
  receive(source: Readable, maxBytes: number): Promise<ReceivedFile>;
  /** Moves a received file to its content's place (replacing an equal copy already there). */
  place(file: ReceivedFile): Promise<void>;
  /** Removes a temporary file that was not placed; nothing when it is gone already. */
  discard(file: ReceivedFile): Promise<void>;
  /** The content's bytes, or undefined when the file is missing. */
  open(sha256: string): Promise<Readable | undefined>;
  /** Removes contents no attachment uses; missing files are fine. */
  remove(sha256s: readonly string[]): Promise<void>;
  /** Removes temporary files older than an hour (uploads of a process that died). */
  sweepTemp(now: number): Promise<number>;
}

export function createBlobStore(filesDir: string): BlobStore {
  const dir = resolve(filesDir);
  const tempDir = join(dir, 'tmp');
  const pathOf = (sha256: string) => join(dir, sha256.slice(0, 2), sha256);

  return {
    dir,
    pathOf,
    async receive(source, maxBytes) {
      await mkdir(tempDir, { recursive: true });
      const tempPath = join(tempDir, `${randomUUID()}.part`);
      const meter = new Meter(maxBytes);
      try {
        await pipeline(source, meter, createWriteStream(tempPath, { flags: 'wx' }));
      } catch (error) {
        await rm(tempPath, { force: true });
        throw error;
      }
      return { tempPath, sha256: meter.hash.digest('hex'), size: meter.size, head: meter.head() };
    },
    async place(file) {
      await mkdir(join(dir, file.sha256.slice(0, 2)), { recursive: true });
      await rename(file.tempPath, pathOf(file.sha256));
    },
    async discard(file) {
      await rm(file.tempPath, { force: true });
    },
    async open(sha256) {
      const path = pathOf(sha256);
      try {
        await stat(path);
      } catch {
        return undefined;
      }
      // Counted as it is handed on (lib/gc-requests.ts); an error or an early close on either end ends both.
      return pipe(createReadStream(path), new PassedCount(), () => undefined);
    },
    async remove(sha256s) {
      for (const sha256 of sha256s) {
        await unlink(pathOf(sha256)).catch((error: NodeJS.ErrnoException) => {
          if (error.code !== 'ENOENT') throw error;
        });
      }
    },
    async sweepTemp(now) {
      let names: string[];
      try {
        names = await readdir(tempDir);
      } catch {
        return 0;
      }
      let removed = 0;
      for (const name of names) {
        const path = join(tempDir, name);
        const info = await stat(path).catch(() => undefined);
        if (info && now - info.mtimeMs > STALE_TEMP_MS) {
          await rm(path, { force: true });
          removed += 1;
        }
      }
      return removed;
    },
  };
}
