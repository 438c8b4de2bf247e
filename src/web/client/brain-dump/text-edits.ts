/*
 * The brain dump's rows are views of the text in the capture box: editing or removing a row edits
 * that text, which is then read again, so what the list shows is always what the server will
 * store. Pure (no DOM): offsets are UTF-16 units, as the server's answer and the DOM count them.
 */

/** Where a row's own words sit in the text. */
export interface Source {
  start: number;
  length: number;
}

/** The text with the row's words replaced by `words` (kept on one line: a new line would make a new row). */
export function replaceRow(text: string, source: Source, words: string): string {
  const line = words.replace(/\s*[\r\n]+\s*/g, ' ').trim();
  return text.slice(0, source.start) + line + text.slice(source.start + source.length);
}

/**
 * The text without the row: its whole line (marker and indent included) when the text has several
 * lines, else its `;` clause with the separator next to it.
 */
export function removeRow(text: string, source: Source): string {
  const end = source.start + source.length;
  if (/[\r\n]/.test(text.trim())) {
    const lineStart = Math.max(text.lastIndexOf('\n', source.start - 1), text.lastIndexOf('\r', source.start - 1)) + 1;
    const breakAt = text.slice(end).search(/\r\n|\r|\n/);
    const lineEnd = breakAt < 0 ? text.length : end + breakAt + (text.startsWith('\r\n', end + breakAt) ? 2 : 1);
    return text.slice(0, lineStart) + text.slice(lineEnd);
  }
  const after = /^\s*;\s*/.exec(text.slice(end));
  if (after) return text.slice(0, source.start) + text.slice(end + after[0].length);
  const before = /\s*;\s*$/.exec(text.slice(0, source.start));
  return before ? text.slice(0, source.start - before[0].length) + text.slice(end) : text.slice(0, source.start) + text.slice(end);
}

/** How deep each row sits (0 at the top level), from its parent_index. */
export function depths(parents: readonly (number | null)[]): number[] {
  const out: number[] = [];
  parents.forEach((parent, i) => out.push(parent === null || parent >= i ? 0 : out[parent]! + 1));
  return out;
}
