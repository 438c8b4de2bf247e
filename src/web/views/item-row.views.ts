import type { ItemView } from '../../modules/items/item-view.js';
import { dueLabel, type DateContext } from '../dates.js';
import { html, type SafeHtml } from '../html.js';
import { csrfField } from '../layout.js';
import { markdownExcerpt } from '../markdown.js';

export interface RowContext {
  csrf: string;
  /** The page the row's forms come back to. */
  self: string;
  dates: DateContext;
  projectNames: Map<string, string>;
}

export const itemName = (item: ItemView): string => item.title ?? item.content_md?.split('\n')[0] ?? '(untitled)';

export function dueBadge(iso: string, dates: DateContext): SafeHtml {
  const due = dueLabel(iso, dates);
  return html`<span class="due${due.overdue ? ' overdue' : ''}">${due.overdue ? html`<span aria-hidden="true">⚠ </span>` : ''}<time datetime="${iso}" title="${due.full}">${due.text}</time></span>`;
}

/** One item of a list: done toggle, title linking to its page, its facts, archive and delete. */
export function itemRow(c: RowContext, item: ItemView): SafeHtml {
  const name = itemName(item);
  const done = item.is_completed;
  const archived = item.status === 'archived';
  const base = `/inbox/items/${item.id}`;
  // One form per row (its default action is the toggle; the other buttons name theirs), so a page
  // of 50 items carries 50 CSRF fields, not 150.
  return html`<li class="item${done ? ' done' : ''}" id="item-${item.id}" tabindex="-1" data-item-id="${item.id}">
<form class="row" method="post" action="${base}/toggle">${csrfField(c.csrf)}<input type="hidden" name="return" value="${c.self}">
  <button class="check" type="submit" aria-pressed="${done ? 'true' : 'false'}" aria-label="${done ? `Mark “${name}” not done` : `Mark “${name}” done`}" title="${done ? 'Mark not done' : 'Mark done'}">${done ? '✓' : ''}</button>
  <div class="body">
    <p class="title"><a href="${base}">${name}</a></p>
    ${item.title && item.content_md ? html`<p class="content">${markdownExcerpt(item.content_md)}</p>` : ''}
    <p class="meta">
      <a class="badge" href="/projects/${item.project_id}">${c.projectNames.get(item.project_id) ?? 'Project'}</a>
      ${item.type === 'note' ? html`<span>Note</span>` : ''}
      ${item.parent_id ? html`<span>Subtask</span>` : ''}
      ${archived ? html`<span>Archived</span>` : ''}
      ${item.due_at && !done ? dueBadge(item.due_at, c.dates) : ''}
      ${item.tags.map((t) => html`<a class="tag" href="/?tag=${encodeURIComponent(t)}">#${t}</a>`)}
    </p>
  </div>
  <div class="actions">
    ${
      archived
        ? html`<button class="small" type="submit" formaction="${base}/unarchive" aria-label="Unarchive “${name}”">Unarchive</button>`
        : html`<button class="small" type="submit" formaction="${base}/archive" data-confirm="Archive “${name}”?" aria-label="Archive “${name}”">Archive</button>`
    }
    <button class="small danger" type="submit" formaction="${base}/delete" data-confirm="Delete “${name}” and its subtasks?" aria-label="Delete “${name}”">Delete</button>
  </div>
</form>
</li>`;
}
