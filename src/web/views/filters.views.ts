import type { SessionUser } from '../../modules/accounts/accounts.service.js';
import type { ItemView } from '../../modules/items/item-view.js';
import { FILTER_NAME_MAX, FILTER_QUERY_MAX, type SavedFilterView } from '../../schemas/filter.js';
import { colorDot } from '../filters-nav.js';
import { sentence } from '../format.js';
import { html, type SafeHtml } from '../html.js';
import { csrfField, renderPage } from '../layout.js';
import { itemRow, projectOptions, rowActionsForm, type RowContext } from './item-row.views.js';

/** Where a query failed to read: the parser's (or the server's) message and UTF-16 offset. */
export interface QueryError {
  message: string;
  position: number | null;
}

/** A page of the items a query picks, as the rows of every list. */
export interface FilterListing {
  items: ItemView[];
  row: RowContext;
  nextPage: string | null;
}

/** A form sent back with what was typed and why it was refused. */
export interface FilterDraft {
  name: string;
  query: string;
  color: string;
  error: string;
  /** Set when the query is what was refused: the caret goes under it. */
  position?: number | null;
}

const FILTER_COLORS: readonly (readonly [string, string])[] = [
  ['', 'No color'],
  ['#e03131', 'Red'],
  ['#f08c00', 'Orange'],
  ['#2f9e44', 'Green'],
  ['#1971c2', 'Blue'],
  ['#7048e8', 'Violet'],
  ['#c2255c', 'Pink'],
  ['#495057', 'Grey'],
];

const EXAMPLES = ['today | overdue', '#Work & @calls', '7 days & !#Someday', 'no date & todos', 'search: invoice & done'];

/**
 * The error under the box: a caret under the place reading stopped (spaces in the box's monospace
 * font; the page script moves it as the box scrolls), and the message. The script fills the same
 * element as the user types (client/filters/filter-box.ts), so with or without it the error looks alike.
 */
function queryErrorBlock(id: string, query: string, error: QueryError | undefined): SafeHtml {
  const at = error?.position ?? null;
  const caret = at === null ? '' : `${' '.repeat(Math.min(at, query.length))}^`;
  return html`<div class="query-error" id="${id}" data-query-error${error ? '' : html` hidden`}><p class="caret-line" aria-hidden="true">${caret}</p><p class="field-error">${error ? sentence(error.message) : ''}</p></div>`;
}

/** The filter box: a GET form to /filter, the parser's error under it as the user types. */
function filterBox(query: string, error?: QueryError, label = 'Filter'): SafeHtml {
  return html`<form class="filter-box" method="get" action="/filter" role="search" aria-label="Filter items">
  <label for="filter-q">${label}</label>
  <div class="search-line"><input id="filter-q" class="query" type="text" name="q" value="${query}" maxlength="${FILTER_QUERY_MAX}" autocomplete="off" spellcheck="false" autocapitalize="off" enterkeyhint="search" data-filter-box placeholder="today | overdue" aria-describedby="filter-q-error filter-help"${error ? html` aria-invalid="true"` : ''}><button type="submit">Show</button></div>
  ${queryErrorBlock('filter-q-error', query, error)}
  <p class="hint" id="filter-help">Combine with <kbd>&amp;</kbd> (and), <kbd>|</kbd> (or), <kbd>!</kbd> (not) and parentheses: ${EXAMPLES.map((e, i) => html`${i > 0 ? ', ' : ''}<a href="/filter?q=${encodeURIComponent(e)}"><code>${e}</code></a>`)}. <a href="/filters#syntax">Every term</a></p>
</form>`;
}

function colorSelect(id: string, value: string): SafeHtml {
  const known = FILTER_COLORS.some(([c]) => c === value);
  const options = known ? FILTER_COLORS : [...FILTER_COLORS, [value, `Custom ${value}`] as const];
  return html`<label for="${id}">Color</label><select id="${id}" name="color">${options.map(
    ([c, l]) => html`<option value="${c}"${c === value ? html` selected` : ''}>${l}</option>`,
  )}</select>`;
}

