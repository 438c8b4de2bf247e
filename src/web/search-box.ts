import { PROJECT_TOKEN, TAG_TOKEN, TIME_LIKE, projectKey } from '../modules/quick-add/grammar.js';
import { searchWords } from '../modules/search/search-words.js';

/*
 * The web's search box reads tags and projects written as quick add writes them, so what was typed
 * into the capture box finds it again: `@home` is the tag home. The pages show tags as `#home`, so
 * `#home` is the tag too when there is one by that name, and otherwise the project quick add would
 * file under (`#Work`, `#"Side project"`). The API's `q` stays words of title and notes only (the
 * contract); the box turns these words into its `tag` and `project_id` filters.
 */

export interface SearchBox {
  /** q without the tag and project words: what is searched in titles and notes. */
  text: string;
  /** The first tag named, as written. */
  tag: string | null;
  /** Further tags named: one tag filters at a time, and the page says so. */
  ignoredTags: string[];
  /** The project a `#name` named, when it names no tag. */
  projectId: string | null;
  /**
   * Nothing to search for: no tag or project word, and characters but not one letter or digit (an
   * emoji, "!!"). Beside a tag, such characters add nothing (a sentence's "." after `@home.`).
   */
  noWords: boolean;
}

export interface SearchBoxContext {
  /** The user's tag names. */
  tags: readonly string[];
  /** Projects a `#name` may name; none on a project's page, whose project is fixed. */
  projects: readonly { id: string; name: string }[];
}

export function readSearchBox(q: string, ctx: SearchBoxContext): SearchBox {
  const tagNames = new Map(ctx.tags.map((name) => [name.toLowerCase(), name]));
  const projectIds = new Map(ctx.projects.map((p) => [projectKey(p.name), p.id]));
  const tags: [number, string][] = [];
  let projectId: string | null = null;
  const taken: [number, number][] = [];

  for (const m of q.matchAll(TAG_TOKEN)) {
    const name = m[1]!.replace(/[./-]+$/u, '');
    if (name === '' || TIME_LIKE.test(name)) continue;
    tags.push([m.index, name]);
    taken.push([m.index, m.index + 1 + name.length]);
  }
  for (const m of q.matchAll(PROJECT_TOKEN)) {
    const name = m[1] ?? m[2]!;
    const tag = tagNames.get(name.toLowerCase());
    const project = projectIds.get(projectKey(name));
    if (tag !== undefined) tags.push([m.index, tag]);
    else if (project !== undefined && projectId === null) projectId = project;
    else continue;
    taken.push([m.index, m.index + m[0].length]);
  }

  let text = q;
  for (const [start, end] of taken.sort((x, y) => y[0] - x[0])) text = text.slice(0, start) + ' ' + text.slice(end);
  text = text.replace(/\s+/gu, ' ').trim();
  const named = tags.sort((x, y) => x[0] - y[0]).map(([, name]) => name);
  const distinct = named.filter((name, i) => named.findIndex((other) => other.toLowerCase() === name.toLowerCase()) === i);
  return {
    text,
    tag: distinct[0] ?? null,
    ignoredTags: distinct.slice(1),
    projectId,
    noWords: distinct.length === 0 && projectId === null && text !== '' && searchWords(text).length === 0,
  };
}
