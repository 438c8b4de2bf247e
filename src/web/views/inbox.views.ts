import type { SessionUser } from '../../modules/accounts/accounts.service.js';
import type { ItemView } from '../../modules/items/item-view.js';
import { formatDateTime, sentence } from '../format.js';
import { html, type SafeHtml } from '../html.js';
import { csrfField, renderPage } from '../layout.js';

export type Show = 'active' | 'archived' | 'all';

export interface InboxFilters {
  q: string;
  project: string;
  tag: string;
  show: Show;
}

export interface InboxPageData {
  user: SessionUser;
  csrf: string;
  filters: InboxFilters;
  items: ItemView[];
  projects: { id: string; name: string }[];
  tags: string[];
  /** The URL of the next page, or null on the last. */
  nextPage: string | null;
  /** This page's own URL; forms come back to it. */
  self: string;
  error?: string;
  /** What the capture box held when capturing failed. */
  draft?: string;
}

const SHOW_LABELS: [Show, string][] = [
  ['active', 'Active'],
  ['archived', 'Archived'],
  ['all', 'All'],
];

function option(value: string, label: string, selected: boolean): SafeHtml {
  return html`<option value="${value}"${selected ? html` selected` : ''}>${label}</option>`;
}

function captureForm(d: InboxPageData): SafeHtml {
  return html`<form class="capture" method="post" action="/inbox/capture">
  ${csrfField(d.csrf)}<input type="hidden" name="return" value="${d.self}">
  <label for="capture-text" class="visually-hidden">Capture a note or todo</label>
  <textarea id="capture-text" name="text" rows="2" required maxlength="100000" data-enter-submits
    placeholder="Capture a thought… (Enter to save, Shift+Enter for a new line)" autofocus>${d.draft ?? ''}</textarea>
  <div class="options">
    <select name="type" aria-label="Type">${option('todo', 'Todo', true)}${option('note', 'Note', false)}</select>
    <select name="project_id" aria-label="Project">${d.projects.map((p) => option(p.id, p.name, p.id === d.filters.project))}</select>
    <button class="primary" type="submit">Capture</button>
  </div>
</form>`;
}

function filterForm(d: InboxPageData): SafeHtml {
  const f = d.filters;
  return html`<form class="filters" method="get" action="/" role="search" aria-label="Filter items">
  <div class="search"><label for="search">Search</label><input id="search" type="search" name="q" value="${f.q}" maxlength="200" placeholder="Words in the title or text"></div>
  <div><label for="filter-project">Project</label><select id="filter-project" name="project" data-autosubmit>${option('', 'All projects', f.project === '')}${d.projects.map((p) => option(p.id, p.name, p.id === f.project))}</select></div>
  <div><label for="filter-tag">Tag</label><select id="filter-tag" name="tag" data-autosubmit>${option('', 'All tags', f.tag === '')}${d.tags.map((t) => option(t, `#${t}`, t.toLowerCase() === f.tag.toLowerCase()))}</select></div>
  <div><label for="filter-show">Show</label><select id="filter-show" name="show" data-autosubmit>${SHOW_LABELS.map(([v, l]) => option(v, l, v === f.show))}</select></div>
  <button type="submit">Search</button>
</form>`;
}

function itemRow(d: InboxPageData, item: ItemView, projectNames: Map<string, string>): SafeHtml {
  const name = item.title ?? item.content_md?.split('\n')[0] ?? '(untitled)';
  const done = item.is_completed;
  const archived = item.status === 'archived';
  const base = `/inbox/items/${item.id}`;
  // One form per row (its default action is the toggle; the other buttons name theirs), so a page
  // of 50 items carries 50 CSRF fields, not 150.
  return html`<li class="item${done ? ' done' : ''}" id="item-${item.id}" tabindex="-1" data-item-id="${item.id}">
<form class="row" method="post" action="${base}/toggle">${csrfField(d.csrf)}<input type="hidden" name="return" value="${d.self}">
  <button class="check" type="submit" aria-pressed="${done ? 'true' : 'false'}" aria-label="${done ? `Mark “${name}” not done` : `Mark “${name}” done`}" title="${done ? 'Mark not done' : 'Mark done'}">${done ? '✓' : ''}</button>
  <div class="body">
    <p class="title">${name}</p>
    ${item.title && item.content_md ? html`<p class="content">${item.content_md}</p>` : ''}
    <p class="meta">
      <span class="badge">${projectNames.get(item.project_id) ?? 'Project'}</span>
      ${item.type === 'note' ? html`<span>Note</span>` : ''}
      ${archived ? html`<span>Archived</span>` : ''}
      ${item.due_at ? html`<span>Due <time datetime="${item.due_at}">${formatDateTime(item.due_at, d.user.timezone)}</time></span>` : ''}
      ${item.tags.map((t) => html`<a href="/?tag=${encodeURIComponent(t)}">#${t}</a>`)}
    </p>
  </div>
  <div class="actions">
    ${archived
      ? html`<button class="small" type="submit" formaction="${base}/unarchive" aria-label="Unarchive “${name}”">Unarchive</button>`
      : html`<button class="small" type="submit" formaction="${base}/archive" aria-label="Archive “${name}”">Archive</button>`}
    <button class="small danger" type="submit" formaction="${base}/delete" data-confirm="Delete “${name}” and its subtasks?" aria-label="Delete “${name}”">Delete</button>
  </div>
</form>
</li>`;
}

export function inboxPage(d: InboxPageData): string {
  const projectNames = new Map(d.projects.map((p) => [p.id, p.name]));
  const filtered = d.filters.q !== '' || d.filters.project !== '' || d.filters.tag !== '' || d.filters.show !== 'active';
  const empty = filtered
    ? html`<p class="empty">No items match these filters. <a href="/">Show everything active</a></p>`
    : html`<p class="empty">Nothing here yet. Capture your first thought above.</p>`;
  const body = html`<h1 class="visually-hidden">Inbox</h1>
${d.error ? html`<div class="alert error" role="alert">${sentence(d.error)}</div>` : ''}
${captureForm(d)}
${filterForm(d)}
<h2 class="visually-hidden">Items</h2>
${d.items.length > 0 ? html`<ul class="items">${d.items.map((item) => itemRow(d, item, projectNames))}</ul>` : empty}
${d.nextPage ? html`<nav class="pager" aria-label="More items"><a class="button" href="${d.nextPage}">Older items →</a></nav>` : ''}`;
  return renderPage({ title: 'Inbox', section: 'inbox', user: d.user, csrf: d.csrf, body });
}
