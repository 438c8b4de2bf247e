import { spaceWords } from '../../lib/word-breaks.js';

/**
 * The words of a search `q`. A word is a run of letters, combining marks and decimal digits, the
 * same rule the database tokenizers index by (see the search migration); every other character
 * separates words. So quotes, `*`, `-`, `:`, `&`, `|`, `!` and parentheses can never reach the
 * query syntax of FTS5 or tsquery, and `OR`, `AND`, `NOT` and `NEAR` are ordinary words.
 *
 * A run in a script written without spaces is divided into its dictionary words as the index was
 * (word-breaks.ts) and kept as one search word with spaces between them: "会議の準" must find
 * 会議, の and a word starting 準, one after the other.
 */
const WORD = /[\p{L}\p{M}\p{Nd}]+/gu;

/** Distinct words in order of appearance; none when q has no letter or digit at all. */
export function searchWords(q: string | undefined): string[] {
  if (q === undefined) return [];
  // NFC, because stored text is almost always composed ("é" as one code point) and tokens compare exactly.
  const runs = q.normalize('NFC').match(WORD) ?? [];
  return [...new Set(runs.map(spaceWords))];
}

/**
 * FTS5 query: each word as a quoted prefix term, all required. A word has no `"` (it is letters,
 * marks, digits and the spaces between dictionary words), so quoting needs no escaping and makes
 * keywords like OR or NEAR plain strings; a quoted string of several words is a phrase whose last
 * word is the prefix. Whose documents are searched is the rowid range's business (search.repository.ts).
 */
export function ftsMatch(words: readonly string[]): string {
  return words.map((word) => `"${word}"*`).join(' AND ');
}

/**
 * tsquery text: each word as a prefix, all required; the dictionary words of one run follow each
 * other (`<->`), the last as a prefix. Words hold no tsquery operator characters.
 */
export const tsQuery = (words: readonly string[]): string => words.map((word) => `${word.split(' ').join(' <-> ')}:*`).join(' & ');
