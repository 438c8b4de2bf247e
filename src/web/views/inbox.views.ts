import type { SessionUser } from '../../modules/accounts/accounts.service.js';
import type { ItemView } from '../../modules/items/item-view.js';
import type { ProjectView } from '../../modules/projects/projects.service.js';
import { sentence } from '../format.js';
import type { DateContext } from '../dates.js';
import { html, type SafeHtml } from '../html.js';
import type { InboxFilters, Show } from '../inbox-query.js';
import { csrfField, renderPage, type Section } from '../layout.js';
import { captureForm, type CaptureFormData } from './capture.views.js';
import { itemRow, projectOptions, rowActionsForm, type RowContext } from './item-row.views.js';
import { sidebar } from './sidebar.views.js';

export type { InboxFilters } from '../inbox-query.js';

/** One headed part of a list: "Overdue", "Today", a day of Upcoming, or the whole list. */
export interface ListGroup {
  id: string;
  /** Null: the page's own heading names it. */
  heading: string | null;
  items: ItemView[];
  /** A form the group's heading offers: Upcoming's Overdue "Reschedule all to today". */
  action?: 'reschedule-overdue';
}

export interface InboxPageData {
  user: SessionUser;
  csrf: string;
  /** The page's name in the title, its heading and the navigation. */
  title: string;
  section: Section;
  filters: InboxFilters;
  groups: ListGroup[];
  /** Items completed today: collapsed under the open ones. */
  doneToday?: ItemView[];
  /** Subtasks by parent, shown under them; parent names for subtasks shown alone. */
  children?: Map<string, ItemView[]>;
  parentNames?: Map<string, string>;
  projects: ProjectView[];
  tags: { name: string; item_count: number }[];
  dates: DateContext;
  /** The URL of the next page, or null on the last. */
  nextPage: string | null;
  /** This page's own URL; forms come back to it. */
  self: string;
  /** Where the filter form goes: /items or the project's page. */
  base: string;
  /** What an empty list says. */
  empty: SafeHtml;
  capture: Pick<CaptureFormData, 'organize' | 'voice' | 'draft' | 'error'>;
  /** A project page's heading with its rename and delete forms. */
  header?: SafeHtml;
  /** What the organizer did with the last capture, or the once-only Pro note. */
  notice?: SafeHtml;
  error?: string;
}

const SHOW_LABELS: [Show, string][] = [
  ['open', 'Open'],
  ['done', 'Done'],
  ['archived', 'Archived'],
  ['all', 'All'],
];

function option(value: string, label: string, selected: boolean): SafeHtml {
  return html`<option value="${value}"${selected ? html` selected` : ''}>${label}</option>`;
}

/** Search in one line; project, tag and open/done/archived behind one "Filters" control (open when one is set). */
function filterForm(d: InboxPageData): SafeHtml {
  const f = d.filters;
  const onProjectPage = d.base.startsWith('/projects/');
  const set = (f.project !== '' && !onProjectPage) || f.tag !== '' || f.show !== 'open';
  return html`<form class="filters" method="get" action="${d.base}" role="search" aria-label="Search and filter items">
  <div class="search-line"><label for="search" class="visually-hidden">Search</label><input id="search" type="search" name="q" value="${f.q}" maxlength="500" placeholder="Search titles and notes, or @tag" enterkeyhint="search" aria-describedby="search-help"><button type="submit">Search</button></div>
  <details class="filter-more"${set ? html` open` : ''}><summary>Filters${set ? ' (on)' : ''}</summary>
  <p class="hint" id="search-help">Search finds each word by its start in titles and notes, in any language: “mil” finds “Milk”, “準備” finds “会議の準備”. A tag written as in the capture box, <kbd>@home</kbd> (or <kbd>#home</kbd>), shows the items tagged home.</p>
  <div class="filter-fields">
  ${onProjectPage ? '' : html`<div><label for="filter-project">Project</label><select id="filter-project" name="project" data-autosubmit>${option('', 'All projects', f.project === '')}${d.projects.map((p) => option(p.id, p.name, p.id === f.project))}</select></div>`}
  <div><label for="filter-tag">Tag</label><select id="filter-tag" name="tag" data-autosubmit>${option('', 'All tags', f.tag === '')}${d.tags.map((t) => option(t.name, `@${t.name}`, t.name.toLowerCase() === f.tag.toLowerCase()))}</select></div>
  <div><label for="filter-show">Show</label><select id="filter-show" name="show" data-autosubmit>${SHOW_LABELS.map(([v, l]) => option(v, l, v === f.show))}</select></div>
  </div></details>
</form>`;
}

function group(row: RowContext, g: ListGroup): SafeHtml {
  const list = html`<ul class="items">${g.items.map((item) => itemRow(row, item))}</ul>`;
  if (g.heading === null) return html`<section class="group" id="${g.id}" aria-label="Items">${list}</section>`;
  const action =
    g.action === 'reschedule-overdue'
      ? html`<form class="group-action" method="post" action="/upcoming/reschedule-overdue" data-reschedule>${csrfField(row.csrf)}<button class="small" type="submit">Reschedule all overdue to today</button></form>`
      : '';
  return html`<section class="group" id="${g.id}" aria-labelledby="${g.id}-h"><h2 class="group-heading${g.id === 'overdue' ? ' overdue' : ''}" id="${g.id}-h">${g.heading} <span class="count">${g.items.length}</span></h2>${action}${list}</section>`;
}

export function inboxPage(d: InboxPageData): string {
  const projectNames = new Map(d.projects.map((p) => [p.id, p.name]));
  const row: RowContext = {
    csrf: d.csrf,
    self: d.self,
    dates: d.dates,
    projects: d.projects,
    projectNames,
    ...(d.children ? { children: d.children } : {}),
    ...(d.parentNames ? { parentNames: d.parentNames } : {}),
  };
  const groups = d.groups.filter((g) => g.items.length > 0);
  const done = d.doneToday ?? [];
  // The lists are one region the script replaces after an action, so an item moves between
  // Overdue, Today and Done today without a reload.
  const lists = html`<div id="lists">
${groups.length > 0 ? groups.map((g) => group(row, g)) : d.empty}
${
  done.length > 0
    ? html`<details class="done-today" id="done-today"><summary>Done today <span class="count">${done.length}</span></summary><ul class="items">${done.map((item) => itemRow(row, item))}</ul></details>`
    : ''
}
${d.nextPage ? html`<nav class="pager" aria-label="More items"><a class="button" href="${d.nextPage}">Older items →</a></nav>` : ''}
</div>`;
  const body = html`<div class="with-sidebar">
<div class="main-column">
${d.header ?? html`<h1 class="list-heading">${d.title}</h1>`}
${d.error ? html`<div class="alert error" role="alert">${sentence(d.error)}</div>` : ''}
${d.notice ?? ''}
${captureForm({ csrf: d.csrf, self: d.self, projects: d.projects, project: d.filters.project, ...d.capture })}
${filterForm(d)}
${rowActionsForm(d.csrf, d.self, d.dates)}
${lists}
${projectOptions(d.projects)}
<div class="toast" data-toast role="status" aria-live="polite" hidden></div>
</div>
${sidebar({ projects: d.projects, tags: d.tags, currentProject: d.filters.project, currentTag: d.filters.tag })}
</div>`;
  return renderPage({ title: d.title, section: d.section, user: d.user, csrf: d.csrf, body, wide: true });
}
