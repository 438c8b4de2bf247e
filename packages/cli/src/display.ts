import type { Io } from './context.js';

/** How human output is drawn: in colour or not, and how wide the terminal is (undefined: do not cut). */
export interface Display {
  color: boolean;
  columns: number | undefined;
}

type Stdout = NodeJS.WritableStream & { isTTY?: boolean; columns?: number };

const truthy = (value: string | undefined): boolean => value !== undefined && value !== '' && value !== '0' && value !== 'false';

/**
 * Colour on a terminal, none in a pipe. FORCE_COLOR (not 0 or false) forces it, as Node and most
 * tools read it; otherwise NO_COLOR set to anything (no-color.org) or TERM=dumb turns it off.
 */
function colorWanted(env: NodeJS.ProcessEnv, isTTY: boolean): boolean {
  if (env.FORCE_COLOR !== undefined) return truthy(env.FORCE_COLOR);
  if (env.NO_COLOR !== undefined && env.NO_COLOR !== '') return false;
  if (env.TERM === 'dumb') return false;
  return isTTY;
}

/** The terminal's width; in a pipe COLUMNS when set (the shell's convention), else no width: a script gets whole titles. */
function columnsOf(stdout: Stdout, env: NodeJS.ProcessEnv): number | undefined {
  if (stdout.isTTY && typeof stdout.columns === 'number' && stdout.columns > 0) return stdout.columns;
  const given = Number(env.COLUMNS);
  return Number.isInteger(given) && given > 0 ? given : undefined;
}

export function displayOf(io: Io): Display {
  const stdout = io.stdout as Stdout;
  return { color: colorWanted(io.env, stdout.isTTY === true), columns: columnsOf(stdout, io.env) };
}

/** Plain text for scripts and --json's neighbours: no colour, no width. */
export const PLAIN: Display = { color: false, columns: undefined };

const SGR = { bold: [1, 22], dim: [2, 22], red: [31, 39], green: [32, 39], yellow: [33, 39], blue: [34, 39], magenta: [35, 39], cyan: [36, 39] } as const;
export type Style = keyof typeof SGR;

/** The text in the style when the display has colour; the text as it is otherwise. */
export function paint(display: Display, style: Style | undefined, text: string): string {
  if (!display.color || style === undefined || text === '') return text;
  const [on, off] = SGR[style];
  return `\u001b[${on}m${text}\u001b[${off}m`;
}

/** Characters as a terminal counts them for the text cut here (code points; cin's own marks are one column). */
export const widthOf = (text: string): number => Array.from(text).length;

/** Cut to `width` columns with an ellipsis at the end. */
export function cut(text: string, width: number): string {
  const chars = Array.from(text);
  if (chars.length <= width) return text;
  return width <= 1 ? '…'.slice(0, width) : `${chars.slice(0, width - 1).join('')}…`;
}
