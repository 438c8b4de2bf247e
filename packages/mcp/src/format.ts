import type { AiDecision } from './inbox-api.js';
import type { ItemView } from './schemas.js';

const TITLE_CHARS = 60;

/** 'Call the dentist', cut at a readable length: a summary line is for a model to read, not a dump. */
export function quoteTitle(title: string | null): string {
  if (title === null || title.trim() === '') return '(untitled)';
  const chars = Array.from(title.trim());
  return `'${chars.length > TITLE_CHARS ? `${chars.slice(0, TITLE_CHARS - 1).join('')}…` : chars.join('')}'`;
}

/**
 * "Fri 28 Nov 09:00 (Europe/Berlin)": the wall-clock time where the user lives, with the zone
 * named, so a model repeating it to the user cannot shift it by an hour. The year is shown only
 * when it is not the current one. Without a known zone the time is given in UTC.
 */
export function formatDue(iso: string, timeZone: string | null, now: Date = new Date()): string {
  const zone = timeZone ?? 'UTC';
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  const parts = (d: Date) =>
    Object.fromEntries(
      new Intl.DateTimeFormat('en-GB', {
        timeZone: zone,
        weekday: 'short',
        day: 'numeric',
        month: 'short',
        year: 'numeric',
        hour: '2-digit',
        minute: '2-digit',
        hourCycle: 'h23',
      })
        .formatToParts(d)
        .map((p) => [p.type, p.value]),
    );
  const p = parts(date);
  const year = p.year !== parts(now).year ? ` ${p.year}` : '';
  return `${p.weekday} ${p.day} ${p.month}${year} ${p.hour}:${p.minute} (${zone})`;
}

/** "Fri 28 Nov (all day)": an all-day due is a date in the user's zone, with no time to shift. */
export function formatDay(iso: string, timeZone: string | null, now: Date = new Date()): string {
  const zone = timeZone ?? 'UTC';
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  const year = (d: Date) => new Intl.DateTimeFormat('en-GB', { timeZone: zone, year: 'numeric' }).format(d);
  const day = new Intl.DateTimeFormat('en-GB', { timeZone: zone, weekday: 'short', day: 'numeric', month: 'short' }).format(date).replace(',', '');
  return `${day}${year(date) !== year(now) ? ` ${year(date)}` : ''} (all day)`;
}

/** 'Title' → Project, due …, done · id …: one item as one line; a note goes before the id. */
export function describeItem(item: ItemView, timeZone: string | null, note = ''): string {
  const parts = [`${quoteTitle(item.title)}${item.project_name ? ` → ${item.project_name}` : ''}`];
  if (item.due_at) parts.push(`due ${item.all_day ? formatDay(item.due_at, timeZone) : formatDue(item.due_at, timeZone)}`);
  if (item.status !== 'todo') parts.push(item.status);
  if (item.tags.length > 0) parts.push(item.tags.map((t) => `@${t}`).join(' '));
  return `${parts.join(', ')}${note} · id ${item.id}`;
}

/** A summary line, then one line per item, so a client that shows the model only text loses nothing it needs. */
export function describeList(summary: string, items: readonly ItemView[], timeZone: string | null): string {
  return [summary, ...items.map((item) => `- ${describeItem(item, timeZone)}`)].join('\n');
}

const FIELD_NAMES: Record<string, string> = { project_id: 'project', due_at: 'due date', all_day: 'all-day', type: 'type', title: 'title' };

/** What the organizer changed, for the summary line; empty when it did not run. */
export function organizerNote(ai: AiDecision | null | undefined): string {
  if (!ai) return '';
  const fields = ai.applied.map((f) => FIELD_NAMES[f] ?? f);
  return fields.length > 0 ? ` (the organizer set its ${fields.join(', ')})` : ' (the organizer changed nothing)';
}
