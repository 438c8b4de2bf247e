import type { SessionUser } from '../../modules/accounts/accounts.service.js';
import type { ItemView } from '../../modules/items/item-view.js';
import type { ProjectView } from '../../modules/projects/projects.service.js';
import { formatDueAbsolute, type DateContext } from '../dates.js';
import { sentence } from '../format.js';
import { html, SafeHtml } from '../html.js';
import { NOTES_MAX, STATUSES, TITLE_MAX, type FieldErrors, type ItemFormValues } from '../item-form.js';
import { csrfField, renderPage } from '../layout.js';
import { renderMarkdown } from '../markdown.js';
import { MAX_EVERY_DAYS, recurrenceInWords, REPEAT_CHOICES, REPEAT_LABELS } from '../recurrence-choice.js';
import type { ReminderErrors, ReminderFormValues } from '../reminder-form.js';
import { dueBadge, itemName, reminderMarks } from './item-row.views.js';
import { CAPTURE_TEXT_MAX } from '../../lib/capture-text.js';
import { attachmentsSection } from '../attachments-view.js';

export interface ItemPageData {
  user: SessionUser;
  csrf: string;
  item: ItemView;
  /** The item's ETag when the form was made: a save from it is refused once the item changed. */
  version: string;
  values: ItemFormValues;
  errors: FieldErrors;
  projects: ProjectView[];
  /** The user's tag names, for auto-completion. */
  tagNames: string[];
  /** Items this one may be put under. */
  parents: { id: string; name: string }[];
  parent: ItemView | null;
  subtasks: ItemView[];
  dates: DateContext;
  notice?: string;
  /** The item changed after the form was made: what it is now. */
  stale?: boolean;
  subtaskDraft?: { text: string; error: string };
  /** The reminder and repeat form's values and what was wrong with them. */
  reminder: { values: ReminderFormValues; errors: ReminderErrors };
  /** What went wrong with the last upload, in plain words. */
  attachmentError?: string;
}

const selected = (yes: boolean) => (yes ? html` selected` : '');
const STATUS_LABELS: Record<string, string> = { backlog: 'Backlog', todo: 'To do', doing: 'Doing', done: 'Done', archived: 'Archived' };

/** A labelled control with its hint and its own error message right under it. */
function fieldBlock(id: string, label: string, control: (attrs: SafeHtml) => SafeHtml, error?: string, hint?: string): SafeHtml {
  const describedBy = [hint ? `${id}-hint` : '', error ? `${id}-error` : ''].filter(Boolean).join(' ');
  const attrs = html`id="${id}"${describedBy ? html` aria-describedby="${describedBy}"` : ''}${error ? html` aria-invalid="true"` : ''}`;
  return html`<div class="field${error ? ' has-error' : ''}"><label for="${id}">${label}</label>
  ${hint ? html`<p class="hint" id="${id}-hint">${hint}</p>` : ''}
  ${control(attrs)}
  ${error ? html`<p class="field-error" id="${id}-error">${sentence(error)}</p>` : ''}</div>`;
}

