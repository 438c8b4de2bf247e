import type { ItemView } from '../../modules/items/item-view.js';
import type { ProjectView } from '../../modules/projects/projects.service.js';
import { dueInputs, dueLabel, formatDueAbsolute, type DateContext } from '../dates.js';
import { recurrenceInWords } from '../recurrence-choice.js';
import { html, type SafeHtml } from '../html.js';
import { csrfField } from '../layout.js';
import { markdownExcerpt } from '../markdown.js';

export interface RowContext {
  csrf: string;
  /** The page the row's forms come back to. */
  self: string;
  dates: DateContext;
  projects: ProjectView[];
  projectNames: Map<string, string>;
  /** Each shown item's subtasks, listed under it. */
  children?: Map<string, ItemView[]>;
  /** Parent titles, for a subtask shown on its own (Today, Upcoming, search). */
  parentNames?: Map<string, string>;
}

export const itemName = (item: ItemView): string => item.title ?? item.content_md?.split('\n')[0] ?? '(untitled)';

export function dueBadge(iso: string, dates: DateContext, allDay = false): SafeHtml {
  const due = dueLabel(iso, dates, allDay);
  return html`<span class="due${due.overdue ? ' overdue' : ''}">${due.overdue ? html`<span aria-hidden="true">⚠ </span>` : ''}<time datetime="${iso}" title="${due.full}">${due.text}</time></span>`;
}

/** A small ↻ for a repeating item (its rule in words for screen readers and as a tooltip), and the next reminder. */
export function reminderMarks(item: ItemView, dates: DateContext): SafeHtml {
  const repeat = item.recurrence ? recurrenceInWords(item.recurrence) : null;
  const remind = item.remind_at && !item.is_completed ? formatDueAbsolute(item.remind_at, dates) : null;
  return html`${repeat ? html` <span class="mark repeat" title="Repeats: ${repeat}"><span aria-hidden="true">↻</span><span class="visually-hidden">Repeats ${repeat.charAt(0).toLowerCase()}${repeat.slice(1)}</span></span>` : ''}${
    remind ? html` <span class="mark remind">reminder <time datetime="${item.remind_at}">${remind}</time></span>` : ''
  }`;
}

const option = (value: string, label: string, selected: boolean): SafeHtml =>
  html`<option value="${value}"${selected ? html` selected` : ''}>${label}</option>`;

/**
 * The row's other actions behind one disclosure: set a date, move, archive, delete. Its own form,
 * whose first button is "Set date", so Return in the date field sets the date (never the done toggle).
 */
function moreActions(c: RowContext, item: ItemView, name: string): SafeHtml {
  const base = `/inbox/items/${item.id}`;
  const due = dueInputs(item.due_at, c.dates.zone, item.all_day);
  const archived = item.status === 'archived';
  return html`<details class="more">
  <summary aria-label="More actions for “${name}”" title="Date, move, archive, delete"><span aria-hidden="true">⋯</span></summary>
  <form class="more-form" method="post" action="${base}/due" data-inplace>${csrfField(c.csrf)}<input type="hidden" name="return" value="${c.self}"><input type="hidden" name="due_time" value="${due.time}">
    <div class="more-line"><label for="due-${item.id}">Due date</label><input id="due-${item.id}" type="date" name="due_date" value="${due.date}"><button class="small" type="submit" formaction="${base}/due">Set date</button></div>
    <div class="more-line"><label for="move-${item.id}">Project</label><select id="move-${item.id}" name="project_id">${c.projects.map((p) => option(p.id, p.name, p.id === item.project_id))}</select><button class="small" type="submit" formaction="${base}/move">Move</button></div>
    <div class="more-line">${
      archived
        ? html`<button class="small" type="submit" formaction="${base}/unarchive">Unarchive</button>`
        : html`<button class="small" type="submit" formaction="${base}/archive">Archive</button>`
    }<button class="small danger" type="submit" formaction="${base}/delete" data-confirm="Delete “${name}” and its subtasks? This cannot be undone.">Delete</button></div>
  </form>
</details>`;
}

/**
 * One item of a list: the done toggle, its title linking to its page, its facts, and the other
 * actions behind one "⋯": three Tab stops a row (the project and tag links are for the mouse; the
 * filters and the sidebar reach the same pages by keyboard). Its subtasks follow, in order.
 */
export function itemRow(c: RowContext, item: ItemView, nested = false): SafeHtml {
  const name = itemName(item);
  const done = item.is_completed;
  const archived = item.status === 'archived';
  const base = `/inbox/items/${item.id}`;
  const due = dueInputs(item.due_at, c.dates.zone, item.all_day);
  const children = nested ? [] : (c.children?.get(item.id) ?? []);
  const parentName = !nested && item.parent_id ? c.parentNames?.get(item.parent_id) : undefined;
  return html`<li class="item${done ? ' done' : ''}${nested ? ' sub' : ''}" id="item-${item.id}" tabindex="-1" data-item-id="${item.id}" data-project-id="${item.project_id}" data-due-date="${due.date}" data-due-time="${due.time}" data-name="${name}">
<div class="line">
<form class="row" method="post" action="${base}/toggle" data-inplace>${csrfField(c.csrf)}<input type="hidden" name="return" value="${c.self}">
  <button class="check" type="submit" aria-pressed="${done ? 'true' : 'false'}" aria-label="${done ? `Mark “${name}” not done` : `Mark “${name}” done`}" title="${done ? 'Mark not done' : 'Mark done'}">${done ? '✓' : ''}</button>
  <div class="body">
    <p class="title"><a href="${base}">${name}</a></p>
    ${item.title && item.content_md && !nested ? html`<p class="content">${markdownExcerpt(item.content_md)}</p>` : ''}
    <p class="meta">
      ${nested ? '' : html`<a class="badge" tabindex="-1" href="/projects/${item.project_id}">${c.projectNames.get(item.project_id) ?? 'Project'}</a>`}
      ${item.type === 'note' ? html`<span>Note</span>` : ''}
      ${parentName ? html`<span class="parent">Subtask of ${parentName}</span>` : item.parent_id && !nested ? html`<span>Subtask</span>` : ''}
      ${archived ? html`<span>Archived</span>` : ''}
      ${item.due_at && !done ? dueBadge(item.due_at, c.dates, item.all_day) : ''}${reminderMarks(item, c.dates)}
      ${children.length > 0 ? html`<span>${children.filter((s) => s.is_completed).length}/${children.length} subtasks</span>` : ''}
      ${item.tags.map((t) => html`<a class="tag" tabindex="-1" href="/items?tag=${encodeURIComponent(t)}">@${t}</a>`)}
    </p>
  </div>
</form>
${moreActions(c, item, name)}
</div>
${children.length > 0 ? html`<ul class="subtasks" aria-label="Subtasks of “${name}”">${children.map((s) => itemRow(c, s, true))}</ul>` : ''}
</li>`;
}
