import { createHash } from 'node:crypto';
import { Readable, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import yauzl, { type Entry, type ZipFile as ZipReader } from 'yauzl';
import { AppError, badRequest } from '../../errors.js';
import type { AttachmentView } from '../../schemas/item.js';
import { zipStream } from './zip-writer.js';

/*
 * The zip form of the export (contract "Attachments"): `export.json`, the export document, and
 * `files/<sha256>`, each stored content once. zip-writer.ts writes it as it is read (decision 0104
 * says why not yazl any more); yauzl reads it from a file on disk (the zip's directory is at its end).
 */

const EXPORT_ENTRY = 'export.json';
const FILES_PREFIX = 'files/';
/** No entry of an import inflates past this: the largest attachment a plan allows. */
const MAX_ENTRY_BYTES = 25 * 1024 * 1024;
/** A zip with more entries than this is not an export of ours. */
const MAX_ENTRIES = 200_000;

/** The zip export: the document as it streams, then each content once (missing files are left out). */
export function zipExport(document: Readable, files: readonly AttachmentView[], pathOf: (sha256: string) => string): Readable {
  const contents = new Set(files.map((file) => file.sha256));
  return zipStream(
    { name: EXPORT_ENTRY, source: document },
    [...contents].map((sha256) => ({ name: `${FILES_PREFIX}${sha256}`, path: pathOf(sha256) })),
  );
}

const refuse = (message: string): AppError => badRequest(message, 'body');

/** Absolute names (`/x`, `C:x`, `\\x`) and any `..` segment are refused; yauzl refuses them too. */
function checkName(name: string): void {
  if (name.startsWith('/') || name.startsWith('\\') || /^[A-Za-z]:/.test(name))
    throw refuse(`the zip has an entry with an absolute name (${JSON.stringify(name)}); nothing was imported`);
  if (name.split(/[/\\]/).includes('..')) throw refuse(`the zip has an entry whose name leaves its folder (${JSON.stringify(name)}); nothing was imported`);
}

/** An opened import zip whose entries were all checked by name and declared size. */
export interface ZipImport {
  document: unknown;
  /** Streams a content's entry, failing past 25 MiB or when it inflates to other than its header says. */
  open(sha256: string): Promise<Readable>;
  close(): void;
}

/** Counts and hashes a content without keeping it: the check of every file before anything is imported. */
async function measure(stream: Readable): Promise<{ size: number; sha256: string }> {
  const hash = createHash('sha256');
  let size = 0;
  await pipeline(
    stream,
    new Writable({
      write(chunk: Buffer, _encoding, done) {
        size += chunk.length;
        if (size > MAX_ENTRY_BYTES) {
          done(refuse('an entry of the zip inflates past 25 MiB; nothing was imported'));
          return;
        }
        hash.update(chunk);
        done();
      },
    }),
  );
  return { size, sha256: hash.digest('hex') };
}

const readEntry = async (zip: ZipReader, entry: Entry): Promise<Readable> => {
  try {
    return await zip.openReadStreamPromise(entry);
  } catch (error) {
    throw refuse(`the zip entry ${entry.fileName} cannot be read (${(error as Error).message}); nothing was imported`);
  }
};

/**
 * Opens an import zip on disk: every entry name and declared size is checked, the document read,
 * and every file the document names inflated once, counted and hashed against its name. Any fault
 * is 400 before the caller imports anything.
 */
export async function openZipImport(path: string, files: (document: unknown) => readonly string[]): Promise<ZipImport> {
  let zip: ZipReader;
  try {
    zip = await yauzl.openPromise(path, { lazyEntries: true, autoClose: false, validateEntrySizes: true, strictFileNames: true });
  } catch (error) {
    throw refuse(`the body is not a zip archive that can be read (${(error as Error).message})`);
  }
  try {
    const entries = new Map<string, Entry>();
    try {
      for await (const entry of zip.eachEntry()) {
        checkName(entry.fileName);
        if (entry.uncompressedSize > MAX_ENTRY_BYTES) throw refuse(`the zip entry ${entry.fileName} inflates past 25 MiB; nothing was imported`);
        entries.set(entry.fileName, entry);
        if (entries.size > MAX_ENTRIES) throw refuse('the zip has too many entries to be an export; nothing was imported');
      }
    } catch (error) {
      if (error instanceof AppError) throw error;
      // yauzl's own refusals: absolute or `..` names, a broken directory.
      throw refuse(`the zip cannot be read: ${(error as Error).message}; nothing was imported`);
    }
    const documentEntry = entries.get(EXPORT_ENTRY);
    if (!documentEntry) throw refuse(`the zip has no ${EXPORT_ENTRY}: send a zip made by GET /export?format=zip`);
    const chunks: Buffer[] = [];
    await pipeline(await readEntry(zip, documentEntry), async function* (source: AsyncIterable<Buffer>) {
      let size = 0;
      for await (const chunk of source) {
        size += chunk.length;
        if (size > MAX_ENTRY_BYTES) throw refuse(`${EXPORT_ENTRY} inflates past 25 MiB; nothing was imported`);
        chunks.push(chunk);
      }
      yield* [];
    }).catch((error: unknown) => {
      throw error instanceof AppError ? error : refuse(`${EXPORT_ENTRY} cannot be inflated: ${(error as Error).message}`);
    });
    let document: unknown;
    try {
      document = JSON.parse(Buffer.concat(chunks).toString('utf8'));
    } catch {
      throw refuse(`${EXPORT_ENTRY} is not JSON`);
    }
    const contentEntry = (sha256: string): Entry => {
      const entry = entries.get(`${FILES_PREFIX}${sha256}`);
      if (!entry) throw refuse(`the zip lacks ${FILES_PREFIX}${sha256}, which ${EXPORT_ENTRY} names; nothing was imported`);
      return entry;
    };
    for (const sha256 of new Set(files(document))) {
      const measured = await measure(await readEntry(zip, contentEntry(sha256))).catch((error: unknown) => {
        throw error instanceof AppError ? error : refuse(`the zip entry ${FILES_PREFIX}${sha256} cannot be inflated: ${(error as Error).message}`);
      });
      if (measured.sha256 !== sha256) throw refuse(`the zip entry ${FILES_PREFIX}${sha256} does not hold the content its name says; nothing was imported`);
    }
    return { document, open: (sha256) => readEntry(zip, contentEntry(sha256)), close: () => zip.close() };
  } catch (error) {
    zip.close();
    throw error;
  }
}
