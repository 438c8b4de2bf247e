import { featureWeight, routingFeatures } from './features.js';
import { ROUTING_PARAMS } from './params.js';

/**
 * A user's routing model as stored (JSON): a multinomial naive Bayes over the features of
 * `routingFeatures`, one class per project (the Inbox is a class too: "stays"). Counts only, so an
 * example is learned or unlearned in time proportional to its own features, never a pass over all.
 */
export interface ModelData {
  v: 1;
  /** Project ids; the other arrays index into this one. */
  classes: string[];
  /** Examples learned per class. */
  docs: number[];
  /** Feature mass per class (the sum of its counts). */
  mass: number[];
  /** Feature → flat [class, count, class, count, …]. */
  features: Record<string, number[]>;
  /** The latest items learned and their class, so a later correction can take the old label back. */
  recent: Array<[itemId: string, cls: number]>;
  /** True once built from the user's history; until then only examples since are in it. */
  seeded: boolean;
  /** How many features there are (kept, so a learn need not count them). */
  size: number;
}

/** The bound on a user's model: features kept (the rarest go first) and items remembered for corrections. */
export const MAX_FEATURES = 3000;
const PRUNE_TO = 2400;
const MAX_RECENT = 200;
/**
 * Filings awaiting confirmation (`organizer_filings`, decision 0114): past this, the oldest are
 * forgotten unlearned, down to PENDING_PRUNE_TO, so the bound costs a write once in many captures.
 */
export const MAX_PENDING = 200;
export const PENDING_PRUNE_TO = 150;

export const emptyModel = (): ModelData => ({ v: 1, classes: [], docs: [], mass: [], features: {}, recent: [], seeded: false, size: 0 });

/** Tolerates what it cannot read (a row written by another version): the user starts afresh. */
export function parseModel(json: string | null | undefined): ModelData {
  if (!json) return emptyModel();
  try {
    const m = JSON.parse(json) as Partial<ModelData>;
    if (m.v !== 1 || !Array.isArray(m.classes) || !Array.isArray(m.docs) || !Array.isArray(m.mass) || !m.features || !Array.isArray(m.recent)) {
      return emptyModel();
    }
    const size = Object.keys(m.features).length;
    return { v: 1, classes: m.classes, docs: m.docs, mass: m.mass, features: m.features, recent: m.recent, seeded: m.seeded === true, size };
  } catch {
    return emptyModel();
  }
}

function classIndex(m: ModelData, projectId: string): number {
  let i = m.classes.indexOf(projectId);
  if (i < 0) {
    i = m.classes.push(projectId) - 1;
    m.docs.push(0);
    m.mass.push(0);
  }
  return i;
}

function addCount(m: ModelData, feature: string, cls: number, delta: number): void {
  const cell = m.features[feature] ?? [];
  let j = 0;
  while (j < cell.length && cell[j] !== cls) j += 2;
  if (j >= cell.length) {
    if (delta <= 0) return;
    if (cell.length === 0) m.size += 1;
    cell.push(cls, 0);
  }
  const next = Math.max(0, cell[j + 1]! + delta);
  m.mass[cls] = Math.max(0, m.mass[cls]! + (next - cell[j + 1]!));
  if (next === 0) cell.splice(j, 2);
  else cell[j + 1] = next;
  if (cell.length === 0) {
    delete m.features[feature];
    m.size -= 1;
  } else m.features[feature] = cell;
}

/** Drops the rarest features once over the bound, down to PRUNE_TO, so the cost is paid rarely. */
function prune(m: ModelData): void {
  if (m.size <= MAX_FEATURES) return;
  const keys = Object.keys(m.features);
  const total = (cell: number[]) => cell.reduce((n, v, k) => (k % 2 === 1 ? n + v : n), 0);
  const ranked = keys.map((k) => ({ k, n: total(m.features[k]!) })).sort((a, b) => a.n - b.n || (a.k < b.k ? -1 : 1));
  for (const { k } of ranked.slice(0, keys.length - PRUNE_TO)) {
    const cell = m.features[k]!;
    for (let j = 0; j < cell.length; j += 2) m.mass[cell[j]!] = Math.max(0, m.mass[cell[j]!]! - cell[j + 1]!);
    delete m.features[k];
  }
  m.size = PRUNE_TO;
}

