import type { CaptureInbox, Project } from '@capture-inbox/sdk';
import { CliError } from './command.js';
import type { RowContext } from './format.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const SHORT = /^[0-9a-f]{4,32}$/i;
/** A short id is looked up among this many newest items at most (every loop here is bounded). */
const SHORT_ID_SCAN = 5000;

/** A full id as it is; a short id (the end of one, as `cin ls` shows it) looked up among the items. */
export async function resolveItemId(inbox: CaptureInbox, given: string): Promise<string> {
  if (UUID.test(given)) return given.toLowerCase();
  if (!SHORT.test(given)) throw new CliError('not_found', `no item has the id ${given}`);
  const end = given.toLowerCase();
  const found: string[] = [];
  let scanned = 0;
  for await (const item of inbox.items.listAll({ limit: 200 })) {
    if (item.id.replace(/-/g, '').endsWith(end)) found.push(item.id);
    scanned += 1;
    if (found.length > 1 || scanned >= SHORT_ID_SCAN) break;
  }
  if (found.length === 1) return found[0]!;
  if (found.length > 1) throw new CliError('ambiguous_id', `several items end in ${given}; give more of the id`);
  throw new CliError('not_found', `no item has the id ${given}`);
}

/** `--project NAME`: a project's name (case-insensitive) or its id. */
export async function resolveProject(inbox: CaptureInbox, given: string): Promise<Project> {
  const projects = await inbox.projects.list();
  const wanted = given.trim().toLowerCase();
  const match = projects.find((p) => p.id === wanted) ?? projects.find((p) => p.name.toLowerCase() === wanted);
  if (!match) throw new CliError('not_found', `no project is named ${given} (cin projects lists them)`);
  return match;
}

/** What human output needs to show items: project names and the user's time zone. */
export async function rowContext(inbox: CaptureInbox): Promise<RowContext> {
  const [projects, me] = await Promise.all([inbox.projects.list(), inbox.me.get()]);
  return { projects: new Map(projects.map((p) => [p.id, p])), zone: me.timezone };
}
