import { open } from 'node:fs/promises';
import { pipeline, Readable } from 'node:stream';
import { crc32, createDeflateRaw } from 'node:zlib';
import { notePassedBytes } from '../../lib/gc-requests.js';

/*
 * A zip writer for the export (decision 0104): one deflated entry streamed from text, then stored
 * files. yazl sent every file through five streams and computed CRC-32 in JavaScript, which kept
 * the export at half the speed of reading the files (bench:files); here a file is read straight
 * into the output buffer beside its header and its CRC-32 is zlib's. Small files share one output
 * chunk; a file larger than a chunk is read a chunk at a time and followed by a data descriptor.
 */

/** Bytes of one output chunk: small files are packed into it, larger ones read in pieces of this size. */
const CHUNK_BYTES = 1024 * 1024;
const LOCAL_HEADER = 30;
const CENTRAL_HEADER = 46;
const DESCRIPTOR = 16;
const ZIP64_EXTRA = 12;
const ZIP64_END = 56;
const ZIP64_LOCATOR = 20;
const END = 22;
const MAX_16 = 0xffff;
const MAX_32 = 0xffffffff;
/** UTF-8 names (bit 11), and for entries written before their CRC is known, a data descriptor (bit 3). */
const FLAG_UTF8 = 0x0800;
const FLAG_DESCRIPTOR = 0x0008;
const STORED = 0;
const DEFLATED = 8;
/** Made by Unix (3), spec 4.5, so the external attributes are read as a file mode. */
const MADE_BY = (3 << 8) | 45;
const FILE_MODE = 0o100644;

export interface ZipWriterOptions {
  /** The zip64 end record and offsets even when nothing needs them (as yazl's forceZip64Format): for tests. */
  forceZip64?: boolean;
  now?: Date;
}

interface Written {
  name: Buffer;
  flags: number;
  method: number;
  crc: number;
  compressed: number;
  size: number;
  offset: number;
}

function dosDateTime(date: Date): { time: number; day: number } {
  const time = (date.getHours() << 11) | (date.getMinutes() << 5) | Math.floor(date.getSeconds() / 2);
  const day = ((Math.max(1980, date.getFullYear()) - 1980) << 9) | ((date.getMonth() + 1) << 5) | date.getDate();
  return { time, day };
}

function writeLocalHeader(out: Buffer, at: number, entry: Omit<Written, 'offset'>, stamp: { time: number; day: number }): number {
  const known = (entry.flags & FLAG_DESCRIPTOR) === 0;
  out.writeUInt32LE(0x04034b50, at);
  out.writeUInt16LE(20, at + 4);
  out.writeUInt16LE(entry.flags, at + 6);
  out.writeUInt16LE(entry.method, at + 8);
  out.writeUInt16LE(stamp.time, at + 10);
  out.writeUInt16LE(stamp.day, at + 12);
  out.writeUInt32LE(known ? entry.crc : 0, at + 14);
  out.writeUInt32LE(known ? entry.compressed : 0, at + 18);
  out.writeUInt32LE(known ? entry.size : 0, at + 22);
  out.writeUInt16LE(entry.name.length, at + 26);
  out.writeUInt16LE(0, at + 28);
  entry.name.copy(out, at + LOCAL_HEADER);
  return at + LOCAL_HEADER + entry.name.length;
}

function descriptor(entry: Written): Buffer {
  const out = Buffer.allocUnsafe(DESCRIPTOR);
  out.writeUInt32LE(0x08074b50, 0);
  out.writeUInt32LE(entry.crc, 4);
  out.writeUInt32LE(entry.compressed, 8);
  out.writeUInt32LE(entry.size, 12);
  return out;
}

