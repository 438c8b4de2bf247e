/*
 * The answers of actions in place (decision 0076), apart from the DOM: the server says what the
 * toast says, the id of the inverse it keeps (Undo sends it back), the item as changed (so the
 * live echo of this very change is skipped), the item's row as the page now shows it, and the
 * page's sidebar, whose counts the change moved (that echo brought them before it was skipped).
 */

/** Where the row goes (a group's id, `here`, or null: off this page) and its markup. */
export interface RowAnswer {
  place: string | null;
  html: string;
}

export interface ActAnswer {
  message: string;
  undo: string | null;
  /** `version`: the item's ETag after the action, which an offline action queued behind it is made on. */
  item: { id: string; updated_at: string; version?: string } | null;
  /** Null: the page has no such rows (an item's page); its lists are fetched instead. */
  row: RowAnswer | null;
  /** The page's sidebar with its counts as they are now; null for a page without one. */
  sidebar: string | null;
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null;

/** The answer, or null when it is not one (an old server, a proxy's page). */
export function parseActAnswer(value: unknown): ActAnswer | null {
  if (!isObject(value) || typeof value.message !== 'string') return null;
  const item = isObject(value.item) && typeof value.item.id === 'string' && typeof value.item.updated_at === 'string' ? value.item : null;
  const row = isObject(value.row) && typeof value.row.html === 'string' && (typeof value.row.place === 'string' || value.row.place === null) ? value.row : null;
  return {
    message: value.message,
    undo: typeof value.undo === 'string' ? value.undo : null,
    item: item && { id: item.id as string, updated_at: item.updated_at as string, ...(typeof item.version === 'string' ? { version: item.version } : {}) },
    row: row && { place: row.place as string | null, html: row.html as string },
    sidebar: typeof value.sidebar === 'string' ? value.sidebar : null,
  };
}

export interface UndoRequest {
  url: string;
  data: URLSearchParams;
}

/** The request that applies the inverse the server kept for an action. */
export function undoRequest(undoId: string, csrf: string, returnTo: string | null): UndoRequest {
  const data = new URLSearchParams();
  data.append('_csrf', csrf);
  if (returnTo !== null) data.append('return', returnTo);
  return { url: `/inbox/undo/${encodeURIComponent(undoId)}`, data };
}

/** How groups keep their rows: by due time, newest first, or latest done first. */
export type RowOrder = 'due' | 'created' | 'latest';

export function orderOf(place: string): RowOrder {
  if (place === 'done-today') return 'latest';
  if (place === 'open') return 'created';
  return 'due';
}

/** The index among `keys` (the group's rows, in order) where a row with `key` goes. */
export function insertionIndex(order: RowOrder, keys: readonly string[], key: string): number {
  if (order === 'latest') return 0;
  const before = order === 'due' ? (other: string) => key !== '' && (other === '' || key < other) : (other: string) => key > other;
  const index = keys.findIndex(before);
  return index < 0 ? keys.length : index;
}
