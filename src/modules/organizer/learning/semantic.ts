import { contentWords } from '../local/tokens.js';
import type { ProjectContext } from '../organizer.types.js';
import { ROUTING_PARAMS } from './params.js';
import type { WordVectors } from './word-vectors.js';

/**
 * A text as the weighted mean of its known words' unit vectors, itself of unit length; undefined
 * when it has no known word. Rarer words weigh more (log of the frequency rank): "tub" says more
 * than "new".
 */
function textVector(v: WordVectors, text: string): Float32Array | undefined {
  const out = new Float32Array(v.dims);
  let known = false;
  for (const word of contentWords(text)) {
    // A plural the list lacks is looked up as its singular.
    const row = v.rows.get(word) ?? (word.endsWith('s') ? v.rows.get(word.slice(0, -1)) : undefined);
    if (row === undefined) continue;
    const at = row * v.dims;
    let norm = 0;
    for (let d = 0; d < v.dims; d++) norm += v.data[at + d]! ** 2;
    const k = Math.log(1 + (row + 1) / ROUTING_PARAMS.rankScale) / Math.sqrt(norm || 1);
    for (let d = 0; d < v.dims; d++) out[d]! += k * v.data[at + d]!;
    known = true;
  }
  if (!known) return undefined;
  let norm = 0;
  for (let d = 0; d < v.dims; d++) norm += out[d]! ** 2;
  const k = 1 / Math.sqrt(norm || 1);
  for (let d = 0; d < v.dims; d++) out[d]! *= k;
  return out;
}

/** Titles recur on every capture of a user: their vectors are kept, a bounded number, per process. */
const CACHE = 5000;
const cache = new Map<string, Float32Array | null>();
function cachedVector(v: WordVectors, title: string): Float32Array | undefined {
  let hit = cache.get(title);
  if (hit === undefined) {
    if (cache.size >= CACHE) cache.clear();
    hit = textVector(v, title) ?? null;
    cache.set(title, hit);
  }
  return hit ?? undefined;
}

/** Weights of a project's best, second and third nearest titles (as for BM25). */
const TOP = [1, 0.5, 0.25];

/**
 * How near in meaning the text is to one project: the cosine to its three nearest titles (its name
 * counting as a title), mixed with the cosine to its prototype, the sum of those titles' vectors
 * (what the project is about, where a single title may be an outlier). That cosine is the sum of the
 * titles' cosines over the length of their sum, so it costs one more pass over the title vectors.
 */
function nearness(v: WordVectors, q: Float32Array, p: ProjectContext): number {
  const sims: number[] = [];
  const prototype = new Float64Array(v.dims);
  const add = (title: string): void => {
    const t = cachedVector(v, title);
    if (!t) return;
    // One pass: the cosine to this title, and the title added to the prototype.
    let s = 0;
    for (let d = 0; d < t.length; d++) {
      s += q[d]! * t[d]!;
      prototype[d]! += t[d]!;
    }
    sims.push(s);
  };
  for (const title of p.titles) add(title);
  if (!p.is_default) add(p.name);
  // A project with no known title is as far as can be.
  if (sims.length === 0) return -1;
  let norm = 0;
  for (let d = 0; d < prototype.length; d++) norm += prototype[d]! ** 2;
  const toPrototype = sims.reduce((a, b) => a + b, 0) / (Math.sqrt(norm) || 1);
  sims.sort((a, b) => b - a);
  const top = sims.slice(0, TOP.length);
  const nearest = top.reduce((s, x, i) => s + x * TOP[i]!, 0) / TOP.slice(0, top.length).reduce((a, b) => a + b, 0);
  return (1 - ROUTING_PARAMS.prototypeWeight) * nearest + ROUTING_PARAMS.prototypeWeight * toPrototype;
}

/**
 * How near in meaning the text is to each project (`nearness`), turned into a probability over the
 * projects (a softmax with temperature `semanticTemperature`). Undefined when the text has no word
 * in the vectors.
 */
export function semanticPosterior(v: WordVectors, text: string, projects: readonly ProjectContext[]): Map<string, number> | undefined {
  const q = textVector(v, text);
  if (!q) return undefined;
  const scores = projects.map((p) => nearness(v, q, p));
  // "None of them" competes at the cosine `semanticFloor`: a text near no project is near none,
  // however the few projects rank among themselves.
  const top = Math.max(ROUTING_PARAMS.semanticFloor, ...scores);
  const exp = scores.map((s) => Math.exp((s - top) / ROUTING_PARAMS.semanticTemperature));
  const sum = exp.reduce((a, b) => a + b, 0) + Math.exp((ROUTING_PARAMS.semanticFloor - top) / ROUTING_PARAMS.semanticTemperature);
  return new Map(projects.map((p, i) => [p.id, exp[i]! / sum]));
}
