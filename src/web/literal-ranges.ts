/** At most this many refused readings a capture: more is not something a person clicks. */
const MAX_RANGES = 50;

/**
 * The capture form's `literal` field (decision 0098): the ranges of the text whose quick-add reading
 * the user refused, as the script writes them, `start-end` pairs of UTF-16 offsets separated by commas
 * ("6-18,25-30"). A malformed pair is dropped: the field only ever takes words away from quick add,
 * so reading less of it can only leave more to quick add, never lose what was typed.
 */
export function literalRanges(field: string | undefined): [number, number][] {
  if (!field) return [];
  const ranges: [number, number][] = [];
  for (const pair of field.split(',').slice(0, MAX_RANGES)) {
    const m = /^(\d{1,6})-(\d{1,6})$/.exec(pair.trim());
    if (m && Number(m[1]) < Number(m[2])) ranges.push([Number(m[1]), Number(m[2])]);
  }
  return ranges;
}

/** The capture request's `literal`, only when there is one. */
export const literalOf = (field: string | undefined): { literal?: [number, number][] } => {
  const ranges = literalRanges(field);
  return ranges.length > 0 ? { literal: ranges } : {};
};
