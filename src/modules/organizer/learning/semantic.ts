import { contentWords } from '../local/tokens.js';
import type { ProjectContext } from '../organizer.types.js';
import { ROUTING_PARAMS } from './params.js';
import type { WordVectors } from './word-vectors.js';

/**
 * Texts as unit vectors in one space of meaning: the mean of their words' vectors (word-vectors.ts),
 * or a sentence encoder's (sentence-vectors.ts). `vector` may cache (titles recur on every capture);
 * undefined when the space knows nothing of the text.
 */
export interface MeaningSpace {
  dims: number;
  /** The capture: not cached. */
  query(text: string): Float32Array | undefined;
  /** A title or a project's name: cached by the space. */
  vector(text: string): Float32Array | undefined;
}

/** The knobs of one space's softmax (the cosines of two spaces do not share a scale). */
export interface SemanticKnobs {
  /** Temperature of the softmax over the projects' nearness: lower is more decided. */
  temperature: number;
  /** The nearness at which "none of the projects" competes. */
  floor: number;
  /** Share of the prototype (vs the nearest titles) in a project's nearness. */
  prototypeWeight: number;
  /** Only a project's latest this many titles are read (its name always). */
  titles?: number;
}

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

const spaces = new WeakMap<WordVectors, MeaningSpace>();

/** The word vectors as a space of meaning (one per loaded vectors, so that the title cache is shared). */
export function wordSpace(v: WordVectors): MeaningSpace {
  let space = spaces.get(v);
  if (!space) {
    space = { dims: v.dims, query: (text) => textVector(v, text), vector: (title) => cachedVector(v, title) };
    spaces.set(v, space);
  }
  return space;
}

const WORD_KNOBS: SemanticKnobs = {
  get temperature() {
    return ROUTING_PARAMS.semanticTemperature;
  },
  get floor() {
    return ROUTING_PARAMS.semanticFloor;
  },
  get prototypeWeight() {
    return ROUTING_PARAMS.prototypeWeight;
  },
};

/** The sentence encoder's knobs (sentence-vectors.ts). */
export const SENTENCE_KNOBS: SemanticKnobs = {
  get temperature() {
    return ROUTING_PARAMS.sentenceTemperature;
  },
  get floor() {
    return ROUTING_PARAMS.sentenceFloor;
  },
  get prototypeWeight() {
    return ROUTING_PARAMS.sentencePrototypeWeight;
  },
  get titles() {
    return ROUTING_PARAMS.sentenceTitles;
  },
};

/** Weights of a project's best, second and third nearest titles (as for BM25). */
const TOP = [1, 0.5, 0.25];

/**
 * How near in meaning the text is to one project: the cosine to its three nearest titles (its name
 * counting as a title), mixed with the cosine to its prototype, the sum of those titles' vectors
 * (what the project is about, where a single title may be an outlier). That cosine is the sum of the
 * titles' cosines over the length of their sum, so it costs one more pass over the title vectors.
 */
function nearness(space: MeaningSpace, q: Float32Array, p: ProjectContext, knobs: SemanticKnobs): number {
  const sims: number[] = [];
  const prototype = new Float64Array(space.dims);
  const add = (title: string): void => {
    const t = space.vector(title);
    if (!t) return;
    // One pass: the cosine to this title, and the title added to the prototype.
    let s = 0;
    for (let d = 0; d < t.length; d++) {
      s += q[d]! * t[d]!;
      prototype[d]! += t[d]!;
    }
    sims.push(s);
  };
  for (const title of knobs.titles === undefined ? p.titles : p.titles.slice(0, knobs.titles)) add(title);
  if (!p.is_default) add(p.name);
  // A project with no known title is as far as can be.
  if (sims.length === 0) return -1;
  let norm = 0;
  for (let d = 0; d < prototype.length; d++) norm += prototype[d]! ** 2;
  const toPrototype = sims.reduce((a, b) => a + b, 0) / (Math.sqrt(norm) || 1);
  sims.sort((a, b) => b - a);
  const top = sims.slice(0, TOP.length);
  const nearest = top.reduce((s, x, i) => s + x * TOP[i]!, 0) / TOP.slice(0, top.length).reduce((a, b) => a + b, 0);
  return (1 - knobs.prototypeWeight) * nearest + knobs.prototypeWeight * toPrototype;
}

/**
 * How near in meaning the text is to each project (`nearness`), turned into a probability over the
 * projects (a softmax at the space's temperature). Undefined when the space knows nothing
 * of the text.
 */
export function semanticPosterior(
  spaceOrWords: MeaningSpace | WordVectors,
  text: string,
  projects: readonly ProjectContext[],
  knobs: SemanticKnobs = WORD_KNOBS,
): Map<string, number> | undefined {
  const space = 'query' in spaceOrWords ? spaceOrWords : wordSpace(spaceOrWords);
  const q = space.query(text);
  if (!q) return undefined;
  const scores = projects.map((p) => nearness(space, q, p, knobs));
  // "None of them" competes at the cosine `floor`: a text near no project is near none,
  // however the few projects rank among themselves.
  const top = Math.max(knobs.floor, ...scores);
  const exp = scores.map((s) => Math.exp((s - top) / knobs.temperature));
  const sum = exp.reduce((a, b) => a + b, 0) + Math.exp((knobs.floor - top) / knobs.temperature);
  return new Map(projects.map((p, i) => [p.id, exp[i]! / sum]));
}
