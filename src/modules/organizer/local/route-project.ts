import type { ProjectContext } from '../organizer.types.js';
import { contentTokens, tokenWeight } from './tokens.js';

export interface Routing {
  /** The chosen project, or null to leave the item where it is. */
  projectId: string | null;
  /** The title with a `#Project` tag that chose the project removed. */
  title: string;
  how: 'hashtag' | 'mention' | 'similarity' | 'none';
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
    return { projectId: project.id, title: cleaned === '' ? title : cleaned, how: 'hashtag' };
  }
  return undefined;
}

/**
 * "Garden: …", "for work", "to the Garden list", "@home", or the name written as the project is
 * ("Client Acme", not "after work" nor "Home Depot"); the longest name wins a tie.
 */
function byMention(text: string, projects: ProjectContext[]): Routing | undefined {
  const named = projects.filter((p) => !p.is_default).sort((a, b) => b.name.length - a.name.length);
  const found = (p: ProjectContext): Routing => ({ projectId: p.id, title: '', how: 'mention' });
  for (const p of named) {
    if (new RegExp(`^\\s*${namePattern(p.name)}\\s*:`, 'iu').test(text)) return found(p);
  }
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

/** Projects by similarity to the text, best first (exported for the evaluation's diagnostics). */
function rankProjects(text: string, projects: ProjectContext[]): Array<{ id: string; score: number }> {
  const query = [...new Set(contentTokens(text))];
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
  const perProject = new Map<string, number[]>();
  for (const d of docs) {
    let score = 0;
    for (const t of query) {
      const tf = d.tf.get(t);
      if (tf) score += tokenWeight(t) * idf.get(t)! * ((tf * (K1 + 1)) / (tf + K1 * (1 - B + (B * d.length) / avg)));
    }
    if (score > 0) perProject.set(d.projectId, [...(perProject.get(d.projectId) ?? []), score]);
  }
  return [...perProject]
    .map(([id, scores]) => ({
      id,
      score: scores
        .sort((a, b) => b - a)
        .slice(0, TOP_WEIGHTS.length)
        .reduce((sum, s, i) => sum + s * TOP_WEIGHTS[i]!, 0),
    }))
    .sort((a, b) => b.score - a.score);
}

function bySimilarity(text: string, projects: ProjectContext[]): string | null {
  const [best, second] = rankProjects(text, projects);
  if (!best) return null;
  const share = best.score / (best.score + (second?.score ?? 0));
  const project = projects.find((p) => p.id === best.id);
  // The Inbox competes too: when its items are the closest, the item stays where it is.
  if (!project || project.is_default || best.score < MIN_SCORE || share < MIN_SHARE) return null;
  return project.id;
}

/** The start of a long body says what it is about; the rest would only cost time (bodies reach 100,000 characters). */
const CONTENT_READ = 2000;

export function routeProject(title: string, content: string | null, projects: ProjectContext[]): Routing {
  const body = (content ?? '').slice(0, CONTENT_READ);
  const hashtag = byHashtag(title, body, projects);
  if (hashtag) return hashtag;
  const text = `${title}\n${body}`;
  const mention = byMention(text, projects);
  if (mention) return { ...mention, title };
  const similar = bySimilarity(text, projects);
  return similar ? { projectId: similar, title, how: 'similarity' } : { projectId: null, title, how: 'none' };
}
