import { itemEtag } from '../../modules/items/item-etag.js';
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

export function dueBadge(iso: string, dates: DateContext, allDay = false, full = true): SafeHtml {
  const due = dueLabel(iso, dates, allDay);
  // The ⚠ of an overdue date is drawn by the stylesheet (.due.overdue::before); a list row leaves out the full date (decision 0077).
  return html`<span class="due${due.overdue ? ' overdue' : ''}"><time datetime="${iso}"${full ? html` title="${due.full}"` : ''}>${due.text}</time></span>`;
}

/** A small ↻ for a repeating item (its rule in words for screen readers and as a tooltip), and the next reminder. */
export function reminderMarks(item: ItemView, dates: DateContext): SafeHtml {
  const repeat = item.recurrence ? recurrenceInWords(item.recurrence) : null;
  const remind = item.remind_at && !item.is_completed ? formatDueAbsolute(item.remind_at, dates) : null;
  return html`${repeat ? html` <span class="mark repeat" title="Repeats: ${repeat}"><span aria-hidden="true">↻</span><span class="visually-hidden">Repeats ${repeat.charAt(0).toLowerCase()}${repeat.slice(1)}</span></span>` : ''}${
    remind ? html` <span class="mark remind">reminder <time datetime="${item.remind_at}">${remind}</time></span>` : ''
  }`;
}

/**
 * The page's project choices, once: each row's Move list holds only its own project, and the page
 * script copies these into it when its ⋯ menu opens (issue 47 item 8: a `<select>` of every project
 * in every row made Today's 150 rows weigh most of a megabyte). Without the script, an item moves
 * from its own page, which the row's menu links to.
 */
export const projectOptions = (projects: readonly ProjectView[]): SafeHtml =>
  html`<template id="project-options">${projects.map((p) => html`<option value="${p.id}">${p.name}</option>`)}</template>`;

/**
 * The row's other actions behind one "⋯" (set a date, move, archive, delete). The page script
 * builds their form from the row (client/regions/row-menu.ts), so a row stays small (issue 47
 * item 8, decision 0077); without the script the "⋯" is hidden and the title's link leads to the
 * item's page, which has every one of them.
 */
function moreActions(item: ItemView, name: string): SafeHtml {
  return html`<details class="more"><summary aria-label="More actions for “${name}”"></summary></details>`;
}

/**
 * The page's one form for the rows' done buttons (`form="act"`): its CSRF token and return
 * address once, instead of a form in each row. Each button names its item in `formaction`.
 */
export const rowActionsForm = (csrf: string, self: string, dates: Pick<DateContext, 'zone' | 'now'>): SafeHtml =>
  // data-today: the user's date by the server's clock, for the row menu's quick dates (Today, Tomorrow, Next week).
  html`<form id="act" method="post" action="/inbox/items" data-inplace data-zone="${dates.zone}" data-today="${dueInputs(dates.now.toISOString(), dates.zone, true).date}">${csrfField(csrf)}<input type="hidden" name="return" value="${self}"></form>`;

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
  const children = nested ? [] : (c.children?.get(item.id) ?? []);
  const parentName = !nested && item.parent_id ? c.parentNames?.get(item.parent_id) : undefined;
  // The script's menu reads the due date from the row's <time> (in the zone of #act), the project from its badge;
  // an action queued offline carries the row's version, so its replay changes nothing the item changed since (decision 0085).
  return html`<li class="item${done ? ' done' : ''}${nested ? ' sub' : ''}" id="item-${item.id}" tabindex="-1" data-version="${itemEtag(item)}"${
    nested ? html` data-project-id="${item.project_id}"` : ''
  }${archived ? html` data-archived` : ''}${item.all_day ? html` data-all-day` : ''}><div class="line"><div class="row"><button class="check" form="act" formaction="${base}/toggle" aria-pressed="${done ? 'true' : 'false'}" aria-label="${done ? `Mark “${name}” not done` : `Mark “${name}” done`}">${done ? '✓' : ''}</button><div class="body"><p class="title"><a href="${base}">${name}</a></p>${item.title && item.content_md && !nested ? html`<p class="content">${markdownExcerpt(item.content_md)}</p>` : ''}<p class="meta">${
    nested ? '' : html`<a class="badge" tabindex="-1" href="/projects/${item.project_id}">${c.projectNames.get(item.project_id) ?? 'Project'}</a>`
  }${item.type === 'note' ? html` <span>Note</span>` : ''}${
    parentName ? html` <span class="parent">Subtask of ${parentName}</span>` : item.parent_id && !nested ? html` <span>Subtask</span>` : ''
  }${archived ? html` <span>Archived</span>` : ''}${item.due_at && !done ? html` ${dueBadge(item.due_at, c.dates, item.all_day, false)}` : ''}${reminderMarks(item, c.dates)}${
    children.length > 0 ? html` <span>${children.filter((s) => s.is_completed).length}/${children.length} subtasks</span>` : ''
  }${item.tags.map((t) => html` <a class="tag" tabindex="-1" href="/items?tag=${encodeURIComponent(t)}">@${t}</a>`)}</p></div></div>${moreActions(item, name)}</div>${children.length > 0 ? html`<ul class="subtasks" aria-label="Subtasks of “${name}”">${children.map((s) => itemRow(c, s, true))}</ul>` : ''}</li>`;
}
