/*
 * Word breaks for scripts written without spaces (Chinese, Japanese, Thai, Lao, Khmer, Burmese).
 * The database tokenizers end a word only at a character that is not a letter, mark or digit, so
 * "会議の準備" was one word and "準備" could only find it as its start. ICU's dictionary (Node's
 * Intl.Segmenter) divides such a run into its words, "会議 の 準備", at index time (items.search_text,
 * see the cjk-search-words migration) and at query time (search-words.ts), so both sides break
 * the text the same way. Hangul is written with spaces and needs nothing.
 */

/** A character of a script whose words ICU finds by dictionary. */
const UNSPACED = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Thai}\p{Script=Lao}\p{Script=Khmer}\p{Script=Myanmar}]/u;

/** A run of letters, combining marks and decimal digits: a word for the database tokenizers. */
const RUN = /[\p{L}\p{M}\p{Nd}]+/gu;

const segmenter = new Intl.Segmenter('und', { granularity: 'word' });

/** The dictionary words of one run, in order; a run without such a script is one word. */
export function runWords(run: string): string[] {
  if (!UNSPACED.test(run)) return [run];
  // A run holds only letters, marks and digits, so every segment is a word: none is dropped.
  return Array.from(segmenter.segment(run), (s) => s.segment);
}

/** The text with a space between the dictionary words of each unspaced run; nothing else changes. */
const spaced = (text: string): string => text.replace(RUN, (run) => (UNSPACED.test(run) ? runWords(run).join(' ') : run));

/**
 * What the search index reads instead of title and content_md: both, joined by a space, with word
 * breaks as spaces. Null when neither holds an unspaced script, so Latin text costs one regex test
 * and no segmenter. It differs from title + ' ' + content_md only by the spaces it adds, which lets
 * the index check that it still belongs to the row (a write that changed the text without it is
 * indexed as written).
 */
export function searchText(title: string | null, content: string | null): string | null {
  const t = title ?? '';
  const c = content ?? '';
  if (!UNSPACED.test(t) && !UNSPACED.test(c)) return null;
  return `${spaced(t)} ${spaced(c)}`;
}