function editForm(d: ItemPageData): SafeHtml {
  const v = d.values;
  const e = d.errors;
  const open = d.stale || Object.keys(e).length > 0;
  return html`<details class="card edit" id="edit"${open ? html` open` : ''}><summary><span id="edit-heading">Edit</span></summary><form class="item-form" method="post" action="/inbox/items/${d.item.id}" aria-labelledby="edit-heading">
  ${csrfField(d.csrf)}<input type="hidden" name="version" value="${d.version}">
  ${fieldBlock('title', 'Title', (a) => html`<input ${a} name="title" type="text" maxlength="${TITLE_MAX}" value="${v.title}">`, e.title)}
  ${fieldBlock('notes', 'Notes', (a) => html`<textarea ${a} name="notes" rows="8" maxlength="${NOTES_MAX}">${v.notes}</textarea>`, e.notes, 'Markdown: **bold**, _italic_, lists, [links](https://example.org).')}
  <div class="grid-2">
    ${fieldBlock('type', 'Type', (a) => html`<select ${a} name="type"><option value="todo"${selected(v.type === 'todo')}>Todo</option><option value="note"${selected(v.type === 'note')}>Note</option></select>`, e.type)}
    ${fieldBlock('status', 'Status', (a) => html`<select ${a} name="status">${STATUSES.map((s) => html`<option value="${s}"${selected(v.status === s)}>${STATUS_LABELS[s]}</option>`)}</select>`, e.status)}
    ${fieldBlock('due_date', 'Due date', (a) => html`<input ${a} name="due_date" type="date" value="${v.due_date}">`, e.due_date, `In your time zone, ${d.user.timezone}.`)}
    ${fieldBlock('due_time', 'Due time', (a) => html`<input ${a} name="due_time" type="time" value="${v.due_time}">`, e.due_time, 'Empty: all day.')}
    <div class="field all-day"><label><input type="checkbox" id="all_day" name="all_day" value="on" aria-describedby="all_day-hint"${v.all_day ? html` checked` : ''}> All day</label><p class="hint" id="all_day-hint">Due on the date, no time: shown as the date only, overdue once the day is over.</p></div>
    ${fieldBlock('project_id', 'Project', (a) => html`<select ${a} name="project_id">${d.projects.map((p) => html`<option value="${p.id}"${selected(p.id === v.project_id)}>${p.name}</option>`)}</select>`, e.project_id)}
    ${fieldBlock('parent_id', 'Subtask of', (a) => html`<select ${a} name="parent_id"><option value="">None (a top-level item)</option>${d.parents.map((p) => html`<option value="${p.id}"${selected(p.id === v.parent_id)}>${p.name}</option>`)}</select>`, e.parent_id)}
  </div>
  <fieldset class="tags-field"><legend>Tags</legend>
    ${v.tags.length > 0 ? html`<ul class="tag-checks">${v.tags.map((t, i) => html`<li><label><input type="checkbox" name="tag" value="${t}" checked id="tag-${i}"> @${t}</label></li>`)}</ul>` : html`<p class="hint">No tags yet.</p>`}
    ${fieldBlock('new_tags', 'Add tags', (a) => html`<input ${a} name="new_tags" type="text" list="tag-suggestions" maxlength="1100" autocomplete="off" value="${v.new_tags}">`, e.new_tags, 'Separate several with commas; untick a tag above to remove it. At most 20 tags of 50 characters.')}
    <datalist id="tag-suggestions">${d.tagNames.map((t) => html`<option value="${t}"></option>`)}</datalist>
  </fieldset>
  <div class="actions-row"><button class="primary" type="submit">${d.stale ? 'Save my version anyway' : 'Save'}</button><a href="/inbox/items/${d.item.id}">${d.stale ? 'Discard my changes' : 'Cancel'}</a></div>
</form></details>`;
}

/** Subtasks as an ordered checklist, in the order they were added; a new one is added at the end without leaving the page. */
function subtasksSection(d: ItemPageData): SafeHtml {
  const self = `/inbox/items/${d.item.id}`;
  const draft = d.subtaskDraft;
  const done = d.subtasks.filter((s) => s.is_completed).length;
  return html`<section class="card" id="subtasks" aria-labelledby="subtasks-heading">
  <h2 id="subtasks-heading">Subtasks${d.subtasks.length > 0 ? html` <span class="count">${done}/${d.subtasks.length} done</span>` : ''}</h2>
  ${
    d.subtasks.length > 0
      ? html`<ol class="checklist">${d.subtasks.map((s) => {
          const name = itemName(s);
          return html`<li class="${s.is_completed ? 'done' : ''}"><form method="post" action="/inbox/items/${s.id}/toggle" data-inplace>${csrfField(d.csrf)}<input type="hidden" name="return" value="${self}"><button class="check" type="submit" aria-pressed="${s.is_completed ? 'true' : 'false'}" aria-label="${s.is_completed ? `Mark “${name}” not done` : `Mark “${name}” done`}">${s.is_completed ? '✓' : ''}</button></form><a href="/inbox/items/${s.id}">${name}</a>${s.due_at && !s.is_completed ? html` ${dueBadge(s.due_at, d.dates, s.all_day)}` : ''}</li>`;
        })}</ol>`
      : html`<p class="muted">No subtasks.</p>`
  }
  <form class="inline-form" method="post" action="${self}/subtasks" data-inplace>${csrfField(d.csrf)}
    ${fieldBlock('subtask-text', 'Add subtask', (a) => html`<input ${a} name="text" type="text" maxlength="${CAPTURE_TEXT_MAX}" required enterkeyhint="done" value="${draft?.text ?? ''}">`, draft?.error)}
    <button type="submit">Add subtask</button>
  </form>
</section>`;
}

