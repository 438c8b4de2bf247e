import type { QuickAddSpan } from './quick-add-chips.js';

/*
 * Quick add highlighted in the text itself (issue 47 item 7, decision 0098). The textarea stays the
 * form's field, unchanged for screen readers and for the form without the script; behind it, a
 * mirror with the same box and font draws the same text in transparent ink with the understood
 * spans marked, so the marks show through the textarea's transparent background exactly under
 * the words. The mirror is aria-hidden: what was understood is said by the form's live region.
 */

/** A range of the text, in UTF-16 code units, as spans and the DOM count. */
export type Range = readonly [number, number];

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

/** The properties that decide where a character falls: copied from the textarea so the mirror wraps as it does. */
const METRICS = [
  'fontFamily',
  'fontSize',
  'fontWeight',
  'fontStyle',
  'letterSpacing',
  'lineHeight',
  'textTransform',
  'wordSpacing',
  'textIndent',
  'paddingTop',
  'paddingRight',
  'paddingBottom',
  'paddingLeft',
  'borderTopWidth',
  'borderRightWidth',
  'borderBottomWidth',
  'borderLeftWidth',
  'borderRadius',
  'tabSize',
] as const;

export interface QuickAddField {
  /** Draws `spans` (offsets in the box's current text) marked in the text. */
  draw(spans: readonly QuickAddSpan[]): void;
}

/** Wraps the box in the mirror's frame and keeps the mirror's box, font and scroll the textarea's. */
export function installQuickAddField(box: HTMLTextAreaElement): QuickAddField {
  const frame = document.createElement('div');
  frame.className = 'quick-add-field';
  const mirror = document.createElement('div');
  mirror.className = 'quick-add-mirror';
  mirror.setAttribute('aria-hidden', 'true');
  box.before(frame);
  frame.append(mirror, box);
  let drawn: readonly QuickAddSpan[] = [];

  const fit = (): void => {
    const style = getComputedStyle(box);
    for (const name of METRICS) mirror.style[name] = style[name];
    // The box's scroll bar narrows its text: the mirror is as wide as the text area inside it.
    const sides = parseFloat(style.borderLeftWidth) + parseFloat(style.borderRightWidth);
    mirror.style.width = `${box.clientWidth + sides}px`;
    mirror.style.height = `${box.offsetHeight}px`;
    mirror.scrollTop = box.scrollTop;
  };

  const draw = (spans: readonly QuickAddSpan[]): void => {
    drawn = spans;
    const text = box.value;
    mirror.textContent = '';
    let at = 0;
    for (const span of [...spans].sort((a, b) => a.start - b.start)) {
      if (span.start < at || span.end > text.length) continue;
      mirror.append(text.slice(at, span.start));
      const mark = document.createElement('mark');
      mark.className = `quick-add-mark quick-add-${span.kind}`;
      mark.textContent = text.slice(span.start, span.end);
      mirror.append(mark);
      at = span.end;
    }
    // A last newline needs a character after it to take its line, as the textarea gives it one.
    mirror.append(`${text.slice(at)}\u200b`);
    fit();
  };

  box.addEventListener('scroll', () => {
    mirror.scrollTop = box.scrollTop;
  });
  // The box changes height on focus on a phone, and with the window: the mirror follows it.
  if (typeof ResizeObserver === 'function') new ResizeObserver(fit).observe(box);
  box.addEventListener('focus', () => draw(drawn));
  box.addEventListener('blur', () => draw(drawn));
  return { draw };
}
