/**
 * The contract's deterministic brain-dump split ("Brain dump"): a pasted list or a dictated ramble
 * cut into the texts of several items, before quick add reads each. Pure: no zone, no projects.
 */

/** The contract's limit on one brain dump: a batch capture stores at most this many items. */
export const SPLIT_ITEMS_MAX = 100;

/** One item's text as the split found it. */
export interface SplitLine {
  /** The item's text: the line without its indent, list marker and (for a heading) trailing `:`. */
  text: string;
  /** Where `text` starts in the whole text, in UTF-16 code units. */
  start: number;
  /** The index of the heading this line sits under, or null at the top level. */
  parent_index: number | null;
  /** `[x]` marked the line done. */
  is_completed: boolean;
}

/** `-`, `*`, `•`, `1.`, `1)`, each followed by a space; then an optional checkbox `[ ]`, `[x]`. */
const BULLET = /^(?:[-*•]|\d{1,9}[.)])(?:\s+|$)/u;
const CHECKBOX = /^\[([ xX])\](?:\s+|$)/u;
/** A clause break in a one-line text: `;` then a space or the end ("a;b" stays, as in URLs and entities). */
const CLAUSE_BREAK = /;(?=\s|$)/gu;
const LINE_BREAK = /\r\n|\r|\n/gu;
/** A tab counts as four spaces of indent, so mixed indents still compare. */
const TAB_WIDTH = 4;

interface Line {
  /** Offset of `body` in the whole text. */
  start: number;
  body: string;
  indent: number;
  bulleted: boolean;
  completed: boolean;
}

function indentWidth(lead: string): number {
  let width = 0;
  for (const ch of lead) width += ch === '\t' ? TAB_WIDTH : 1;
  return width;
}

/** A piece of the text (a line or a clause) read for its indent and markers; null when nothing is left. */
function readLine(piece: string, offset: number): Line | null {
  const lead = /^\s*/u.exec(piece)![0];
  let at = lead.length;
  let rest = piece.slice(at);
  let bulleted = false;
  let completed = false;
  const bullet = BULLET.exec(rest);
  if (bullet) {
    bulleted = true;
    at += bullet[0].length;
    rest = rest.slice(bullet[0].length);
  }
  const box = CHECKBOX.exec(rest);
  if (box) {
    bulleted = true;
    completed = box[1] !== ' ';
    at += box[0].length;
    rest = rest.slice(box[0].length);
  }
  const body = rest.trimEnd();
  if (body === '') return null;
  return { start: offset + at, body, indent: indentWidth(lead), bulleted, completed };
}

/** The text's pieces with their offsets: its lines, or its `;` clauses when it is one line. */
function pieces(text: string): { piece: string; offset: number }[] {
  const out: { piece: string; offset: number }[] = [];
  const cut = (pattern: RegExp) => {
    let from = 0;
    for (const m of text.matchAll(pattern)) {
      out.push({ piece: text.slice(from, m.index), offset: from });
      from = m.index + m[0].length;
    }
    out.push({ piece: text.slice(from), offset: from });
  };
  const lines = text.trim().split(/\r\n|\r|\n/u);
  cut(lines.length === 1 ? CLAUSE_BREAK : LINE_BREAK);
  return out;
}

/** Whether `line` sits under `heading`: indented deeper, or bulleted under a heading that is not. */
const under = (line: Line, heading: Line): boolean => line.indent > heading.indent || (line.bulleted && !heading.bulleted && line.indent === heading.indent);

/**
 * Splits `text` into items in text order: one per non-empty line (or `;` clause of a one-line
 * text), list markers removed, `[x]` completed, and a line ending in `:` that has lines under it
 * made their parent (its `:` removed). Headings nest: a heading under a heading has a parent too.
 */
export function splitLines(text: string): SplitLine[] {
  const lines = pieces(text)
    .map(({ piece, offset }) => readLine(piece, offset))
    .filter((line): line is Line => line !== null);
  const out: SplitLine[] = [];
  // The open headings, outermost first, with their index in `out` and the indent of their first line.
  const open: { line: Line; index: number; first: number }[] = [];
  // A line stays under a heading while it is under it and no shallower than the heading's first line,
  // so a list indented under "Trip:" ends at the next bullet back at the margin.
  const within = (line: Line, heading: (typeof open)[number]) => under(line, heading.line) && line.indent >= heading.first;
  lines.forEach((line, i) => {
    while (open.length > 0 && !within(line, open[open.length - 1]!)) open.pop();
    const parent = open[open.length - 1];
    const next = lines[i + 1];
    const heading = line.body.endsWith(':') && next !== undefined && under(next, line);
    const body = heading ? line.body.slice(0, -1).trimEnd() : line.body;
    // A bare ":" heading keeps its colon: an item needs some text.
    const text = body === '' ? line.body : body;
    out.push({ text, start: line.start, parent_index: parent ? parent.index : null, is_completed: line.completed });
    if (heading) open.push({ line, index: out.length - 1, first: next.indent });
  });
  return out;
}
