import type { ValidateFunction } from 'ajv';
import { badRequest } from '../../errors.js';
import { createAjv } from '../../lib/ajv.js';
import { sameDayIn } from '../../lib/dates/all-day.js';
import { checkRecurrence } from '../recurrence/recurrence.service.js';
import { canonicalTimeZone } from '../users/timezones.js';
import { parentsFirst, type ImportPlan, type PlannedItem } from './import-plan.js';
import { ExportDocumentSchema, type ExportDocument, type ExportItem } from './transfer.schemas.js';

// Compiled on the first import, not at start: most processes never import.
let validator: ValidateFunction<ExportDocument> | undefined;
const validatorOnce = () => (validator ??= createAjv({ allErrors: false, strict: false }).compile<ExportDocument>(ExportDocumentSchema));

/**
 * An all-day due keeps its calendar date: the date it has in the zone it was exported from (the
 * document's user.timezone, else the importer's), at 00:00 in the importer's zone.
 */
const allDayDue = (dueAt: string, zones: { from: string; to: string }): string => sameDayIn(zones.from, zones.to, dueAt);

/** Outside `archived`, status is `done` exactly when is_completed is (item-state.ts); the status decides. */
function planItem(item: ExportItem, position: number, zones: { from: string; to: string }): PlannedItem {
  const archived = item.status === 'archived';
  const allDay = item.all_day === true && Boolean(item.due_at);
  return {
    position,
    id: item.id.toLowerCase(),
    project_ref: item.project_id.toLowerCase(),
    parent_id: item.parent_id ? item.parent_id.toLowerCase() : null,
    type: item.type,
    title: item.title ?? null,
    content_md: item.content_md ?? null,
    is_completed: archived ? item.is_completed : item.status === 'done',
    status: item.status,
    due_at: item.due_at ? (allDay ? allDayDue(item.due_at, zones) : item.due_at) : null,
    all_day: allDay,
    archived_at: archived ? (item.archived_at ?? item.updated_at) : null,
    created_at: item.created_at,
    updated_at: item.updated_at,
    tags: item.tags ?? [],
    // A rule outside the subset, or one without a due date, refuses the whole document.
    recurrence: item.recurrence ? checkPlannedRecurrence(item, position) : null,
    remind_at: item.remind_at ?? null,
  };
}

function checkPlannedRecurrence(item: ExportItem, position: number): { rule: string; from: 'due' | 'completion' } {
  if (!item.due_at) throw badRequest(`items[${position}]: a recurrence needs a due_at`, 'items');
  try {
    return checkRecurrence(item.recurrence!);
  } catch (error) {
    throw badRequest(`items[${position}]: ${(error as Error).message}`, 'items');
  }
}

/** Our export document, checked whole before anything is written: a fault anywhere is a 400. */
export function readExportDocument(body: unknown, importerZone: string): ImportPlan {
  const validate = validatorOnce();
  if (!validate(body)) {
    const first = validate.errors?.[0];
    const where = first ? `${first.instancePath || '/'} ${first.message ?? 'is invalid'}` : 'is invalid';
    throw badRequest(`not a capture-inbox-export version 1 document: ${where}`, 'body');
  }
  const projects = body.projects.map((p) => ({ ref: p.id.toLowerCase(), name: p.name.trim(), is_default: p.is_default }));
  const refs = new Set(projects.map((p) => p.ref));
  const exportedFrom = (body.user?.timezone && canonicalTimeZone(body.user.timezone)) || importerZone;
  const items = body.items.map((item, position) => planItem(item, position, { from: exportedFrom, to: importerZone }));
  const seen = new Set<string>();
  for (const item of items) {
    if (seen.has(item.id)) throw badRequest(`items[${item.position}]: the id ${item.id} appears twice`, 'items');
    seen.add(item.id);
    if (!refs.has(item.project_ref)) throw badRequest(`items[${item.position}]: project_id ${item.project_ref} is not in projects`, 'items');
  }
  const ordered = parentsFirst(items);
  if (ordered.length !== items.length) throw badRequest('items: parent_id links form a cycle', 'items');
  const completions = (body.completions ?? []).map((c) => ({ item_id: c.item_id.toLowerCase(), completed_at: c.completed_at, due_at: c.due_at }));
  for (const [i, c] of completions.entries()) {
    if (!seen.has(c.item_id)) throw badRequest(`completions[${i}]: item_id ${c.item_id} is not in items`, 'completions');
  }
  const filters = body.filters?.map((f) => ({ id: f.id.toLowerCase(), name: f.name.trim(), query: f.query, color: f.color ?? null, position: f.position }));
  return { projects, items: ordered, completions, ...(filters ? { filters } : {}) };
}
