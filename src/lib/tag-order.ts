/** Tag order in responses: case-insensitive, with a stable tie-break on the exact spelling. */
export function compareTagNames(a: string, b: string): number {
  const la = a.toLowerCase();
  const lb = b.toLowerCase();
  if (la !== lb) return la < lb ? -1 : 1;
  return a < b ? -1 : a > b ? 1 : 0;
}
