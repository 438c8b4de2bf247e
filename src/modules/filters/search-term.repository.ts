import type { DialectName } from '../../db/create-db.js';
import { ftsMatch, tsQuery } from '../search/search-words.js';

/** A `search:` term's words as each database's full-text engine reads them: FTS5's MATCH text or a tsquery's. */
export function searchQueryText(dialect: DialectName, words: readonly string[]): { k: 'fts' | 'tsquery'; text: string } {
  return dialect === 'sqlite' ? { k: 'fts', text: ftsMatch(words) } : { k: 'tsquery', text: tsQuery(words) };
}