/** "Save this view": a name and a color for the query on the page. */
function saveForm(csrf: string, query: string, draft: FilterDraft | undefined): SafeHtml {
  return html`<details class="change save-view"${draft ? html` open` : ''}><summary>Save this view</summary>
<form class="card" method="post" action="/filters">${csrfField(csrf)}<input type="hidden" name="query" value="${query}">
  <div class="grid-2"><div class="field"><label for="view-name">Name</label><input id="view-name" type="text" name="name" required maxlength="${FILTER_NAME_MAX}" value="${draft?.name ?? ''}"${draft ? html` aria-invalid="true" aria-describedby="view-name-error"` : ''}>
  ${draft ? html`<p class="field-error" id="view-name-error">${sentence(draft.error)}</p>` : ''}</div>
  <div class="field">${colorSelect('view-color', draft?.color ?? '')}</div></div>
  <button class="primary" type="submit">Save view</button>
</form></details>`;
}

/** The lists region (the script swaps `#lists` after an action), one page of rows and the link to the next. */
function listing(l: FilterListing, empty: SafeHtml): SafeHtml {
  return html`<div id="lists">
${l.items.length > 0 ? html`<section class="group" id="found" aria-label="Items"><ul class="items">${l.items.map((item) => itemRow(l.row, item))}</ul></section>` : empty}
${l.nextPage ? html`<nav class="pager" aria-label="More items"><a class="button" href="${l.nextPage}">More items →</a></nav>` : ''}
</div>
${rowActionsForm(l.row.csrf, l.row.self, l.row.dates)}
${projectOptions(l.row.projects)}
<div class="toast" data-toast role="status" aria-live="polite" hidden></div>`;
}

interface PageBase {
  user: SessionUser;
  csrf: string;
}

/** /filter?q=: the box, what it picks, and "Save this view". */
export function filterPage(d: PageBase & { query: string; error?: QueryError; listing: FilterListing | null; draft?: FilterDraft; notice?: string }): string {
  const body = html`<h1 class="list-heading">Filter</h1>
${d.notice ? html`<div class="alert success" role="status">${d.notice}</div>` : ''}
${filterBox(d.query, d.error)}
${d.listing && d.query !== '' ? saveForm(d.csrf, d.query, d.draft) : ''}
${d.listing ? listing(d.listing, html`<p class="empty">Nothing matches this filter.</p>`) : d.error ? '' : html`<p class="empty">Type a filter above: <code>today | overdue</code>, <code>#Work &amp; @calls</code>.</p>`}`;
  return renderPage({ title: 'Filter', section: 'filters', user: d.user, csrf: d.csrf, body });
}

/** Name, query and color of a saved filter, and its delete button. */
function editForm(csrf: string, view: SavedFilterView, draft: FilterDraft | undefined): SafeHtml {
  const query = draft?.query ?? view.query;
  const queryError = draft && draft.position !== undefined ? { message: draft.error, position: draft.position } : undefined;
  const nameError = draft && draft.position === undefined ? draft.error : undefined;
  return html`<details class="change"${draft ? html` open` : ''}><summary>Edit this view</summary>
<form class="card" method="post" action="/filters/${view.id}">${csrfField(csrf)}
  <div class="field"><label for="edit-name">Name</label><input id="edit-name" type="text" name="name" required maxlength="${FILTER_NAME_MAX}" value="${draft?.name ?? view.name}"${nameError ? html` aria-invalid="true" aria-describedby="edit-name-error"` : ''}>
  ${nameError ? html`<p class="field-error" id="edit-name-error">${sentence(nameError)}</p>` : ''}</div>
  <div class="field"><label for="edit-query">Filter</label><input id="edit-query" class="query" type="text" name="query" required maxlength="${FILTER_QUERY_MAX}" value="${query}" autocomplete="off" spellcheck="false" autocapitalize="off" data-filter-box aria-describedby="edit-query-error"${queryError ? html` aria-invalid="true"` : ''}>
  ${queryErrorBlock('edit-query-error', query, queryError)}</div>
  <div class="field">${colorSelect('edit-color', draft?.color ?? view.color ?? '')}</div>
  <button class="primary" type="submit">Save changes</button>
</form>
<form method="post" action="/filters/${view.id}/delete" data-confirm="Delete the view “${view.name}”? Its items stay as they are.">${csrfField(csrf)}<button class="danger" type="submit">Delete this view</button></form>
</details>`;
}

