import type { SessionUser } from '../../modules/accounts/accounts.service.js';
import type { ItemView } from '../../modules/items/item-view.js';
import type { ProjectView } from '../../modules/projects/projects.service.js';
import { sentence } from '../format.js';
import type { DateContext } from '../dates.js';
import { html, type SafeHtml } from '../html.js';
import type { InboxFilters, Show } from '../inbox-query.js';
import { renderPage } from '../layout.js';
import { captureForm, type CaptureFormData } from './capture.views.js';
import { itemRow } from './item-row.views.js';
import { sidebar } from './sidebar.views.js';

export type { InboxFilters } from '../inbox-query.js';

export interface InboxPageData {
  user: SessionUser;
  csrf: string;
  filters: InboxFilters;
  items: ItemView[];
  projects: ProjectView[];
  tags: { name: string; item_count: number }[];
  dates: DateContext;
  /** The URL of the next page, or null on the last. */
  nextPage: string | null;
  /** This page's own URL; forms come back to it. */
  self: string;
  /** Where the filter form goes: / or the project's page. */
  base: string;
  capture: Pick<CaptureFormData, 'organize' | 'voice' | 'draft' | 'error'>;
  /** A project page's heading with its rename and delete forms. */
  header?: SafeHtml;
  /** What the organizer did with the last capture, or the once-only Pro note. */
  notice?: SafeHtml;
  error?: string;
}

const SHOW_LABELS: [Show, string][] = [
  ['active', 'Active'],
  ['archived', 'Archived'],
  ['all', 'All'],
];

function option(value: string, label: string, selected: boolean): SafeHtml {
  return html`<option value="${value}"${selected ? html` selected` : ''}>${label}</option>`;
}

function filterForm(d: InboxPageData): SafeHtml {
  const f = d.filters;
  const onProjectPage = d.base !== '/';
  return html`<form class="filters${onProjectPage ? ' no-project' : ''}" method="get" action="${d.base}" role="search" aria-label="Filter items">
  <div class="search"><label for="search">Search</label><input id="search" type="search" name="q" value="${f.q}" maxlength="500" placeholder="Words in the title or notes"></div>
  ${onProjectPage ? '' : html`<div><label for="filter-project">Project</label><select id="filter-project" name="project" data-autosubmit>${option('', 'All projects', f.project === '')}${d.projects.map((p) => option(p.id, p.name, p.id === f.project))}</select></div>`}
  <div><label for="filter-tag">Tag</label><select id="filter-tag" name="tag" data-autosubmit>${option('', 'All tags', f.tag === '')}${d.tags.map((t) => option(t.name, `#${t.name}`, t.name.toLowerCase() === f.tag.toLowerCase()))}</select></div>
  <div><label for="filter-show">Show</label><select id="filter-show" name="show" data-autosubmit>${SHOW_LABELS.map(([v, l]) => option(v, l, v === f.show))}</select></div>
  <button type="submit">Search</button>
</form>`;
}

export function inboxPage(d: InboxPageData): string {
  const projectNames = new Map(d.projects.map((p) => [p.id, p.name]));
  const filtered = d.filters.q !== '' || (d.filters.project !== '' && d.base === '/') || d.filters.tag !== '' || d.filters.show !== 'active';
  const empty = filtered
    ? html`<p class="empty">No items match these filters. <a href="${d.base}">Show everything active</a></p>`
    : html`<p class="empty">Nothing here yet. Capture your first thought above.</p>`;
  const row = { csrf: d.csrf, self: d.self, dates: d.dates, projectNames };
  const title = d.header ? (projectNames.get(d.filters.project) ?? 'Project') : 'Inbox';
  const body = html`<div class="with-sidebar">
<div class="main-column">
${d.header ?? html`<h1 class="visually-hidden">Inbox</h1>`}
${d.error ? html`<div class="alert error" role="alert">${sentence(d.error)}</div>` : ''}
${d.notice ?? ''}
${captureForm({ csrf: d.csrf, self: d.self, projects: d.projects, project: d.filters.project, ...d.capture })}
${filterForm(d)}
<h2 class="visually-hidden">Items</h2>
${d.items.length > 0 ? html`<ul class="items">${d.items.map((item) => itemRow(row, item))}</ul>` : empty}
${d.nextPage ? html`<nav class="pager" aria-label="More items"><a class="button" href="${d.nextPage}">Older items →</a></nav>` : ''}
</div>
${sidebar({ projects: d.projects, tags: d.tags, currentProject: d.filters.project, currentTag: d.filters.tag })}
</div>`;
  return renderPage({ title, section: d.header ? 'projects' : 'inbox', user: d.user, csrf: d.csrf, body, wide: true });
}
