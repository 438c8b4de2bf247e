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
 * The token the user's documents carry in the SQLite index's `owner` column. It starts with a
 * private-use character, which a word never contains, so no prefix term of a query can match it.
 */
export const ownerToken = (userId: string): string => `\uE000${userId.replaceAll('-', '')}`;

/**
 * FTS5 query: the owner's token AND each word as a quoted prefix term. A word has no `"` (it is
 * letters, marks and digits only), so quoting needs no escaping and makes keywords like OR or NEAR
 * plain strings. No column filter: terms match title or content_md and cannot match `owner`.
 */
export function ftsMatch(userId: string, words: readonly string[]): string {
  return [`"${ownerToken(userId)}"`, ...words.map((word) => `"${word}"*`)].join(' AND ');
}

/** tsquery text: each word as a prefix, all required. Words hold no tsquery operator characters. */
export const tsQuery = (words: readonly string[]): string => words.map((word) => `${word}:*`).join(' & ');
