import type { ProjectContext } from '../organizer.types.js';
import { ROUTING_PARAMS } from '../learning/params.js';
import { posterior, type ModelData } from '../learning/routing-model.js';
import { SENTENCE_KNOBS, semanticPosterior, wordSpace, type MeaningSpace } from '../learning/semantic.js';
import type { WordVectors } from '../learning/word-vectors.js';
import { contentTokens, tokenWeight } from './tokens.js';

export interface Routing {
  /** The chosen project, or null to leave the item where it is. */
  projectId: string | null;
  /** The title with a `#Project` tag that chose the project removed. */
  title: string;
  how: 'hashtag' | 'mention' | 'similarity' | 'none';
  /** How sure the choice is, 0..1 (1 for a tag or a name). */
  confidence: number;
  /** A short phrase saying why: "like 6 items in Work: offsite, agenda". */
  reason: string;
}

/** BM25 constants (the usual ones) and the bar a similarity match must clear to move an item. */
const K1 = 1.2;
const B = 0.75;
const MIN_SCORE = 1.5;
const MIN_SHARE = 0.6;

/** Weights of a project's best, second and third most similar items. */
const TOP_WEIGHTS = [1, 0.5, 0.25];

const slug = (s: string): string =>
  s
    .toLowerCase()
    .normalize('NFKD')
    .replace(/[^\p{L}\p{N}]+/gu, '');
const escape = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
/** A project name as a phrase: any run of spaces or dashes between its words, an optional plural or possessive. */
const namePattern = (name: string): string =>
  name
    .trim()
    .split(/[\s\-_]+/)
    .map(escape)
    .join('[\\s\\-_]*') + "(?:'s|’s|s)?";

