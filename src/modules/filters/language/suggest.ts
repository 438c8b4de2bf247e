/** Edit distance, stopped early: only "one or two typos away" matters, and words are short. */
function distance(a: string, b: string, max: number): number {
  if (Math.abs(a.length - b.length) > max) return max + 1;
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i += 1) {
    const row = [i];
    for (let j = 1; j <= b.length; j += 1) {
      row[j] = Math.min(previous[j]! + 1, row[j - 1]! + 1, previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    if (Math.min(...row) > max) return max + 1;
    previous = row;
  }
  return previous[b.length]!;
}

/** The keyword a mistyped word most likely meant ("tody" → "today"), or null when none is close. */
export function closestWord(word: string, words: readonly string[]): string | null {
  const w = word.toLowerCase();
  if (w.length < 3 || w.length > 20) return null;
  const max = w.length <= 4 ? 1 : 2;
  let best: { word: string; d: number } | null = null;
  for (const candidate of words) {
    const d = distance(w, candidate, max);
    if (d <= max && (best === null || d < best.d)) best = { word: candidate, d };
  }
  return best?.word ?? null;
}
