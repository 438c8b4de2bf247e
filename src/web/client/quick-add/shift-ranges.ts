/**
 * Where ranges of the old text are in the new one after an edit: the edit is the part between the
 * common beginning and the common end; a range before it stays, after it moves by the change in
 * length, and one the edit touched is gone (its words are not those any more), as is one the edit
 * glued letters onto ("Friday" → "Fridays"); a space typed after a word leaves the word as it was.
 */
export function shiftRanges<R extends { start: number; end: number }>(ranges: readonly R[], before: string, after: string): R[] {
  if (before === after) return [...ranges];
  let head = 0;
  const shortest = Math.min(before.length, after.length);
  while (head < shortest && before[head] === after[head]) head++;
  let tail = 0;
  while (tail < shortest - head && before[before.length - 1 - tail] === after[after.length - 1 - tail]) tail++;
  const editEnd = before.length - tail;
  const inserted = after.slice(head, after.length - tail);
  const delta = after.length - before.length;
  const kept: R[] = [];
  for (const range of ranges) {
    if (range.end < head || (range.end === head && !/^[\p{L}\p{N}_]/u.test(inserted))) kept.push(range);
    else if (range.start > editEnd || (range.start === editEnd && !/[\p{L}\p{N}_]$/u.test(inserted)))
      kept.push({ ...range, start: range.start + delta, end: range.end + delta });
  }
  return kept;
}