function count(m: ModelData, text: string, cls: number, sign: 1 | -1): void {
  for (const f of routingFeatures(text)) addCount(m, f, cls, sign);
  m.docs[cls] = Math.max(0, m.docs[cls]! + sign);
}

/**
 * One labelled example: `text` belongs in `projectId`. When `itemId` was learned before under
 * another project (an organizer filing, then the user's move or undo), that label is taken back.
 */
export function learn(m: ModelData, example: { itemId?: string; text: string; projectId: string }): void {
  const cls = classIndex(m, example.projectId);
  if (example.itemId) {
    const at = m.recent.findIndex(([id]) => id === example.itemId);
    if (at >= 0) {
      const [[, old]] = m.recent.splice(at, 1) as [[string, number]];
      if (old === cls) {
        m.recent.push([example.itemId, cls]);
        return;
      }
      count(m, example.text, old, -1);
    }
    m.recent.push([example.itemId, cls]);
    if (m.recent.length > MAX_RECENT) m.recent.splice(0, m.recent.length - MAX_RECENT);
  }
  count(m, example.text, cls, 1);
  prune(m);
}

export interface Posterior {
  /** Probability per candidate project id (sums to 1 over the candidates). */
  p: Map<string, number>;
  /** In-model features of the text, for the explanation. */
  known: string[];
}

/**
 * How likely each candidate project is for the text. The log-likelihood is divided by the square
 * root of the number of features, which tempers naive Bayes' overconfidence on correlated features;
 * a text with no feature the model knows is equally likely everywhere.
 */
export function posterior(m: ModelData, text: string, candidates: readonly string[]): Posterior {
  const known = routingFeatures(text).filter((f) => m.features[f] !== undefined);
  // Without a known feature the model knows nothing of this text: the classes' sizes alone are no
  // reason to file it (a user whose only filed items are in Garden is not told "call grandma" is Garden's).
  if (known.length === 0) return { p: new Map(candidates.map((id) => [id, 1 / candidates.length])), known };
  const vocab = m.size + 1;
  const totalDocs = m.docs.reduce((a, b) => a + b, 0);
  const scale = 1 / Math.max(1, known.length) ** ROUTING_PARAMS.temper;
  const logs = candidates.map((id) => {
    const cls = m.classes.indexOf(id);
    const docs = cls < 0 ? 0 : m.docs[cls]!;
    const mass = cls < 0 ? 0 : m.mass[cls]!;
    let ll = 0;
    for (const f of known) {
      const cell = m.features[f]!;
      let n = 0;
      for (let j = 0; j < cell.length; j += 2) if (cell[j] === cls) n = cell[j + 1]!;
      ll += featureWeight(f) * Math.log((n + ROUTING_PARAMS.alpha) / (mass + ROUTING_PARAMS.alpha * vocab));
    }
    return Math.log((docs + 1) / (totalDocs + candidates.length)) + ll * scale;
  });
  const top = Math.max(...logs);
  const exp = logs.map((l) => Math.exp(l - top));
  const sum = exp.reduce((a, b) => a + b, 0);
  return { p: new Map(candidates.map((id, i) => [id, exp[i]! / sum])), known };
}

/** Forgets classes of projects that no longer exist (their counts go with them). */
export function keepClasses(m: ModelData, projectIds: ReadonlySet<string>): void {
  const gone = m.classes.flatMap((id, i) => (projectIds.has(id) ? [] : [i]));
  if (gone.length === 0) return;
  const remap = new Map<number, number>();
  const classes: string[] = [];
  m.classes.forEach((id, i) => {
    if (projectIds.has(id)) remap.set(i, classes.push(id) - 1);
  });
  for (const [f, cell] of Object.entries(m.features)) {
    const next: number[] = [];
    for (let j = 0; j < cell.length; j += 2) {
      const to = remap.get(cell[j]!);
      if (to !== undefined) next.push(to, cell[j + 1]!);
    }
    if (next.length === 0) {
      delete m.features[f];
      m.size -= 1;
    } else m.features[f] = next;
  }
  m.docs = m.docs.filter((_, i) => remap.has(i));
  m.mass = m.mass.filter((_, i) => remap.has(i));
  m.recent = m.recent.flatMap(([id, c]) => (remap.has(c) ? [[id, remap.get(c)!] as [string, number]] : []));
  m.classes = classes;
}
