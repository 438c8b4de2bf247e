import type { QuickAddSpan } from './quick-add-chips.js';

/*
 * Quick add highlighted in the text itself (issue 47 item 7, decision 0098). The textarea stays the
 * form's field, unchanged for screen readers and for the form without the script; behind it, a
 * mirror with the same box and font draws the same text in transparent ink with the understood
 * spans marked, so the marks show through the textarea's transparent background exactly under
 * the words. The mirror is aria-hidden: what was understood is said by the form's live region.
 */

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
