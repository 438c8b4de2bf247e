import { routingFeatures } from './features.js';

/**
 * The titles most like the text (shared routing features over the smaller of the two sets), nearest
 * first; titles sharing nothing follow in their given order (latest first), to fill up to `n`.
 */
export function nearestTitles(text: string, titles: readonly string[], n: number): string[] {
  const query = new Set(routingFeatures(text));
  if (query.size === 0) return titles.slice(0, n);
  const scored = titles.map((title, i) => {
    const f = routingFeatures(title);
    const shared = f.filter((x) => query.has(x)).length;
    return { title, i, score: shared / Math.max(1, Math.min(f.length, query.size)) };
  });
  return scored
    .sort((a, b) => b.score - a.score || a.i - b.i)
    .slice(0, n)
    .map((s) => s.title);
}
