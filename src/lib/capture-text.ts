/**
 * The contract's limit on captured text, in characters (code points) after trim: capture, quick
 * add's /parse, a PATCHed body, the web forms and email-in all take this much and no more.
 */
export const CAPTURE_TEXT_MAX = 100_000;

const TITLE_MAX = 500;

/** Captured text as it is stored: a title and a Markdown body. */
export interface CapturedText {
  title: string;
  content_md: string | null;
}

/**
 * The contract's split of captured text: the first non-empty line (trimmed, at most 500
 * characters) is the title and the rest is the Markdown body. When the first line is too long
 * to be a title, nothing is lost: the whole text becomes the body.
 */
export function splitCapturedText(text: string): CapturedText {
  // After trim the text starts on its first non-empty line.
  const trimmed = text.trim();
  const newline = /\r\n|\r|\n/.exec(trimmed);
  const first = (newline ? trimmed.slice(0, newline.index) : trimmed).trim();
  const chars = Array.from(first);
  if (chars.length > TITLE_MAX) {
    return { title: chars.slice(0, TITLE_MAX).join('').trimEnd(), content_md: trimmed };
  }
  const rest = newline ? trimmed.slice(newline.index + newline[0].length).trim() : '';
  return { title: first, content_md: rest === '' ? null : rest };
}
