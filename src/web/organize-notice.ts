import type { ItemView } from '../modules/items/item-view.js';
import type { AiField } from '../modules/organizer/organizer.schemas.js';
import type { PatchInput } from '../modules/items/patch-columns.js';
import { formatDueAbsolute, type DateContext } from './dates.js';
import { html, type SafeHtml } from './html.js';
import { csrfField } from './layout.js';

/**
 * What a capture would have been without the organizer, carried in the redirect after the capture
 * (the organizer's decision is not stored): the fields it changed, their values before, and the
 * item's ETag right after the capture, so Undo never overwrites a later edit.
 */
export interface Undo {
  applied: AiField[];
  before: { title: string | null; type: 'note' | 'todo'; project_id: string; due_at: string | null };
  etag: string;
  /** The organizer's reason (`ai.reason`), shown with the notice. */
  reason?: string | null;
}

/** A reason is a short phrase; anything longer came from elsewhere. */
const REASON_MAX = 200;
const FIELDS: readonly AiField[] = ['type', 'project_id', 'due_at', 'title'];

export const encodeUndo = (undo: Undo): string => Buffer.from(JSON.stringify(undo), 'utf8').toString('base64url');

/** The Undo of a redirect, or null when it is missing or not of this shape (it came through the URL). */
export function decodeUndo(value: string | undefined): Undo | null {
  if (!value || value.length > 4000) return null;
  try {
    const u = JSON.parse(Buffer.from(value, 'base64url').toString('utf8')) as Partial<Undo>;
    const b = u.before;
    if (!Array.isArray(u.applied) || !u.applied.every((f) => FIELDS.includes(f)) || typeof u.etag !== 'string' || !b) return null;
    if ((b.title !== null && typeof b.title !== 'string') || (b.type !== 'note' && b.type !== 'todo') || typeof b.project_id !== 'string') return null;
    if (b.due_at !== null && typeof b.due_at !== 'string') return null;
    const reason = typeof u.reason === 'string' ? u.reason.slice(0, REASON_MAX) : null;
    return { applied: u.applied, before: { title: b.title, type: b.type, project_id: b.project_id, due_at: b.due_at }, etag: u.etag, reason };
  } catch {
    return null;
  }
}

/**
 * The patch that puts back what the organizer changed, and nothing else; with `keep: 'date'` only
 * the project (issue 47: "Move back to Inbox" keeps the date and title it read).
 */
export function undoPatch(undo: Undo, keep?: 'date'): PatchInput {
  if (keep === 'date') return undo.applied.includes('project_id') ? { project_id: undo.before.project_id } : {};
  const patch: PatchInput = {};
  if (undo.applied.includes('title')) patch.title = undo.before.title;
  if (undo.applied.includes('type')) patch.type = undo.before.type;
  if (undo.applied.includes('project_id')) patch.project_id = undo.before.project_id;
  if (undo.applied.includes('due_at')) patch.due_at = undo.before.due_at;
  return patch;
}

/** "Filed in Work · due Fri 28 Nov 17:00 · todo", with a full Undo and, for a filing, a move back that keeps the date. */
export function organizedNotice(o: { item: ItemView; undo: Undo; projectName: string; dates: DateContext; csrf: string; self: string }): SafeHtml {
  const { item, undo } = o;
  // Where it went is a link to that project, "Kept in Inbox" too (issue 47 item 10): the user sees where to find it.
  const where = html`${undo.applied.includes('project_id') ? 'Filed in' : 'Kept in'} <a href="/projects/${item.project_id}">${o.projectName}</a>`;
  const parts = [
    // "(like 6 items in Work: offsite, agenda)": why, so a wrong filing is understood and its Undo teaches.
    html`${where}${undo.reason ? ` (${undo.reason})` : ''}`,
    ...(item.due_at ? [`due ${formatDueAbsolute(item.due_at, o.dates, item.all_day)}`] : []),
    item.type,
    ...(undo.applied.includes('title') && item.title ? [`titled “${item.title}”`] : []),
  ];
  const changed = undo.applied.length > 0;
  const form = (keep: SafeHtml | '', label: string) =>
    html`<form method="post" action="/inbox/items/${item.id}/undo-organize">${csrfField(o.csrf)}<input type="hidden" name="return" value="${o.self}"><input type="hidden" name="undo" value="${encodeUndo(undo)}">${keep}<button class="small" type="submit">${label}</button></form>`;
  const back = undo.applied.includes('project_id');
  return html`<div class="alert success organized" role="status">
  <p><strong>Organized:</strong> ${changed ? parts.map((part, i) => html`${i > 0 ? ' · ' : ''}${part}`) : html`${where}, as typed: <a href="/inbox/items/${item.id}">“${item.title ?? 'the capture'}”</a>.`}</p>
  ${changed ? html`<div class="organized-actions">${back ? form(html`<input type="hidden" name="keep" value="date">`, item.due_at ? 'Move back to Inbox (keep the date)' : 'Move back to Inbox') : ''}${form('', 'Undo')}</div>` : ''}
</div>`;
}

/** Free users, once: what the organizer would do for them. */
export const proHint: SafeHtml = html`<div class="alert pro-hint" role="status">
  <p><strong>Saved.</strong> With Pro, the organizer files captures like this for you: “Call Sam tomorrow 5pm about the Work report” becomes
  “Call Sam about the Work report”, due tomorrow 17:00, in your Work project, with one Undo. This note shows once.</p>
</div>`;