function byHashtag(title: string, content: string, projects: ProjectContext[]): Routing | undefined {
  for (const m of `${title}\n${content}`.matchAll(/(?:^|\s)#([\p{L}\p{N}_-]+)/gu)) {
    const project = projects.find((p) => slug(p.name) === slug(m[1]!));
    if (!project) continue;
    const cleaned = title
      .replace(new RegExp(`(^|\\s)#${escape(m[1]!)}(?=$|[\\s,.;:!?])`, 'u'), '$1')
      .replace(/\s{2,}/g, ' ')
      .trim();
    return { projectId: project.id, title: cleaned === '' ? title : cleaned, how: 'hashtag', confidence: 1, reason: `tagged #${m[1]!}` };
  }
  return undefined;
}

/**
 * "Garden: …", "for work", "to the Garden list", "@home", or the name written as the project is
 * ("Client Acme", not "after work" nor "Home Depot"); the longest name wins a tie.
 */
function byMention(text: string, projects: ProjectContext[]): Routing | undefined {
  const named = projects.filter((p) => !p.is_default).sort((a, b) => b.name.length - a.name.length);
  const found = (p: ProjectContext): Routing => ({ projectId: p.id, title: '', how: 'mention', confidence: 1, reason: `names ${p.name}` });
  for (const p of named) {
    if (new RegExp(`^\\s*${namePattern(p.name)}\\s*:`, 'iu').test(text)) return found(p);
  }
  // A text naming two projects in any case ("budget for the team offsite" with Budget and Team) is
  // not settled by the one after "for": the evidence decides between them.
  if (named.filter((p) => new RegExp(`(?:^|[^\\p{L}\\p{N}])${namePattern(p.name)}(?![\\p{L}\\p{N}])`, 'iu').test(text)).length > 1) return undefined;
  for (const p of named) {
    const lead = '(?:^|[\\s(])(?:for|into|under|re:?|@)\\s*(?:the\\s+|my\\s+|our\\s+)?';
    if (new RegExp(`${lead}${namePattern(p.name)}(?![\\p{L}\\p{N}])`, 'iu').test(text)) return found(p);
  }
  for (const p of named) {
    // Case as in the project's name, and not the start of a longer proper name ("Home Depot").
    if (new RegExp(`(?:^|[^\\p{L}\\p{N}])${namePattern(p.name)}(?![\\p{L}\\p{N}])(?!\\s+\\p{Lu})`, 'u').test(text)) return found(p);
  }
  return undefined;
}

interface Doc {
  projectId: string;
  tf: Map<string, number>;
  length: number;
}

interface Ranked {
  id: string;
  score: number;
  /** How many of the project's items share a word with the text. */
  alike: number;
  /** The shared (stemmed) words, most telling first. */
  words: string[];
}

/** Projects by BM25 similarity of their items' titles to the text, best first. */
function rankProjects(query: string[], projects: ProjectContext[]): Ranked[] {
  if (query.length === 0) return [];
  const docs: Doc[] = [];
  for (const p of projects) {
    // The project's own name is one more document of it, so a project without history can still match.
    for (const title of [...p.titles, ...(p.is_default ? [] : [p.name])]) {
      const tokens = contentTokens(title);
      if (tokens.length === 0) continue;
      const tf = new Map<string, number>();
      for (const t of tokens) tf.set(t, (tf.get(t) ?? 0) + 1);
      docs.push({ projectId: p.id, tf, length: tokens.length });
    }
  }
  if (docs.length === 0) return [];
  const avg = docs.reduce((n, d) => n + d.length, 0) / docs.length;
  const idf = new Map<string, number>();
  for (const t of query) {
    const n = docs.filter((d) => d.tf.has(t)).length;
    idf.set(t, Math.log(1 + (docs.length - n + 0.5) / (n + 0.5)));
  }
  const perProject = new Map<string, { scores: number[]; words: Map<string, number> }>();
  for (const d of docs) {
    let score = 0;
    const entry = perProject.get(d.projectId) ?? { scores: [], words: new Map<string, number>() };
    for (const t of query) {
      const tf = d.tf.get(t);
      if (!tf) continue;
      const s = tokenWeight(t) * idf.get(t)! * ((tf * (K1 + 1)) / (tf + K1 * (1 - B + (B * d.length) / avg)));
      score += s;
      entry.words.set(t, (entry.words.get(t) ?? 0) + s);
    }
    if (score > 0) {
      entry.scores.push(score);
      perProject.set(d.projectId, entry);
    }
  }
  return [...perProject]
    .map(([id, { scores, words }]) => ({
      id,
      alike: scores.length,
      words: [...words].sort((a, b) => b[1] - a[1]).map(([w]) => w),
      score: scores
        .sort((a, b) => b - a)
        .slice(0, TOP_WEIGHTS.length)
        .reduce((sum, s, i) => sum + s * TOP_WEIGHTS[i]!, 0),
    }))
    .sort((a, b) => b.score - a.score);
}

/** The words of the text behind the shared stems, as the user wrote them. */
function asWritten(text: string, stems: string[]): string[] {
  const words = text.match(/[\p{L}\p{N}]+/gu) ?? [];
  // Generic verbs ("fix", "buy") explain nothing; they are named only when nothing else is shared.
  const telling = stems.filter((stem) => tokenWeight(stem) === 1);
  return (telling.length > 0 ? telling : stems).slice(0, 3).flatMap((stem) => {
    const w = words.find((x) => contentTokens(x)[0] === stem);
    return w ? [w.toLowerCase()] : [];
  });
}

const likeReason = (project: ProjectContext, ranked: Ranked | undefined, text: string): string => {
  const words = ranked ? asWritten(text, ranked.words) : [];
  const n = ranked?.alike ?? 0;
  if (n === 0 || words.length === 0) return `like what you filed in ${project.name}`;
  return `like ${n} item${n === 1 ? '' : 's'} in ${project.name}: ${words.join(', ')}`;
};

/**
 * Issue 47: one weak feature is no reason to file ("Call grandma sunday 4pm" is not Work's because
 * Work holds "Call the client"). A project is filed only on one telling word it shares with the text
 * (full weight: not a generic verb like "call"), two generic ones, or nearness in meaning that
 * alone gives it at least `ROUTING_PARAMS.meaningAlone`. Shared words are those of its titles and
 * name (BM25) and those the user's model learned for it.
 */
export function enoughEvidence(shared: readonly string[], meaning = 0): boolean {
  const words = new Set(shared);
  const strong = [...words].filter((w) => tokenWeight(w) === 1).length;
  return strong >= 1 || words.size - strong >= 2 || meaning >= ROUTING_PARAMS.meaningAlone;
}

/** The stems the text shares with a project: in its titles and name, and learned for it by the model. */
function sharedWith(projectId: string, ranked: Ranked[], model: ModelData | undefined, text: string): string[] {
  const lexical = ranked.find((r) => r.id === projectId)?.words ?? [];
  const cls = model ? model.classes.indexOf(projectId) : -1;
  if (!model || cls < 0) return lexical;
  const learned = contentTokens(text).filter((t) => {
    const cell = model.features[`w:${t}`] ?? [];
    for (let j = 0; j < cell.length; j += 2) if (cell[j] === cls && cell[j + 1]! > 0) return true;
    return false;
  });
  return [...lexical, ...learned];
}

/** The answer for a best project the evidence does not carry: it stays, saying what was too little. */
function tooLittle(project: ProjectContext, shared: readonly string[], text: string, confidence: number): Routing {
  const words = asWritten(text, [...new Set(shared)]);
  const what = words.length > 0 ? `only “${words.join('”, “')}” is like ${project.name}` : `closest is ${project.name}`;
  return { projectId: null, title: '', how: 'none', confidence, reason: `not sure: ${what}` };
}

/** Without a learned model (the openai engine's fallback in tests, old callers): BM25 alone, shy. */
function byBm25(ranked: Ranked[], projects: ProjectContext[], text: string): Routing {
  const [best, second] = ranked;
  const project = best && projects.find((p) => p.id === best.id);
  if (!best || !project) return { projectId: null, title: '', how: 'none', confidence: 0, reason: 'nothing like it in your projects' };
  const share = best.score / (best.score + (second?.score ?? 0));
  // The Inbox competes too: when its items are the closest, the item stays where it is.
  if (project.is_default || best.score < MIN_SCORE || share < MIN_SHARE) {
    return { projectId: null, title: '', how: 'none', confidence: share, reason: `not sure: closest is ${project.name}` };
  }
  if (!enoughEvidence(best.words)) return tooLittle(project, best.words, text, share);
  return { projectId: project.id, title: '', how: 'similarity', confidence: share, reason: likeReason(project, best, text) };
}

/**
 * The learned model's probabilities and the BM25 shares, mixed; the best project is filed only when
 * the mix reaches the calibrated threshold (docs/organizer.md: precision at coverage).
 */
function byLearned(
  ranked: Ranked[],
  projects: ProjectContext[],
  text: string,
  model: ModelData,
  threshold: number,
  vectors?: WordVectors,
  sentences?: MeaningSpace,
): Routing {
  const { p } = posterior(
    model,
    text,
    projects.map((x) => x.id),
  );
  const total = ranked.reduce((n, r) => n + r.score, 0);
  // Nearness in meaning: the sentence encoder's when it is loaded and has read the text (decision
  // 0062), otherwise the word vectors' (decision 0057).
  const encoded = sentences && semanticPosterior(sentences, text, projects, SENTENCE_KNOBS);
  const semantic = encoded ?? (vectors && semanticPosterior(wordSpace(vectors), text, projects));
  const w = encoded ? ROUTING_PARAMS.sentenceWeight : semantic ? ROUTING_PARAMS.semanticWeight : 0;
  const mix = (id: string): number => {
    // A pseudo-project of weight `evidence` competes too: one shared word is not enough to be sure.
    const share = total > 0 ? (ranked.find((r) => r.id === id)?.score ?? 0) / (total + ROUTING_PARAMS.evidence) : 0;
    const lexical = ROUTING_PARAMS.learnedWeight * p.get(id)! + (1 - ROUTING_PARAMS.learnedWeight) * share;
    return (1 - w) * lexical + w * (semantic?.get(id) ?? 0);
  };
  const [best, runnerUp] = projects.map((x) => ({ project: x, mix: mix(x.id) })).sort((a, b) => b.mix - a.mix);
  if (!best) return { projectId: null, title: '', how: 'none', confidence: 0, reason: 'nothing like it in your projects' };
  const project = best.project;
  // The margin over the runner-up, not the best mix alone: two projects near the text make neither sure.
  const c = best.mix - ROUTING_PARAMS.margin * (runnerUp?.mix ?? 0);
  if (project.is_default) return { projectId: null, title: '', how: 'none', confidence: c, reason: 'like what you keep in the Inbox' };
  if (c < threshold) return { projectId: null, title: '', how: 'none', confidence: c, reason: `not sure: closest is ${project.name}` };
  const shared = sharedWith(project.id, ranked, model, text);
  if (!enoughEvidence(shared, semantic?.get(project.id))) return tooLittle(project, shared, text, c);
  return {
    projectId: project.id,
    title: '',
    how: 'similarity',
    confidence: c,
    reason: likeReason(
      project,
      ranked.find((r) => r.id === project.id),
      text,
    ),
  };
}

/** The start of a long body says what it is about; the rest would only cost time (bodies reach 100,000 characters). */
const CONTENT_READ = 2000;

export interface RouteOptions {
  /** For the evaluation, which measures precision at every coverage. */
  threshold?: number;
  /** General word vectors, once loaded (learning/word-vectors.ts); without them lexical evidence alone. */
  vectors?: WordVectors;
  /** A sentence encoder's vectors, once loaded and the texts encoded (learning/sentence-vectors.ts). */
  sentences?: MeaningSpace;
}

/** The text the router reads: the title and the start of the body. */
export const routingText = (title: string, content: string | null): string => `${title}\n${(content ?? '').slice(0, CONTENT_READ)}`;

export function routeProject(title: string, content: string | null, projects: ProjectContext[], model?: ModelData, options: RouteOptions = {}): Routing {
  const threshold = options.threshold ?? ROUTING_PARAMS.threshold;
  const body = (content ?? '').slice(0, CONTENT_READ);
  const hashtag = byHashtag(title, body, projects);
  if (hashtag) return hashtag;
  const text = routingText(title, content);
  const mention = byMention(text, projects);
  if (mention) return { ...mention, title };
  const ranked = rankProjects([...new Set(contentTokens(text))], projects);
  const routed =
    model && model.docs.some((n) => n > 0)
      ? byLearned(ranked, projects, text, model, threshold, options.vectors, options.sentences)
      : byBm25(ranked, projects, text);
  return { ...routed, title };
}