export const SNOOZE_CHOICES: ReadonlyArray<[number, string]> = [
  [10, '10 minutes'],
  [60, '1 hour'],
  [1440, '1 day'],
];

/** The item's reminder and repeat: what they are, in words, and a form to change them. */
function reminderSection(d: ItemPageData): SafeHtml {
  const v = d.reminder.values;
  const e = d.reminder.errors;
  const self = `/inbox/items/${d.item.id}`;
  const repeats = d.item.recurrence ? recurrenceInWords(d.item.recurrence) : 'No';
  const choices = REPEAT_CHOICES.filter((c) => c !== 'custom' || v.repeat === 'custom');
  return html`<section class="card" id="reminder" aria-labelledby="reminder-heading"><h2 id="reminder-heading">Reminder and repeat</h2>
  <dl class="facts">
    <dt>Repeats</dt><dd id="repeat-words">${repeats}${d.item.recurrence && v.repeat === 'custom' ? html` <code class="small">${d.item.recurrence.rule}</code>` : ''}</dd>
    <dt>Next reminder</dt><dd id="next-reminder">${d.item.remind_at ? html`<time datetime="${d.item.remind_at}">${formatDueAbsolute(d.item.remind_at, d.dates)}</time>` : 'None'}</dd>
  </dl>
  ${e.form ? html`<div class="alert error" role="alert">${sentence(e.form)}</div>` : ''}
  <details class="change"${Object.keys(e).length > 0 ? html` open` : ''}><summary>Change reminder or repeat</summary>
  <form method="post" action="${self}/reminder">${csrfField(d.csrf)}<input type="hidden" name="version" value="${d.version}">
    <div class="grid-2">
      ${fieldBlock('remind_date', 'Remind me on', (a) => html`<input ${a} name="remind_date" type="date" value="${v.remind_date}">`, e.remind_date, 'Empty: no reminder.')}
      ${fieldBlock('remind_time', 'At', (a) => html`<input ${a} name="remind_time" type="time" value="${v.remind_time}">`, undefined, `Empty: 09:00, ${d.user.timezone}.`)}
      ${fieldBlock('repeat', 'Repeat', (a) => html`<select ${a} name="repeat">${choices.map((c) => html`<option value="${c}"${selected(v.repeat === c)}>${REPEAT_LABELS[c]}</option>`)}</select>`, e.repeat, d.item.due_at ? 'From the due date on.' : 'A repeating item needs a due date.')}
      ${fieldBlock('every_days', 'N (for every N days)', (a) => html`<input ${a} name="every_days" type="text" inputmode="numeric" pattern="[0-9]*" maxlength="3" value="${v.every_days}">`, e.every_days, `Only for “Every N days”: 1 to ${MAX_EVERY_DAYS}.`)}
      ${fieldBlock('repeat_from', 'Count the next one from', (a) => html`<select ${a} name="repeat_from"><option value="due"${selected(v.repeat_from === 'due')}>The due date</option><option value="completion"${selected(v.repeat_from === 'completion')}>When I complete it</option></select>`)}
    </div>
    <button type="submit">Save reminder and repeat</button>
  </form>
  </details>
  ${
    d.item.is_completed
      ? ''
      : html`<form class="actions-row snooze" method="post" action="${self}/snooze">${csrfField(d.csrf)}<input type="hidden" name="version" value="${d.version}"><span id="snooze-label">Snooze: remind me again in</span>
    ${SNOOZE_CHOICES.map(([m, label]) => html`<button class="small" type="submit" name="minutes" value="${m}" aria-describedby="snooze-label">${label}</button>`)}</form>`
  }
</section>`;
}

