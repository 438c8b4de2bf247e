import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

/*
 * Collections asked for at known points of bulk work (decision 0110), where V8's own timing lets
 * memory pile up:
 * - A large transfer hands on a new buffer per chunk (socket reads on an upload, file reads on a
 *   download, the export zip's output chunks), garbage once the next stage has it. V8 frees a young
 *   array buffer's memory only at a young-generation collection, and starts one for array buffers
 *   alone only at twice its default semi-space (32 MiB on 64-bit, whatever the flags say): a 25 MiB
 *   upload raised RSS by up to 22 MiB. A scavenge every few MiB passed takes well under a millisecond.
 * - An import keeps each batch's rows alive across scavenges, so they are promoted and pile up in
 *   the old generation until V8's first major collection, far off: RSS grew with the rows (+74 MB at
 *   25,000, +124 MB at 100,000). A full collection every 20,000 rows (about 16 ms on the server's
 *   heap) keeps it flat.
 */

/** Bytes handed on between two young collections. */
export const COLLECT_EVERY_BYTES = 4 * 1024 * 1024;
/** Rows a bulk write handles between two full collections. */
export const COLLECT_FULLY_EVERY_ROWS = 20_000;

/**
 * V8's `gc`: no argument is a full collection, `{ type: 'minor' }` a scavenge (so is any other
 * object on Node 20: `{ type: 'major' }` is not read as major there).
 */
type Collect = (options?: { type: 'minor' }) => void;

/**
 * V8's `gc` function without starting Node with --expose-gc (a flag a user's own `node` command
 * line would have to carry): set the flag, read `gc` from a fresh context, unset it again so no
 * later context gets the global. The pattern jest's leak detector uses.
 */
function exposeCollector(): Collect | null {
  try {
    setFlagsFromString('--expose-gc');
    const collect: unknown = runInNewContext('gc');
    setFlagsFromString('--no-expose-gc');
    return typeof collect === 'function' ? (collect as Collect) : null;
  } catch {
    return null;
  }
}

let collector: Collect | null | undefined;
const collect = (full: boolean): void => {
  if (collector === undefined) collector = exposeCollector();
  if (full) collector?.();
  else collector?.({ type: 'minor' });
};

let bytesSinceCollection = 0;
let rowsSinceCollection = 0;

/** Counts bytes a stream has handed on; every COLLECT_EVERY_BYTES asks V8 for a young collection. */
export function notePassedBytes(bytes: number): void {
  bytesSinceCollection += bytes;
  if (bytesSinceCollection < COLLECT_EVERY_BYTES) return;
  bytesSinceCollection = 0;
  collect(false);
}

/** Counts rows a bulk write (an import) has handled; every COLLECT_FULLY_EVERY_ROWS asks V8 for a full collection. */
export function noteBulkRows(rows: number): void {
  rowsSinceCollection += rows;
  if (rowsSinceCollection < COLLECT_FULLY_EVERY_ROWS) return;
  rowsSinceCollection = 0;
  collect(true);
}
