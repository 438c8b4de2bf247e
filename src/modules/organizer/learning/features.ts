import { contentTokens } from '../local/tokens.js';
import { ROUTING_PARAMS } from './params.js';

const CHAR_GRAM = 4;

/** Character 4-grams of a word with its edges marked, which survive typos and inflections the stemmer misses. */
function charGrams(word: string): string[] {
  if (word.length < CHAR_GRAM) return [];
  const padded = `^${word}$`;
  const grams: string[] = [];
  for (let i = 0; i + CHAR_GRAM <= padded.length; i++) grams.push(`c:${padded.slice(i, i + CHAR_GRAM)}`);
  return grams;
}

/**
 * The features the routing model counts for a text: stemmed content words (`w:`), pairs of
 * neighbouring content words (`p:`), and character 4-grams of the content words (`c:`), each once.
 */
export function routingFeatures(text: string): string[] {
  const words = contentTokens(text);
  const out = new Set<string>();
  for (let i = 0; i < words.length; i++) {
    out.add(`w:${words[i]}`);
    if (i > 0) out.add(`p:${words[i - 1]}_${words[i]}`);
    for (const g of charGrams(words[i]!)) out.add(g);
  }
  return [...out];
}

export const featureWeight = (feature: string): number =>
  feature.startsWith('w:') ? ROUTING_PARAMS.word : feature.startsWith('p:') ? ROUTING_PARAMS.pair : ROUTING_PARAMS.chars;
