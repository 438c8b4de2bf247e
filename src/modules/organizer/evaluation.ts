import { loadWordVectors } from './learning/word-vectors.js';
import type { ItemType } from '../../db/schema.js';
import { emptyModel } from './learning/routing-model.js';
import { seedModel } from './learning/seed.js';
import { routeProject, routingText } from './local/route-project.js';
import type { OrganizerEngine, ProjectContext } from './organizer.types.js';
import { loadSentenceEncoder, sentenceSpace } from './learning/sentence-vectors.js';
import { formatPrecisionAt, precisionAt, THRESHOLDS, type Outcome, type PrecisionAt } from './routing-evaluation.js';

/** Projects by name, each with the titles of the items already in it; `Inbox` is the default project. */
export type Profile = Record<string, string[]>;

export type EvalCase = [text: string, type: ItemType, project: string | null, due: string | null];

export interface EvalGroup {
  profile: string;
  timezone: string;
  now: string;
  cases: EvalCase[];
}

export interface EvalSet {
  groups: EvalGroup[];
}

export interface Miss {
  text: string;
  timezone: string;
  now: string;
  expected: string;
  got: string;
}

export interface Dimension {
  correct: number;
  total: number;
  misses: Miss[];
}

export interface EvalReport {
  engine: string;
  cases: number;
  date: Dimension;
  type: Dimension & { confusion: Record<ItemType, Record<ItemType, number>> };
  project: Dimension;
  /** The local router's precision at coverage over thresholds (whatever the engine). */
  routing: PrecisionAt[];
}

const INBOX = 'Inbox';

function contexts(profile: Profile): ProjectContext[] {
  // Names double as ids here, so the report can show them as they are.
  return Object.entries(profile).map(([name, titles]) => ({ id: name, name, is_default: name === INBOX, titles }));
}

const instant = (value: string | null): string => (value === null ? 'none' : new Date(value).toISOString());

/** Runs every case through the engine and scores date (exact instant), type and project. */
export async function evaluate(
  engine: OrganizerEngine,
  set: EvalSet,
  profiles: Record<string, Profile>,
  options = { sentenceEncoder: true },
): Promise<EvalReport> {
  const [vectors, encoder] = await Promise.all([loadWordVectors(), options.sentenceEncoder ? loadSentenceEncoder() : undefined]);
  const dim = (): Dimension => ({ correct: 0, total: 0, misses: [] });
  const report: EvalReport = {
    engine: engine.name,
    cases: 0,
    date: dim(),
    type: { ...dim(), confusion: { todo: { todo: 0, note: 0 }, note: { todo: 0, note: 0 } } },
    project: dim(),
    routing: [],
  };
  const outcomes: Outcome[] = [];
  const score = (d: Dimension, expected: string, got: string, c: { text: string; timezone: string; now: string }) => {
    d.total += 1;
    if (expected === got) d.correct += 1;
    else d.misses.push({ ...c, expected, got });
  };
  for (const group of set.groups) {
    const profile = profiles[group.profile];
    if (!profile) throw new Error(`the evaluation set names an unknown profile: ${group.profile}`);
    const projects = contexts(profile);
    // As the service does on a user's first organize: the model starts from their history.
    const model = emptyModel();
    seedModel(model, projects);
    for (const [text, type, project, due] of group.cases) {
      const decided = await engine.decide({ title: text, content_md: null, now: new Date(group.now), timezone: group.timezone, projects, model });
      const where = { text, timezone: group.timezone, now: group.now };
      report.cases += 1;
      score(report.date, instant(due), instant(decided.due_at), where);
      score(report.type, type, decided.type, where);
      report.type.confusion[type][decided.type] += 1;
      const chosen = decided.project_id === INBOX ? null : decided.project_id;
      score(report.project, project ?? 'none', chosen ?? 'none', where);
      const sentences = encoder && (await sentenceSpace(encoder, routingText(text, null), projects));
      const routed = routeProject(text, null, projects, model, { threshold: 0, vectors, sentences });
      outcomes.push({ truth: project, chosen: routed.projectId, confidence: routed.confidence, text, setup: group.profile });
    }
  }
  report.routing = THRESHOLDS.map((t) => precisionAt(outcomes, t));
  return report;
}

const pct = (d: Dimension): string => `${((100 * d.correct) / Math.max(1, d.total)).toFixed(1)}% (${d.correct}/${d.total})`;

/** The report as text: accuracies, the type confusion matrix, then every miss. */
export function formatReport(r: EvalReport): string {
  const lines = [
    `organizer evaluation: engine ${r.engine}, ${r.cases} captures`,
    '',
    `  date (exact instant)  ${pct(r.date)}`,
    `  type                  ${pct(r.type)}`,
    `  project               ${pct(r.project)}`,
    '',
    '  type confusion (rows: expected, columns: decided)',
    '              todo   note',
    `    todo    ${String(r.type.confusion.todo.todo).padStart(6)} ${String(r.type.confusion.todo.note).padStart(6)}`,
    `    note    ${String(r.type.confusion.note.todo).padStart(6)} ${String(r.type.confusion.note.note).padStart(6)}`,
    '',
    '  project: precision at coverage (local router)',
    '  threshold   coverage precision accuracy',
    ...r.routing.map((p) => `  ${String(p.threshold).padEnd(9)} ${formatPrecisionAt(p)}`),
  ];
  for (const [name, d] of [
    ['date', r.date],
    ['type', r.type],
    ['project', r.project],
  ] as const) {
    lines.push('', `  ${name} misses (${d.misses.length})`);
    for (const m of d.misses) lines.push(`    "${m.text}" [${m.timezone} ${m.now}]: expected ${m.expected}, got ${m.got}`);
  }
  return lines.join('\n');
}
