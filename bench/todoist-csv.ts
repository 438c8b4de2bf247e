import { prng, themedTitles } from './themed-items.js';

/*
 * A Todoist CSV export of a whole account (issue 52 item 4), as Todoist writes it: a header of its
 * columns, `task` rows (INDENT 2 makes a subtask), `section` rows (which the import turns into
 * projects), `@label` words (tags) and DATE cells. Deterministic for a seed and a day.
 */

export const TODOIST_HEADER = 'TYPE,CONTENT,DESCRIPTION,PRIORITY,INDENT,AUTHOR,RESPONSIBLE,DATE,DATE_LANG,TIMEZONE';
const SECTIONS = ['Work', 'Home', 'Errands', 'Reading', 'Health', 'Money', 'Travel', 'Family'];
const LABELS = ['urgent', 'waiting', 'phone', 'computer', 'office', 'home', 'someday', 'quick', 'deep', 'errand'];
/** The first share of the tasks stays in the Inbox (no section above them). */
const INBOX_SHARE = 0.4;
const DAY_MS = 86_400_000;

const isoDay = (ms: number): string => new Date(ms).toISOString().slice(0, 10);
const quote = (cell: string): string => (/[",\n]/.test(cell) ? `"${cell.replace(/"/g, '""')}"` : cell);

export interface TodoistCsv {
  text: string;
  tasks: number;
  sections: number;
  /** Tasks due today (UTC day of `today`), and due in the next 14 days. */
  dueToday: number;
  dueUpcoming: number;
}

/** `tasks` task rows: 40 % in the Inbox, the rest under eight sections; 2 % due today, 8 % in the next two weeks, 1 % overdue; 10 % labelled; 5 % subtasks. */
export function todoistCsv(tasks: number, seed: number, today: Date): TodoistCsv {
  const random = prng(seed);
  const titles = themedTitles(tasks, seed);
  const inInbox = Math.floor(tasks * INBOX_SHARE);
  const perSection = Math.ceil((tasks - inInbox) / SECTIONS.length);
  const lines = [TODOIST_HEADER];
  const base = Date.UTC(today.getUTCFullYear(), today.getUTCMonth(), today.getUTCDate());
  let sections = 0;
  let dueToday = 0;
  let dueUpcoming = 0;
  let previousWasTopLevel = false;
  for (let i = 0; i < tasks; i += 1) {
    if (i >= inInbox && (i - inInbox) % perSection === 0) {
      lines.push(`section,${SECTIONS[sections % SECTIONS.length]},,,,,,,,`);
      sections += 1;
      previousWasTopLevel = false;
    }
    const r = random();
    let date = '';
    if (r < 0.02) {
      date = isoDay(base);
      dueToday += 1;
    } else if (r < 0.1) {
      date = isoDay(base + (1 + Math.floor(random() * 14)) * DAY_MS);
      dueUpcoming += 1;
    } else if (r < 0.11) date = isoDay(base - (1 + Math.floor(random() * 30)) * DAY_MS);
    const label = random() < 0.1 ? ` @${LABELS[Math.floor(random() * LABELS.length)]}` : '';
    const indent: number = previousWasTopLevel && random() < 0.05 ? 2 : 1;
    previousWasTopLevel = indent === 1;
    lines.push(`task,${quote(`${titles[i]!.title} ${i}${label}`)},,4,${indent},,,${date},en,`);
  }
  return { text: `${lines.join('\n')}\n`, tasks, sections, dueToday, dueUpcoming };
}
