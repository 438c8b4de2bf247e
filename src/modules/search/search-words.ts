/**
 * The words of a search `q`. A word is a run of letters, combining marks and decimal digits, the
 * same rule the database tokenizers index by (see the search migration); every other character
 * separates words. So quotes, `*`, `-`, `:`, `&`, `|`, `!` and parentheses can never reach the
 * query syntax of FTS5 or tsquery, and `OR`, `AND`, `NOT` and `NEAR` are ordinary words.
 */
const WORD = /[\p{L}\p{M}\p{Nd}]+/gu;

/** Distinct words in order of appearance; none when q has no letter or digit at all. */
export function searchWords(q: string | undefined): string[] {
  if (q === undefined) return [];
  // NFC, because stored text is almost always composed ("é" as one code point) and tokens compare exactly.
  return [...new Set(q.normalize('NFC').match(WORD) ?? [])];
}

/**
 * FTS5 query: each word as a quoted prefix term, all required. A word has no `"` (it is letters,
 * marks and digits only), so quoting needs no escaping and makes keywords like OR or NEAR plain
 * strings. Whose documents are searched is the rowid range's business (search.repository.ts).
 */
export function ftsMatch(words: readonly string[]): string {
  return words.map((word) => `"${word}"*`).join(' AND ');
}

/** tsquery text: each word as a prefix, all required. Words hold no tsquery operator characters. */
export const tsQuery = (words: readonly string[]): string => words.map((word) => `${word}:*`).join(' & ');
