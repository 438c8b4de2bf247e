import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { baselineDir } from './paths.js';

/*
 * The baseline's deterministic corpus (bench/baseline/corpus.mjs), typed for the harness. Both
 * databases are filled from it and both servers get the same capture bodies and search terms, so
 * the two sides of a ratio do the same work on the same data.
 */

export interface CorpusItem {
  text: string;
  type: 'todo' | 'note';
}

export interface Corpus {
  /** The N seed items, identical for every caller given the same seed. */
  seedItems(n: number, seed?: number): Iterable<CorpusItem>;
  /** Pre-rendered `{ text, type }` JSON bodies for POST /capture. */
  captureBodies(count: number, seed?: number): string[];
  /** Word prefixes from very common to rare, one per search. */
  searchTerms(): string[];
  /** The contract's capture rule: title = first line, content_md = the rest or null. */
  splitText(text: string): { title: string; content_md: string | null };
}

/** The seed the baseline's `bench-seed` uses by default; passed to both sides explicitly. */
export const CORPUS_SEED = 42;

export async function loadCorpus(): Promise<Corpus> {
  return (await import(pathToFileURL(join(baselineDir(), 'corpus.mjs')).href)) as Corpus;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/i;

/** The Unix millisecond in a UUID v7 (its first 48 bits): the baseline's seed sets created_at to it. */
export function uuidv7Millis(id: string): number {
  if (!UUID.test(id)) throw new Error(`not a UUID v7: ${id}`);
  return Number.parseInt(id.slice(0, 8) + id.slice(9, 13), 16);
}
