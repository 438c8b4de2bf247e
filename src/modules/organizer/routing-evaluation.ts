import { emptyModel, learn, type ModelData } from './learning/routing-model.js';
import { seedModel } from './learning/seed.js';
import { routeProject } from './local/route-project.js';
import type { WordVectors } from './learning/word-vectors.js';
import type { MeaningSpace } from './learning/semantic.js';
import type { ProjectContext } from './organizer.types.js';

/** A capture and where it belongs (null: it stays in the Inbox). */
export type RoutingCase = [text: string, project: string | null];

export interface RoutingSetup {
  name: string;
  /** Projects by name with their history (latest first); `Inbox` is the default project. */
  projects: Record<string, string[]>;
  /** Captures in the order they arrive; after each the user keeps or corrects the filing. */
  stream: RoutingCase[];
  /** Held out: not used to choose the rules or the threshold. */
  test: RoutingCase[];
}

export interface RoutingSet {
  setups: RoutingSetup[];
}

const INBOX = 'Inbox';

/** One user's state as the service keeps it: their projects with history, and their model; the word vectors are the process's. */
interface User {
  projects: ProjectContext[];
  model: ModelData;
  vectors: WordVectors | undefined;
  sentences?: MeaningSpace | undefined;
}

/** The process's spaces of meaning, shared by every user. */
export interface Meaning {
  vectors?: WordVectors | undefined;
  sentences?: MeaningSpace | undefined;
}

function newUser(setup: RoutingSetup, meaning: Meaning): User {
  // Names double as ids here, so a miss reads as it is.
  const projects = Object.entries(setup.projects).map(([name, titles]) => ({ id: name, name, is_default: name === INBOX, titles: [...titles] }));
  const model = emptyModel();
  seedModel(model, projects);
  return { projects, model, ...meaning, vectors: meaning.vectors };
}

const route = (user: User, text: string, threshold?: number) =>
  routeProject(text, null, user.projects, user.model, { threshold, vectors: user.vectors, sentences: user.sentences });

/**
 * What the user does after a capture, as the service learns it: a filing kept or a move out of the
 * Inbox teaches its project; an undo of a wrong filing teaches "stays"; an item rightly left in the
 * Inbox teaches nothing (nobody touches it). The item joins its project's history either way.
 */
function settle(user: User, id: string, text: string, chosen: string | null, truth: string | null): void {
  if (truth !== null || chosen !== null) learn(user.model, { itemId: id, text, projectId: truth ?? INBOX });
  user.projects.find((p) => p.id === (truth ?? INBOX))!.titles.unshift(text);
}

export interface Outcome {
  truth: string | null;
  chosen: string | null;
  confidence: number;
  text: string;
  setup: string;
}

function replay(setup: RoutingSetup, corrections: number, vectors: Meaning): { user: User; online: Outcome[] } {
  const user = newUser(setup, vectors);
  const online: Outcome[] = [];
  setup.stream.slice(0, corrections).forEach(([text, truth], i) => {
    const r = route(user, text);
    online.push({ truth, chosen: r.projectId, confidence: r.confidence, text, setup: setup.name });
    settle(user, `${setup.name}-${i}`, text, r.projectId, truth);
  });
  return { user, online };
}

/** Every test case with the best project and its confidence, the threshold left to the caller. */
function scoreTest(setup: RoutingSetup, user: User): Outcome[] {
  return setup.test.map(([text, truth]) => {
    const r = route(user, text, 0);
    return { truth, chosen: r.projectId, confidence: r.confidence, text, setup: setup.name };
  });
}

/** Folds of each stream for tuning: the model learns the rest of the stream, then decides the fold. */
const FOLDS = 5;

/** Cross-validation on the streams alone: the conditions of the held-out test, without touching it. */
function crossValidate(set: RoutingSet, vectors: Meaning): Outcome[] {
  return set.setups.flatMap((setup) =>
    Array.from({ length: FOLDS }, (_, fold) => {
      const user = newUser(setup, vectors);
      const held: RoutingCase[] = [];
      setup.stream.forEach(([text, truth], i) => {
        if (i % FOLDS === fold) held.push([text, truth]);
        else settle(user, `${setup.name}-${i}`, text, truth, truth);
      });
      return scoreTest({ ...setup, test: held }, user);
    }).flat(),
  );
}

