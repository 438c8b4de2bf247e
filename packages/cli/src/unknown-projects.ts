import type { QuickAdd } from '@capture-inbox/sdk';

/**
 * `#Name` or `#"Two words"` at a word start: the server's quick-add grammar reads projects with this
 * pattern (src/modules/quick-add/grammar.ts, PROJECT_TOKEN); the CLI cannot import server code.
 */
const PROJECT_TOKEN = /(?<![^\s([{])#(?:"([^"\n]+)"|([\p{L}\p{N}_'’&+-]+))/gu;

/** A name as the shell needs it on `cin projects add`. */
const shellWord = (name: string): string => (/^[\p{L}\p{N}_.+-]+$/u.test(name) ? name : `'${name.replace(/'/g, `'\\''`)}'`);

/**
 * The `#Name` words quick add left in the title because no project has that name (it never
 * creates one), each with the command that makes it. None when quick add filed the item under a
 * project (a second `#Name` then only lost to the first), and none for `#123`, an issue number
 * rather than a project meant.
 */
function unknownProjects(parsed: QuickAdd): Array<{ token: string; name: string; make: string }> {
  if (parsed.spans.some((span) => span.kind === 'project')) return [];
  return [...parsed.title.matchAll(PROJECT_TOKEN)]
    .map((m) => ({ token: m[0], name: m[1] ?? m[2]! }))
    .filter(({ name }) => !/^\d+$/.test(name))
    .map(({ token, name }) => ({ token, name, make: `cin projects add ${shellWord(name)}` }));
}

/** The notices for stderr: what stayed in the title, and how to make the project. */
export function unknownProjectNotes(parsed: QuickAdd): string[] {
  return unknownProjects(parsed).map(({ token, name, make }) => `note: no project is named ${name}, so ${token} stayed in the title; make it with: ${make}`);
}
