import type { ItemView } from '../modules/items/item-view.js';
import type { ActionKind, Inverse } from '../modules/undo/inverse.js';
import { formatDueAbsolute, type DateContext } from './dates.js';
import { itemName } from './views/item-row.views.js';

/*
 * What the toast says after an action in place and after its Undo (issue 47 item 1): the item by
 * name and what happened to it, so "Undone." never hides that an Undo did something else.
 */

const due = (item: ItemView, dates: DateContext): string => (item.due_at ? `due ${formatDueAbsolute(item.due_at, dates)}` : 'no due date');

/** After the action: "Marked “Weekly review” done; next due Fri 4 Dec 10:00." */
export function actedMessage(kind: ActionKind | null, item: ItemView, projectName: string, dates: DateContext): string {
  const name = `“${itemName(item)}”`;
  switch (kind) {
    case 'completedOccurrence':
      return `Marked ${name} done; next ${due(item, dates)}.`;
    case 'completed':
      return `Marked ${name} done.`;
    case 'reopened':
      return `Marked ${name} not done.`;
    case 'archived':
      return `Archived ${name}.`;
    case 'unarchived':
      return `Unarchived ${name}.`;
    case 'moved':
      return `Moved ${name} to ${projectName}.`;
    case 'dated':
      return `${name}: ${due(item, dates)}.`;
    default:
      return `Nothing changed for ${name}.`;
  }
}

/** After the Undo: what it put back, read from the inverse it applied. */
export function undoneMessage(inverse: Inverse, item: ItemView, projectName: string, dates: DateContext): string {
  const name = `“${itemName(item)}”`;
  if (inverse.forgetCompletion) return `Undone: ${name} is not done, ${due(item, dates)} again; its completion is removed.`;
  const parts: string[] = [];
  if (inverse.state === 'reopen') parts.push('not done');
  if (inverse.state === 'complete') parts.push('done');
  if (inverse.state === 'archive') parts.push('archived');
  if (inverse.state === 'unarchive') parts.push('out of the archive');
  if (inverse.patch.project_id !== undefined) parts.push(`in ${projectName}`);
  if (inverse.patch.due_at !== undefined) parts.push(due(item, dates));
  return `Undone: ${name} is ${parts.join(', ')} again.`;
}