/** /filters/{id}: a saved filter's items, a page at a time, with its edit and delete forms. */
export function savedViewPage(
  d: PageBase & { view: SavedFilterView; listing: FilterListing | null; error?: QueryError; draft?: FilterDraft; notice?: string },
): string {
  const body = html`<h1 class="list-heading view-heading">${colorDot(d.view.color)}${d.view.name}</h1>
<p class="view-query"><code>${d.view.query}</code> <a class="small" href="/filter?q=${encodeURIComponent(d.view.query)}">Change in the filter box</a></p>
${d.notice ? html`<div class="alert success" role="status">${d.notice}</div>` : ''}
${d.error ? html`<div class="alert error" role="alert"><p>This view’s filter no longer reads: ${sentence(d.error.message)} Edit it below.</p></div>` : ''}
${editForm(d.csrf, d.view, d.draft)}
${d.listing ? listing(d.listing, html`<p class="empty">Nothing matches this view now.</p>`) : ''}`;
  return renderPage({ title: d.view.name, section: 'filters', user: d.user, csrf: d.csrf, body, wide: true });
}

/** One saved filter in the list of /filters: its link, its query, and Up / Down. */
function viewRow(csrf: string, v: SavedFilterView, i: number, count: number): SafeHtml {
  const move = (position: number, label: string, text: string) =>
    html`<form method="post" action="/filters/${v.id}/move">${csrfField(csrf)}<input type="hidden" name="position" value="${position}"><button class="small" type="submit" aria-label="${label} “${v.name}”">${text}</button></form>`;
  return html`<li class="item" id="view-${v.id}"><div class="row"><div class="body"><p class="title"><a href="/filters/${v.id}">${colorDot(v.color)}${v.name}</a></p><p class="meta"><code>${v.query}</code></p></div>
  <div class="actions-row">${i > 0 ? move(i - 1, 'Move up', '↑ Up') : ''}${i < count - 1 ? move(i + 1, 'Move down', '↓ Down') : ''}</div></div></li>`;
}

/** /filters: the box, and every saved filter in the user's order, to open or reorder. */
export function filtersIndexPage(d: PageBase & { views: SavedFilterView[]; notice?: string }): string {
  const body = html`<h1>Filters</h1>
${d.notice ? html`<div class="alert success" role="status">${d.notice}</div>` : ''}
${filterBox('')}
<h2 id="views-heading">Saved views</h2>
${
  d.views.length > 0
    ? html`<ul class="items views-list" aria-labelledby="views-heading">${d.views.map((v, i) => viewRow(d.csrf, v, i, d.views.length))}</ul>`
    : html`<p class="empty">No saved views yet. Type a filter above, then “Save this view”.</p>`
}
<h2 id="syntax">The filter language</h2>
<dl class="facts">
  <dt><code>today</code>, <code>tomorrow</code>, <code>overdue</code>, <code>7 days</code>, <code>no date</code></dt><dd>by due date, in your time zone</dd>
  <dt><code>due before: friday</code>, <code>due after: -1 week</code>, <code>due: dec 24</code></dt><dd>dates written as in the capture box</dd>
  <dt><code>#Work</code>, <code>#"Side project"</code>, <code>inbox</code>, <code>#Work*</code></dt><dd>by project</dd>
  <dt><code>@calls</code>, <code>@home*</code>, <code>no tags</code></dt><dd>by tag</dd>
  <dt><code>todos</code>, <code>notes</code>, <code>subtasks</code>, <code>recurring</code>, <code>no reminder</code></dt><dd>by kind</dd>
  <dt><code>done</code>, <code>archived</code>, <code>all</code></dt><dd>completed or archived items (otherwise only open ones)</dd>
  <dt><code>search: words</code></dt><dd>words in titles and notes</dd>
  <dt><code>&amp;</code> <code>|</code> <code>!</code> <code>( )</code></dt><dd>and, or, not, grouping (<code>&amp;</code> binds tighter)</dd>
</dl>`;
  return renderPage({ title: 'Filters', section: 'filters', user: d.user, csrf: d.csrf, body });
}
