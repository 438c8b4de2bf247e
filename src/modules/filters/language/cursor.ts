import type { FilterError } from './ast.js';

/** Thrown inside the parser only; parseFilter turns it into a FilterError and never lets it out. */
export class FilterSyntaxError extends Error {
  constructor(
    message: string,
    readonly position: number,
  ) {
    super(message);
  }

  toFilterError(): FilterError {
    return { message: this.message, position: this.position };
  }
}

/** Characters that end a name or a word: whitespace, the operators, parentheses and the comma. */
export const ENDS_NAME = /[\s&|(),]/u;
/** Characters that end the free text after `due:` or `search:`: the binary operators and `)`. */
const ENDS_TEXT = /[&|)]/u;

/** Where the parser is in the query, and the few moves every reader needs. */
export class Cursor {
  pos = 0;

  constructor(readonly src: string) {}

  get atEnd(): boolean {
    return this.pos >= this.src.length;
  }

  peek(): string {
    return this.src[this.pos] ?? '';
  }

  skipSpace(): void {
    while (!this.atEnd && /\s/u.test(this.peek())) this.pos += 1;
  }

  fail(message: string, position = this.pos): never {
    throw new FilterSyntaxError(message, position);
  }

  /** A sticky regex tried at the current position; on a match the cursor moves past it. */
  match(re: RegExp): RegExpExecArray | null {
    re.lastIndex = this.pos;
    const m = re.exec(this.src);
    if (m) this.pos += m[0].length;
    return m;
  }

  /** From here to the next character of `ends` (or the end), without moving. */
  runUntil(ends: RegExp = ENDS_NAME): string {
    let end = this.pos;
    while (end < this.src.length && !ends.test(this.src[end]!)) end += 1;
    return this.src.slice(this.pos, end);
  }

  /** The free text of `due:` and `search:`, trimmed, and where it starts; the cursor moves past it. */
  readText(): { text: string; start: number; end: number } {
    const raw = this.runUntil(ENDS_TEXT);
    const lead = raw.length - raw.trimStart().length;
    const text = raw.trim();
    const start = this.pos + lead;
    // Trailing spaces are the operator's, not the text's: the term's span ends with its last word.
    this.pos = text === '' ? this.pos + raw.length : start + text.length;
    return { text, start, end: start + text.length };
  }

  /** What the user sees at the current position, for messages: the next word, a character, or "the end". */
  describeHere(): string {
    if (this.atEnd) return 'the end of the filter';
    const word = this.runUntil();
    return `"${word === '' ? this.peek() : word}"`;
  }
}
