import { ApiError, type CaptureInbox, type SavedFilter } from '@capture-inbox/sdk';
import { CliError } from './command.js';

/** `--view NAME` and `cin filters rm`: a saved filter by id, or by name (case-insensitive; the first of equal names). */
export async function findSavedFilter(inbox: CaptureInbox, given: string): Promise<SavedFilter> {
  const filters = await inbox.filters.list();
  const wanted = given.trim().toLowerCase();
  const match = filters.find((f) => f.id === wanted) ?? filters.find((f) => f.name.toLowerCase() === wanted);
  if (!match) throw new CliError('not_found', `no saved filter is named ${given} (cin filters lists them)`);
  return match;
}

/**
 * The server's 400 for a query that does not parse, shown under the query with a caret where reading
 * failed: the parser is the server's alone (decision 0072), cin only points.
 */
export async function withFilterCaret<T>(query: string, run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    const detail = error instanceof ApiError && error.status === 400 ? error.details?.find((d) => d.field === 'filter') : undefined;
    if (detail?.position === undefined || query === '') throw error;
    const lead = Array.from(query.slice(0, detail.position)).length;
    throw new CliError('bad_request', `${detail.message}\n  ${query}\n  ${' '.repeat(lead)}^`);
  }
}
