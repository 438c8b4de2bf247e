/*
 * Word breaks for scripts written without spaces (Chinese, Japanese, Thai, Lao, Khmer, Burmese).
 * The database tokenizers end a word only at a character that is not a letter, mark or digit, so
 * "会議の準備" was one word and "準備" could only find it as its start. ICU's dictionary (Node's
 * Intl.Segmenter) divides such a run into its words, "会議 の 準備", at index time (items.search_text,
 * see the cjk-search-words migration) and at query time (search-words.ts), with this one function,
 * so both sides break the text the same way. Hangul is written with spaces and needs nothing.
 */

/** A character of a script whose words ICU finds by dictionary. */
const UNSPACED = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Thai}\p{Script=Lao}\p{Script=Khmer}\p{Script=Myanmar}]/u;
const STARTS_WORD = /^[\p{L}\p{M}\p{Nd}]/u;
const ENDS_WORD = /[\p{L}\p{M}\p{Nd}]$/u;

/**
 * Characters of one text that are divided into words; the rest keeps whole runs (found by their
 * start). ICU's iterator costs one to a few microseconds per character, so a 100,000-character
 * note would hold a request for a tenth of a second or more.
 */
export const MAX_SEGMENTED = 20_000;

/**
 * The iterator runs over pieces of about this many UTF-16 units: over a whole long text its cost
 * grew faster than the text (20,000 characters took ten times as long as 5,000), while a piece
 * costs in proportion to its length. Pieces end after a character that is not a letter or digit
 * when there is one in their second half, so a word is rarely cut.
 */
const PIECE = 512;
const NOT_WORD = /[^\p{L}\p{M}\p{Nd}]/u;

const isHighSurrogate = (code: number): boolean => code >= 0xd800 && code <= 0xdbff;

/** Where the piece from `start` ends: after a separator in its second half, never inside a surrogate pair. */
function pieceEnd(text: string, start: number, limit: number): number {
  const end = Math.min(start + PIECE, limit);
  if (end >= limit) return limit;
  for (let i = end; i > start + PIECE / 2; i -= 1) {
    const code = text.charCodeAt(i - 1);
    if (!isHighSurrogate(code) && NOT_WORD.test(text[i - 1]!)) return i;
  }
  return isHighSurrogate(text.charCodeAt(end - 1)) ? end - 1 : end;
}

const segmenter = new Intl.Segmenter('und', { granularity: 'word' });

/** One piece with a space at each of ICU's breaks between two letters or digits next to an unspaced character. */
function spacePiece(piece: string): string {
  if (!UNSPACED.test(piece)) return piece;
  let out = '';
  let previous = '';
  for (const { segment } of segmenter.segment(piece)) {
    if (ENDS_WORD.test(previous) && STARTS_WORD.test(segment) && (UNSPACED.test(previous) || UNSPACED.test(segment))) out += ' ';
    out += segment;
    previous = segment;
  }
  return out;
}

/**
 * The text with a space at each word break that ICU finds between two letters or digits next to a
 * character of an unspaced script ("会議のmemo準備" → "会議 の memo 準備"); nothing else changes, so
 * spaced text minus its added spaces is the text.
 */
export function spaceWords(text: string): string {
  if (!UNSPACED.test(text)) return text;
  const limit = Math.min(text.length, MAX_SEGMENTED);
  let out = '';
  for (let start = 0; start < limit;) {
    const end = pieceEnd(text, start, limit);
    out += spacePiece(text.slice(start, end));
    start = end;
  }
  return out + text.slice(limit);
}

/**
 * What the search index reads instead of title and content_md: both, joined by a space, with word
 * breaks as spaces. Null when neither holds an unspaced script, so Latin text costs a regex test
 * and no segmenter. It differs from title + ' ' + content_md only by the spaces it adds, which lets
 * the index check that it still belongs to the row (a write that changed the text without it is
 * indexed as written).
 */
export function searchText(title: string | null, content: string | null): string | null {
  const t = title ?? '';
  const c = content ?? '';
  if (!UNSPACED.test(t) && !UNSPACED.test(c)) return null;
  return `${spaceWords(t)} ${spaceWords(c)}`;
}