function centralDirectory(entries: readonly Written[], start: number, stamp: { time: number; day: number }, force: boolean): Buffer {
  const zip64Offset = (entry: Written) => force || entry.offset >= MAX_32;
  let bytes = 0;
  for (const entry of entries) bytes += CENTRAL_HEADER + entry.name.length + (zip64Offset(entry) ? ZIP64_EXTRA : 0);
  const directorySize = bytes;
  const zip64 = force || entries.length >= MAX_16 || start >= MAX_32 || directorySize >= MAX_32;
  const out = Buffer.alloc(bytes + (zip64 ? ZIP64_END + ZIP64_LOCATOR : 0) + END);
  let at = 0;
  for (const entry of entries) {
    const extra = zip64Offset(entry);
    out.writeUInt32LE(0x02014b50, at);
    out.writeUInt16LE(MADE_BY, at + 4);
    out.writeUInt16LE(extra ? 45 : 20, at + 6);
    out.writeUInt16LE(entry.flags, at + 8);
    out.writeUInt16LE(entry.method, at + 10);
    out.writeUInt16LE(stamp.time, at + 12);
    out.writeUInt16LE(stamp.day, at + 14);
    out.writeUInt32LE(entry.crc, at + 16);
    out.writeUInt32LE(entry.compressed, at + 20);
    out.writeUInt32LE(entry.size, at + 24);
    out.writeUInt16LE(entry.name.length, at + 28);
    out.writeUInt16LE(extra ? ZIP64_EXTRA : 0, at + 30);
    out.writeUInt32LE((FILE_MODE << 16) >>> 0, at + 38);
    out.writeUInt32LE(extra ? MAX_32 : entry.offset, at + 42);
    entry.name.copy(out, at + CENTRAL_HEADER);
    at += CENTRAL_HEADER + entry.name.length;
    if (extra) {
      // Only the field the record marks 0xffffffff: the local header's offset.
      out.writeUInt16LE(0x0001, at);
      out.writeUInt16LE(8, at + 2);
      out.writeBigUInt64LE(BigInt(entry.offset), at + 4);
      at += ZIP64_EXTRA;
    }
  }
  if (zip64) {
    const recordAt = start + directorySize;
    out.writeUInt32LE(0x06064b50, at);
    out.writeBigUInt64LE(BigInt(ZIP64_END - 12), at + 4);
    out.writeUInt16LE(MADE_BY, at + 12);
    out.writeUInt16LE(45, at + 14);
    out.writeBigUInt64LE(BigInt(entries.length), at + 24);
    out.writeBigUInt64LE(BigInt(entries.length), at + 32);
    out.writeBigUInt64LE(BigInt(directorySize), at + 40);
    out.writeBigUInt64LE(BigInt(start), at + 48);
    at += ZIP64_END;
    out.writeUInt32LE(0x07064b50, at);
    out.writeBigUInt64LE(BigInt(recordAt), at + 8);
    out.writeUInt32LE(1, at + 16);
    at += ZIP64_LOCATOR;
  }
  out.writeUInt32LE(0x06054b50, at);
  out.writeUInt16LE(zip64 ? MAX_16 : entries.length, at + 8);
  out.writeUInt16LE(zip64 ? MAX_16 : entries.length, at + 10);
  out.writeUInt32LE(zip64 ? MAX_32 : directorySize, at + 12);
  out.writeUInt32LE(zip64 ? MAX_32 : start, at + 16);
  return out;
}

/** Reads exactly `length` bytes at `position`; a file shorter than its stat said is an error, not a short entry. */
async function readFully(file: Awaited<ReturnType<typeof open>>, into: Buffer, at: number, length: number, position: number): Promise<void> {
  let done = 0;
  while (done < length) {
    const { bytesRead } = await file.read(into, at + done, length - done, position + done);
    if (bytesRead === 0) throw new Error('a file of the export shrank while it was read');
    done += bytesRead;
  }
}

/**
 * The zip of `text` (deflated, as `textName`) then each file at its path under its name, in order;
 * a file missing on disk is left out. Nothing is held but the current chunk and the directory.
 */
