import type { Item, Project } from '@capture-inbox/sdk';

/** UUIDv7 ids begin with their creation time, so items of one minute share a prefix: the short id is the random end. */
const SHORT_ID_LENGTH = 8;
export const shortId = (id: string): string => id.replace(/-/g, '').slice(-SHORT_ID_LENGTH);

const TITLE_WIDTH = 48;

/** "Sun 22 Nov 17:00" in the user's zone; the year only when it is not this year's. */
function formatDue(iso: string | null, zone: string, now = new Date()): string {
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
  return [get('weekday'), get('day'), get('month'), ...(sameYear ? [] : [get('year')]), `${get('hour')}:${get('minute')}`].join(' ');
}

const truncate = (text: string, width: number): string => {
  const chars = Array.from(text);
  return chars.length <= width ? text : `${chars.slice(0, width - 1).join('')}…`;
};

const mark = (item: Item): string => (item.status === 'archived' ? '[-]' : item.is_completed ? '[x]' : '[ ]');

/** Project names by id: all of them (`GET /projects`), or only those known without reading them. */
export type ProjectNames = Map<string, Pick<Project, 'name'>>;

export interface RowContext {
  projects: ProjectNames;
  zone: string;
}

/** One line per item, columns aligned: short id, done mark, title, project, due. */
export function itemRows(items: Item[], ctx: RowContext): string[] {
  const cells = items.map((item) => [
    shortId(item.id),
    mark(item),
    truncate((item.title ?? '').replace(/\s+/g, ' ') || '(untitled)', TITLE_WIDTH),
    ctx.projects.get(item.project_id)?.name ?? shortId(item.project_id),
    formatDue(item.due_at, ctx.zone),
  ]);
  const widths = [0, 1, 2, 3].map((col) => Math.max(0, ...cells.map((row) => Array.from(row[col] ?? '').length)));
  const pad = (text: string, width: number) => text + ' '.repeat(Math.max(0, width - Array.from(text).length));
  return cells.map((row) =>
    row
      .map((cell, col) => (col < 4 ? pad(cell, widths[col] ?? 0) : cell))
      .join('  ')
      .trimEnd(),
  );
}

/** The long form of `cin show`: label, value lines, then the Markdown body. */
export function itemDetails(item: Item, ctx: RowContext): string[] {
  const lines: Array<[string, string]> = [
    ['id', item.id],
    ['project', ctx.projects.get(item.project_id)?.name ?? item.project_id],
    ['type', item.type],
    ['status', item.status],
  ];
  if (item.due_at) lines.push(['due', `${formatDue(item.due_at, ctx.zone)} (${ctx.zone})`]);
  if (item.tags.length > 0) lines.push(['tags', item.tags.join(', ')]);
  lines.push(['created', formatDue(item.created_at, ctx.zone)], ['updated', formatDue(item.updated_at, ctx.zone)]);
  const width = Math.max(...lines.map(([label]) => label.length));
  const out = [item.title ?? '(untitled)', ...lines.map(([label, value]) => `  ${label.padEnd(width)}  ${value}`)];
  if (item.content_md) out.push('', item.content_md);
  return out;
}
