import type { Item, Project } from '@capture-inbox/sdk';
import { cut, paint, PLAIN, widthOf, type Display, type Style } from './display.js';
import { startOfLocalDay } from './local-day.js';

/** UUIDv7 ids begin with their creation time, so items of one minute share a prefix: the short id is the random end. */
const SHORT_ID_LENGTH = 8;
export const shortId = (id: string): string => id.replace(/-/g, '').slice(-SHORT_ID_LENGTH);

/** "Sun 22 Nov 17:00" in the user's zone; the year only when it is not this year's; an all-day due is its date alone. */
export function formatDue(iso: string | null, zone: string, now = new Date(), allDay = false): string {
  if (!iso) return '';
  const at = new Date(iso);
  const year = (d: Date) => new Intl.DateTimeFormat('en-GB', { timeZone: zone, year: 'numeric' }).format(d);
  const sameYear = year(at) === year(now);
  const parts = new Intl.DateTimeFormat('en-GB', {
    timeZone: zone,
    weekday: 'short',
    day: 'numeric',
    month: 'short',
    ...(sameYear ? {} : { year: 'numeric' }),
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
  }).formatToParts(at);
  const get = (type: Intl.DateTimeFormatPartTypes) => parts.find((p) => p.type === type)?.value ?? '';
  return [get('weekday'), get('day'), get('month'), ...(sameYear ? [] : [get('year')]), ...(allDay ? [] : [`${get('hour')}:${get('minute')}`])].join(' ');
}

/** Done, archived, open todo, or a note (a note is never done or open: it is kept, not worked on). */
function mark(item: Item): { text: string; style: Style | undefined } {
  if (item.status === 'archived') return { text: '[-]', style: 'dim' };
  if (item.type === 'note') return { text: ' ~ ', style: 'magenta' };
  return item.is_completed ? { text: '[x]', style: 'green' } : { text: '[ ]', style: undefined };
}

/** Project names by id: all of them (`GET /projects`), or only those known without reading them. */
export type ProjectNames = Map<string, Pick<Project, 'name'>>;

export interface RowContext {
  projects: ProjectNames;
  zone: string;
}

interface Cell {
  text: string;
  style?: Style | undefined;
  /** Tags after the title, in their own style. */
  tail?: string;
}

/** The title cell: the title and its @tags, cut to `budget` columns (the tags go first when both cannot fit). */
function titleCell(item: Item, budget: number | undefined): Cell {
  const title = (item.title ?? '').replace(/\s+/g, ' ') || '(untitled)';
  const tags = item.tags.map((t) => `@${t}`).join(' ');
  if (budget === undefined || widthOf(title) + (tags ? 2 + widthOf(tags) : 0) <= budget) return { text: title, tail: tags };
  if (tags && widthOf(tags) + 2 <= Math.floor(budget / 2)) return { text: cut(title, budget - 2 - widthOf(tags)), tail: tags };
  return { text: cut(title, budget) };
}

const cellWidth = (cell: Cell): number => widthOf(cell.text) + (cell.tail ? 2 + widthOf(cell.tail) : 0);

/** The narrowest a title is cut to, however narrow the terminal: below this a row wraps instead. */
const MIN_TITLE = 8;

/**
 * One line per item, columns aligned: short id, mark ([ ] todo, [x] done, [-] archived, ~ note),
 * title with its @tags, project, due. With a width, titles are cut so each row fits it (`indent`
 * columns are already taken by a verb before the row); with colour, overdue dates are red.
 */
export function itemRows(items: Item[], ctx: RowContext, display: Display = PLAIN, indent = 0, now = new Date()): string[] {
  const rows = items.map((item) => {
    // An all-day item is overdue only once its day has ended in the user's zone.
    const dueEnds = item.due_at === null ? 0 : item.all_day ? startOfLocalDay(new Date(item.due_at), ctx.zone, 1).getTime() : Date.parse(item.due_at) + 1;
    const overdue = item.due_at !== null && !item.is_completed && item.status !== 'archived' && dueEnds <= now.getTime();
    return {
      id: { text: shortId(item.id), style: 'dim' as const },
      mark: mark(item),
      project: { text: ctx.projects.get(item.project_id)?.name ?? shortId(item.project_id), style: 'blue' as const },
      due: { text: formatDue(item.due_at, ctx.zone, now, item.all_day), style: overdue ? ('red' as const) : undefined },
      item,
    };
  });
  const projectWidth = Math.max(0, ...rows.map((r) => widthOf(r.project.text)));
  const dueWidth = Math.max(0, ...rows.map((r) => widthOf(r.due.text)));
  const budget =
    display.columns === undefined
      ? undefined
      : Math.max(MIN_TITLE, display.columns - indent - (SHORT_ID_LENGTH + 2 + 3 + 2) - (2 + projectWidth) - (dueWidth > 0 ? 2 + dueWidth : 0));
  const titles = rows.map((r) => titleCell(r.item, budget));
  const titleWidth = Math.max(0, ...titles.map(cellWidth));
  const draw = (cell: Cell, width: number | undefined): string => {
    const text = paint(display, cell.style, cell.text) + (cell.tail ? `  ${paint(display, 'cyan', cell.tail)}` : '');
    return width === undefined ? text : text + ' '.repeat(Math.max(0, width - cellWidth(cell)));
  };
  return rows.map((r, i) =>
    [draw(r.id, undefined), draw(r.mark, undefined), draw(titles[i]!, titleWidth), draw(r.project, projectWidth), draw(r.due, undefined)]
      .filter((cell, col) => col < 4 || cell !== '')
      .join('  ')
      .trimEnd(),
  );
}

/** The long form of `cin show`: label, value lines (the repeat and the reminder too), then the Markdown body. */
export function itemDetails(item: Item, ctx: RowContext, display: Display = PLAIN): string[] {
  const lines: Array<[string, string]> = [
    ['id', item.id],
    ['project', ctx.projects.get(item.project_id)?.name ?? item.project_id],
    ['type', item.type],
    ['status', item.status],
  ];
  if (item.due_at) lines.push(['due', `${formatDue(item.due_at, ctx.zone, new Date(), item.all_day)}${item.all_day ? ', all day' : ''} (${ctx.zone})`]);
  if (item.recurrence)
    lines.push(['repeats', `${item.recurrence.rule} (${item.recurrence.from === 'completion' ? 'from each completion' : 'from the due date'})`]);
  if (item.remind_at) lines.push(['reminder', `${formatDue(item.remind_at, ctx.zone)} (${ctx.zone})`]);
  if (item.parent_id) lines.push(['parent', shortId(item.parent_id)]);
  if (item.tags.length > 0) lines.push(['tags', item.tags.join(', ')]);
  lines.push(['created', formatDue(item.created_at, ctx.zone)], ['updated', formatDue(item.updated_at, ctx.zone)]);
  const width = Math.max(...lines.map(([label]) => label.length));
  const out = [paint(display, 'bold', item.title ?? '(untitled)'), ...lines.map(([label, value]) => `  ${label.padEnd(width)}  ${value}`)];
  if (item.content_md) out.push('', item.content_md);
  return out;
}