export function zipStream(
  text: { name: string; source: AsyncIterable<string | Buffer> },
  files: Iterable<{ name: string; path: string }>,
  options: ZipWriterOptions = {},
): Readable {
  const stamp = dosDateTime(options.now ?? new Date());
  const force = options.forceZip64 === true;

  async function* generate(): AsyncGenerator<Buffer> {
    const entries: Written[] = [];
    let offset = 0;

    const textEntry: Written = { name: Buffer.from(text.name), flags: FLAG_UTF8 | FLAG_DESCRIPTOR, method: DEFLATED, crc: 0, compressed: 0, size: 0, offset };
    const header = Buffer.allocUnsafe(LOCAL_HEADER + textEntry.name.length);
    writeLocalHeader(header, 0, textEntry, stamp);
    yield header;
    const deflated = pipeline(
      text.source,
      async function* (source: AsyncIterable<string | Buffer>) {
        for await (const chunk of source) {
          const bytes = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
          textEntry.crc = crc32(bytes, textEntry.crc);
          textEntry.size += bytes.length;
          yield bytes;
        }
      },
      createDeflateRaw(),
      () => undefined,
    );
    for await (const chunk of deflated as AsyncIterable<Buffer>) {
      textEntry.compressed += chunk.length;
      yield chunk;
    }
    const textDescriptor = descriptor(textEntry);
    yield textDescriptor;
    entries.push(textEntry);
    offset += header.length + textEntry.compressed + textDescriptor.length;

    let chunk = Buffer.allocUnsafe(CHUNK_BYTES);
    let used = 0;
    for (const file of files) {
      let handle: Awaited<ReturnType<typeof open>>;
      try {
        handle = await open(file.path, 'r');
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') continue;
        throw error;
      }
      try {
        const { size } = await handle.stat();
        const name = Buffer.from(file.name);
        const whole = LOCAL_HEADER + name.length + size;
        if (whole <= CHUNK_BYTES) {
          // Header and bytes side by side in the chunk: one read, no copy, CRC known before the header.
          if (used + whole > CHUNK_BYTES) {
            yield chunk.subarray(0, used);
            chunk = Buffer.allocUnsafe(CHUNK_BYTES);
            used = 0;
          }
          const dataAt = used + LOCAL_HEADER + name.length;
          await readFully(handle, chunk, dataAt, size, 0);
          const entry: Written = { name, flags: FLAG_UTF8, method: STORED, crc: crc32(chunk.subarray(dataAt, dataAt + size)), compressed: size, size, offset };
          writeLocalHeader(chunk, used, entry, stamp);
          entries.push(entry);
          used += whole;
          offset += whole;
          continue;
        }
        if (used > 0) {
          yield chunk.subarray(0, used);
          chunk = Buffer.allocUnsafe(CHUNK_BYTES);
          used = 0;
        }
        const entry: Written = { name, flags: FLAG_UTF8 | FLAG_DESCRIPTOR, method: STORED, crc: 0, compressed: size, size, offset };
        const head = Buffer.allocUnsafe(LOCAL_HEADER + name.length);
        writeLocalHeader(head, 0, entry, stamp);
        yield head;
        for (let position = 0; position < size; position += CHUNK_BYTES) {
          const piece = Buffer.allocUnsafe(Math.min(CHUNK_BYTES, size - position));
          await readFully(handle, piece, 0, piece.length, position);
          entry.crc = crc32(piece, entry.crc);
          yield piece;
        }
        yield descriptor(entry);
        entries.push(entry);
        offset += head.length + size + DESCRIPTOR;
      } finally {
        await handle.close();
      }
    }
    if (used > 0) yield chunk.subarray(0, used);
    yield centralDirectory(entries, offset, stamp, force);
  }

  async function* counted(): AsyncGenerator<Buffer> {
    for await (const chunk of generate()) {
      notePassedBytes(chunk.length);
      yield chunk;
    }
  }

  // Bytes, not objects: the stream asks for the next chunk only once the last one is on its way.
  return Readable.from(counted(), { objectMode: false, highWaterMark: CHUNK_BYTES });
}
