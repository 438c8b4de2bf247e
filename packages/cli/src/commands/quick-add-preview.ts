import type { QuickAdd } from '@capture-inbox/sdk';
import type { RowContext } from '../format.js';

const when = (iso: string, zone: string): string =>
  `${new Intl.DateTimeFormat('en-GB', { timeZone: zone, weekday: 'short', day: 'numeric', month: 'short', year: 'numeric', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }).format(new Date(iso))} (${zone})`;

/**
 * `cin add --dry-run`: each span quick add understood (kind, the text as typed, what it means),
 * then the fields a capture would store. Plain lines, so they read in a terminal and in a script.
 */
export function quickAddLines(parsed: QuickAdd, ctx: RowContext): string[] {
  const meaning = (kind: string, value: string): string => {
    if (kind === 'project') return ctx.projects.get(value)?.name ?? value;
    if (kind === 'date') return when(value, ctx.zone);
    return value;
  };
  const spans = parsed.spans.map((s) => `${s.kind.padEnd(10)}  ${JSON.stringify(s.text)}  → ${meaning(s.kind, s.value)}`);
  const fields: [string, string][] = [
    ['title', parsed.title],
    ['project', parsed.project_id ? (ctx.projects.get(parsed.project_id)?.name ?? parsed.project_id) : 'Inbox (none named)'],
    ['due', parsed.due_at ? when(parsed.due_at, ctx.zone) : 'none'],
    ['tags', parsed.tags.length > 0 ? parsed.tags.join(', ') : 'none'],
    ['repeats', parsed.recurrence ? `${parsed.recurrence.rule} (from ${parsed.recurrence.from})` : 'no'],
  ];
  if (parsed.content_md !== null) fields.push(['notes', `${parsed.content_md.split('\n').length} line(s)`]);
  return [
    ...(spans.length > 0 ? spans : ['nothing understood: the text is stored as typed']),
    '',
    ...fields.map(([k, v]) => `${k.padEnd(10)}  ${v}`),
    '',
    'dry run: nothing was stored',
  ];
}