function manageSection(d: ItemPageData): SafeHtml {
  const base = `/inbox/items/${d.item.id}`;
  const archived = d.item.status === 'archived';
  return html`<section class="card" id="item-manage" aria-labelledby="manage-heading"><h2 id="manage-heading">Archive or delete</h2>
  <div class="actions-row">
    <form method="post" action="${base}/${archived ? 'unarchive' : 'archive'}">${csrfField(d.csrf)}<input type="hidden" name="return" value="${base}"><input type="hidden" name="version" value="${d.version}"><button type="submit">${archived ? 'Unarchive' : 'Archive'}</button></form>
    <form method="post" action="${base}/delete" data-inplace>${csrfField(d.csrf)}<input type="hidden" name="return" value="${base}"><input type="hidden" name="version" value="${d.version}"><button class="danger" type="submit" data-grace>Delete</button></form>
  </div></section>
<div class="toast" data-toast role="status" aria-live="polite" hidden></div>`;
}

export function itemPage(d: ItemPageData): string {
  const name = itemName(d.item);
  const project = d.projects.find((p) => p.id === d.item.project_id);
  const notes = d.item.content_md ? html`<div class="notes">${new SafeHtml(renderMarkdown(d.item.content_md))}</div>` : '';
  const done = d.item.is_completed;
  const self = `/inbox/items/${d.item.id}`;
  // A note is not a task: it has no status of its own to show; a todo shows where it stands.
  const kind = d.item.type === 'note' ? (d.item.status === 'archived' ? 'Note · Archived' : 'Note') : STATUS_LABELS[d.item.status];
  const body = html`<nav class="crumbs" aria-label="Breadcrumb"><a href="/items">All items</a> › <a href="/projects/${d.item.project_id}">${project?.name ?? 'Project'}</a>${d.parent ? html` › <a href="/inbox/items/${d.parent.id}">${itemName(d.parent)}</a>` : ''}</nav>
<div id="item-view">
<div class="item-head">
<form method="post" action="${self}/toggle">${csrfField(d.csrf)}<input type="hidden" name="return" value="${self}"><button class="check big" type="submit" aria-pressed="${done ? 'true' : 'false'}" aria-label="${done ? 'Mark not done' : 'Mark done'}" title="${done ? 'Mark not done' : 'Mark done'}">${done ? '✓' : ''}</button></form>
<h1 class="item-title${done ? ' done' : ''}">${name}</h1>
</div>
<p class="meta item-meta"><span>${kind}</span>${d.item.due_at ? html` · ${dueBadge(d.item.due_at, d.dates, d.item.all_day)}` : ''}${reminderMarks(d.item, d.dates)}${d.item.tags.map((t) => html` <a class="tag" href="/items?tag=${encodeURIComponent(t)}">@${t}</a>`)}</p>
</div>
${d.notice ? html`<div class="alert success" role="status">${d.notice}</div>` : ''}
${
  d.stale
    ? html`<div class="alert warn" role="alert"><p><strong>This item changed after you opened it</strong> (on another device or through the API). Nothing was saved.</p>
  <p>It is now: “${name}”${d.item.due_at ? `, due ${formatDueAbsolute(d.item.due_at, d.dates)}` : ''}, ${d.item.status}${d.item.tags.length > 0 ? `, @${d.item.tags.join(' @')}` : ''}. Your version is in the form below: save it to replace the current one, or discard it.</p></div>`
    : ''
}
${d.errors.form ? html`<div class="alert error" role="alert">${sentence(d.errors.form)}</div>` : ''}
<div id="item-notes">${notes}</div>
${editForm(d)}
${reminderSection(d)}
${subtasksSection(d)}
${attachmentsSection({ itemId: d.item.id, csrf: d.csrf, attachments: d.item.attachments, error: d.attachmentError })}
${manageSection(d)}`;
  return renderPage({ title: name, section: 'items', user: d.user, csrf: d.csrf, body });
}
