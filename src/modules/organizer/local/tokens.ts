import { stemmer } from 'stemmer';

const STOPWORDS = new Set(
  (
    'a an the and or but if of to in on at by for with from about into over after before up down out off again then ' +
    'so than too very can will just should now is are was were be been being have has had do does did i me my we our ' +
    'you your he him his she her it its they them their this that these those am what which who whom when where why how ' +
    'all any both each few more most other some such no nor not only own same s t don need needs get got make also ' +
    'pls please via re fw fwd asap todo tomorrow today tonight monday tuesday wednesday thursday friday saturday sunday ' +
    'next week weekend morning afternoon evening am pm eod idea ideas thought thoughts quote note notes remember reminder ' +
    'remind fyi'
  ).split(/\s+/),
);

/** Verbs that start to-dos of every kind ("call", "buy"): they say little about which project an item is for. */
const GENERIC = new Set(
  'take call buy make get pay send check fix book order clean put go do find ask bring pick set try write read look start finish update'
    .split(' ')
    .map((w) => stemmer(w)),
);
const GENERIC_WEIGHT = 0.3;

/** How much a matching token counts in routing: full weight, less for the generic verbs. */
export const tokenWeight = (token: string): number => (GENERIC.has(token) ? GENERIC_WEIGHT : 1);

/** Lower-cased content words as written (no stopwords, no bare numbers), before stemming. */
export function contentWords(text: string): string[] {
  const words =
    text
      .toLowerCase()
      .normalize('NFKD')
      .replace(/\p{M}/gu, '')
      .match(/[\p{L}\p{N}]+/gu) ?? [];
  return words.filter((w) => w.length > 1 && !STOPWORDS.has(w) && !/^\d+$/.test(w));
}

/** Texts whose tokens are kept: a user's 2,000 latest titles, for several users at once. */
const TEXTS_KEPT = 20_000;
const tokensOf = new Map<string, readonly string[]>();

/**
 * Lower-cased, stemmed content words: what two titles about the same thing tend to share.
 * Remembered per text (decision 0096): every decision ranks the user's 2,000 latest titles, the
 * same ones each time, and stemming them again was most of the routing's time on the event loop.
 * Shared between callers, so read-only.
 */
export function contentTokens(text: string): readonly string[] {
  const known = tokensOf.get(text);
  if (known) return known;
  const tokens = contentWords(text).map((w) => stemmer(w));
  // Bounded: the oldest text goes first (a Map keeps insertion order).
  if (tokensOf.size >= TEXTS_KEPT) tokensOf.delete(tokensOf.keys().next().value!);
  tokensOf.set(text, tokens);
  return tokens;
}
