/*
 * The undo of an action in place: the form that reverses it, sent to the same item. Pure (no DOM):
 * the caller reads the acting form and the item's row into an ActedOn.
 */

/** What undoing needs to know of the form that acted and of the item's row before the action. */
export interface ActedOn {
  /** The last segment of the form's URL: toggle, archive, move, due, delete, subtasks… */
  action: string;
  /** The acting form's URL. */
  formAction: string;
  csrf: string;
  /** The acting form's `return` field, when it has one. */
  returnTo: string | null;
  /** The item's row before the action (null on an item's own page): what move and due restore. */
  row: { projectId: string; dueDate: string; dueTime: string } | null;
}

export interface UndoRequest {
  url: string;
  data: URLSearchParams;
}

/** The request that reverses the action, or null for one that cannot be undone here. */
export function undoRequest(acted: ActedOn): UndoRequest | null {
  const data = new URLSearchParams();
  data.append('_csrf', acted.csrf);
  if (acted.returnTo !== null) data.append('return', acted.returnTo);
  const base = acted.formAction.replace(/\/[a-z]+$/, '');
  if (acted.action === 'toggle') return { url: `${base}/toggle`, data };
  if (acted.action === 'archive') return { url: `${base}/unarchive`, data };
  if (acted.action === 'unarchive') return { url: `${base}/archive`, data };
  if (!acted.row) return null;
  if (acted.action === 'move') {
    data.append('project_id', acted.row.projectId);
    return { url: `${base}/move`, data };
  }
  if (acted.action === 'due') {
    data.append('due_date', acted.row.dueDate);
    data.append('due_time', acted.row.dueTime);
    return { url: `${base}/due`, data };
  }
  return null;
}

const MESSAGES: Record<string, string> = {
  toggle: 'Marked done.',
  archive: 'Archived.',
  unarchive: 'Unarchived.',
  move: 'Moved.',
  due: 'Date set.',
  delete: 'Deleted.',
  subtasks: 'Subtask added.',
};

/** What the toast says once the action is done. */
export function actedMessage(action: string, wasDone: boolean): string {
  return action === 'toggle' && wasDone ? 'Marked not done.' : (MESSAGES[action] ?? 'Done.');
}