const accuracy = (outcomes: Outcome[], threshold: number): number =>
  outcomes.filter((o) => (o.chosen !== null && o.confidence >= threshold ? o.chosen : null) === o.truth).length / Math.max(1, outcomes.length);

export interface PrecisionAt {
  threshold: number;
  /** Share of the captures filed into a project. */
  coverage: number;
  /** Share of those filings that are right. */
  precision: number;
  accuracy: number;
}

export function precisionAt(outcomes: Outcome[], threshold: number): PrecisionAt {
  const filed = outcomes.filter((o) => o.chosen !== null && o.confidence >= threshold);
  return {
    threshold,
    coverage: filed.length / Math.max(1, outcomes.length),
    precision: filed.filter((o) => o.chosen === o.truth).length / Math.max(1, filed.length),
    accuracy: accuracy(outcomes, threshold),
  };
}

export interface RoutingReport {
  captures: number;
  /** Held-out accuracy after 0, 10 and 50 corrections, at the shipped threshold. */
  curve: Array<{ corrections: number; accuracy: number }>;
  /** Accuracy of the replay as it happened (each capture decided before its correction). */
  replay: number;
  /** Precision at coverage on the streams, cross-validated (where the threshold is chosen), and on the held-out tests. */
  streamCurve: PrecisionAt[];
  testCurve: PrecisionAt[];
  /** The streams' cross-validated decisions, for frontiers finer than the thresholds above. */
  streamOutcomes: Outcome[];
  misses: Outcome[];
}

export const THRESHOLDS = [0, 0.1, 0.15, 0.2, 0.25, 0.3, 0.35, 0.4, 0.45, 0.5, 0.6];

export function evaluateRouting(set: RoutingSet, threshold: number, vectors?: WordVectors, sentences?: MeaningSpace): RoutingReport {
  const meaning: Meaning = { vectors, sentences };
  const full = set.setups.map((s) => replay(s, s.stream.length, meaning));
  const streamOutcomes = crossValidate(set, meaning);
  const tests = set.setups.map((s, i) => scoreTest(s, full[i]!.user)).flat();
  const curve = [0, 10, 50].map((k) => ({
    corrections: k,
    accuracy: accuracy(
      set.setups.flatMap((s) => scoreTest(s, replay(s, k, meaning).user)),
      threshold,
    ),
  }));
  return {
    captures: set.setups.reduce((n, s) => n + s.stream.length + s.test.length, 0),
    curve,
    replay: accuracy(
      full.flatMap((f) => f.online),
      0,
    ),
    streamCurve: THRESHOLDS.map((t) => precisionAt(streamOutcomes, t)),
    testCurve: THRESHOLDS.map((t) => precisionAt(tests, t)),
    streamOutcomes,
    misses: tests.filter((o) => (o.chosen !== null && o.confidence >= threshold ? o.chosen : null) !== o.truth),
  };
}

const pct = (x: number): string => `${(100 * x).toFixed(1)}%`;

export const formatPrecisionAt = (p: PrecisionAt): string => `${pct(p.coverage).padStart(8)} ${pct(p.precision).padStart(9)} ${pct(p.accuracy).padStart(8)}`;

export function formatRoutingReport(r: RoutingReport, threshold: number): string {
  const lines = [
    `routing evaluation: ${r.captures} captures, threshold ${threshold}`,
    '',
    `  replay (each decided before its correction)  ${pct(r.replay)}`,
    ...r.curve.map((c) => `  held-out accuracy after ${String(c.corrections).padStart(2)} corrections  ${pct(c.accuracy)}`),
    '',
    '  precision at coverage     streams, 5-fold (tuning)      held-out tests',
    '  threshold   coverage precision accuracy    coverage precision accuracy',
  ];
  r.streamCurve.forEach((s, i) => {
    const t = r.testCurve[i]!;
    lines.push(`  ${String(s.threshold).padEnd(9)} ${formatPrecisionAt(s)}    ${formatPrecisionAt(t)}`);
  });
  lines.push('', `  held-out misses (${r.misses.length})`);
  for (const m of r.misses) lines.push(`    [${m.setup}] "${m.text}": expected ${m.truth ?? 'none'}, got ${m.chosen ?? 'none'} (${m.confidence.toFixed(2)})`);
  return lines.join('\n');
}
