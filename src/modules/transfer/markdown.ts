import type { ItemView } from '../items/item-view.js';

const INDENT = '  ';

/** Due dates as a reader expects them: the user's zone, to the minute; an all-day due is its date alone. */
function dueText(dueAt: string, zone: string, allDay: boolean): string {
  const parts = new Intl.DateTimeFormat('en-CA', {
    timeZone: zone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
  }).formatToParts(new Date(dueAt));
  const get = (type: string) => parts.find((p) => p.type === type)?.value ?? '';
  const day = `${get('year')}-${get('month')}-${get('day')}`;
  return allDay ? day : `${day} ${get('hour')}:${get('minute')}`;
}

/**
 * Tags as quick add, cin and the web app write them, `@name`: in Markdown `#` would read as a
 * project (and at a line's start as a heading). A space inside a name becomes a hyphen.
 */
const tagText = (tags: readonly string[]): string => tags.map((t) => ` @${t.replace(/\s+/g, '-')}`).join('');

function inline(item: ItemView, zone: string): string {
  const due = item.due_at ? ` (due ${dueText(item.due_at, zone, item.all_day)})` : '';
  const archived = item.status === 'archived' ? ' (archived)' : '';
  return `${due}${tagText(item.tags)}${archived}`;
}

/**
 * Body lines under a list item, indented to stay inside it, after a blank line: without it
 * CommonMark reads the body as a lazy continuation of the title's line, one paragraph.
 */
const body = (text: string | null, indent: string): string =>
  text && text.trim() !== ''
    ? `\n${text
        .trim()
        .split('\n')
        .map((l) => (l === '' ? '' : `${indent}${l}`))
        .join('\n')}\n\n`
    : '';

function renderItem(item: ItemView, children: Map<string, ItemView[]>, depth: number, zone: string): string {
  const pad = INDENT.repeat(depth);
  const title = item.title ?? '(untitled)';
  let out: string;
  if (item.type === 'todo' || depth > 0) {
    const box = item.type === 'todo' ? (item.is_completed ? '[x] ' : '[ ] ') : '';
    out = `${pad}- ${box}${title}${inline(item, zone)}\n${body(item.content_md, pad + INDENT)}`;
  } else {
    // A note at the top level is a paragraph: its title in bold, then its text.
    out = `**${title}**${inline(item, zone)}\n${item.content_md ? `\n${item.content_md.trim()}\n` : ''}\n`;
  }
  for (const child of children.get(item.id) ?? []) out += renderItem(child, children, item.type === 'todo' || depth > 0 ? depth + 1 : 0, zone);
  return out;
}

/** Where a project's Markdown stands between pages: nothing yet, or whether it ends with a blank line. */
export interface MarkdownFlow {
  empty: boolean;
  endsBlank: boolean;
}

export const freshFlow = (): MarkdownFlow => ({ empty: true, endsBlank: false });

/**
 * Top-level items of a project (oldest first), each with its subtasks nested below it from
 * `children` (by parent id, oldest first): one page of the project's lines. `flow` carries what the
 * page before ended with.
 */
export function renderRoots(roots: readonly ItemView[], children: Map<string, ItemView[]>, zone: string, flow: MarkdownFlow): string {
  let lines = '';
  for (const root of roots) {
    // A note's paragraph right after a task line would join that list item: a blank line ends the list first.
    if (root.type === 'note' && !flow.empty && !flow.endsBlank) lines += '\n';
    const text = renderItem(root, children, 0, zone);
    lines += text;
    flow.empty = false;
    flow.endsBlank = text.endsWith('\n\n');
  }
  return lines;
}

/** A project's heading (GFM `#`), before its lines. */
export const projectHeading = (name: string): string => `# ${name}\n\n`;

/** What a project without items shows under its heading. */
export const NO_ITEMS = '_No items._\n';

/**
 * One project as GFM, whole: a `#` heading, todos as task lines (`- [ ]`, `- [x]`), notes as
 * paragraphs, subtasks indented under their parent, due dates and tags inline. Oldest first, as
 * written. The export streams the same lines page by page (renderRoots).
 */
export function renderProjectMarkdown(name: string, items: readonly ItemView[], zone: string): string {
  const ids = new Set(items.map((i) => i.id));
  const children = new Map<string, ItemView[]>();
  const roots: ItemView[] = [];
  const oldestFirst = [...items].sort((a, b) => (a.created_at < b.created_at ? -1 : a.created_at > b.created_at ? 1 : a.id < b.id ? -1 : 1));
  for (const item of oldestFirst) {
    if (item.parent_id && ids.has(item.parent_id)) children.set(item.parent_id, [...(children.get(item.parent_id) ?? []), item]);
    else roots.push(item);
  }
  const lines = renderRoots(roots, children, zone, freshFlow());
  return `${projectHeading(name)}${lines === '' ? NO_ITEMS : lines}`;
}
