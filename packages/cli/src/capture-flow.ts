import { ApiError, type CaptureInbox, type CaptureInput, type CapturedItem, type Me, type QuickAdd, type Scope } from '@capture-inbox/sdk';
import { CliError } from './command.js';
import type { Context } from './context.js';
import { itemRows, type ProjectNames } from './format.js';
import { resolveItemId, resolveProject } from './resolve.js';

/**
 * How `cin add` and `cin voice --add` capture without ever losing or doubling an item.
 *
 * Everything that can be refused (a project name to look up, the scopes tags need, the user's zone
 * for printing) is asked BEFORE the capture; after it, the answer is printed from the capture's own
 * body and nothing more can fail the command. A command that exits 1 after capturing makes the user
 * capture again, and then the item is there twice.
 */
export interface CapturePlan {
  /** The project id, when --project was given. */
  projectId: string | undefined;
  /** Names known before capturing: the --project one, and Inbox once the answer says where the item went. */
  names: ProjectNames;
  /** The user's zone (GET /me, which needs no scope), for due dates in the printed row. */
  zone: string | undefined;
  /** The parent item's id, when --parent was given: the new item goes under it. */
  parentId?: string;
  /** The key's scopes, when /me was asked. */
  scopes: readonly string[] | undefined;
}

/** The refusal of a flag this key may not use; said before capturing, so nothing is captured. */
function missingScope(scope: Scope, why: string, has: readonly string[] | undefined): CliError {
  const held = has === undefined ? '' : ` (it has ${has.join(', ') || 'none'})`;
  return new CliError(
    'insufficient_scope',
    `${why} needs the ${scope} scope, which this key lacks${held}; nothing was captured. Run cin login for a key with ${scope}, or leave ${why} out`,
  );
}

function requireScope(me: Me | undefined, scope: Scope, why: string): void {
  const scopes = me?.key?.scopes;
  if (scopes && !scopes.includes(scope)) throw missingScope(scope, why, scopes);
}

export async function planCapture(
  ctx: Context,
  inbox: CaptureInbox,
  given: { project?: string | undefined; parent?: string; tags: string[] },
): Promise<CapturePlan> {
  // /me needs no scope: it tells which scopes this key holds and the zone due dates print in.
  const needMe = !ctx.json || given.tags.length > 0 || given.project !== undefined || given.parent !== undefined;
  const me = needMe ? await inbox.me.get() : undefined;
  if (given.tags.length > 0) requireScope(me, 'write', '--tag');
  const names: ProjectNames = new Map();
  let projectId: string | undefined;
  if (given.project !== undefined) {
    requireScope(me, 'read', '--project NAME');
    const project = await resolveProject(inbox, given.project).catch((error: unknown) => {
      throw error instanceof ApiError && error.error === 'insufficient_scope' ? missingScope('read', '--project NAME', me?.key?.scopes) : error;
    });
    projectId = project.id;
    names.set(project.id, { name: project.name });
  }
  if (given.parent !== undefined) {
    // Finding the parent reads; placing the new item under it writes: both are checked before capturing.
    requireScope(me, 'read', '--parent');
    requireScope(me, 'write', '--parent');
    const parent = await inbox.items.get(await resolveItemId(inbox, given.parent));
    const project = (await inbox.projects.list()).find((p) => p.id === parent.project_id);
    if (project) names.set(project.id, { name: project.name });
    return { projectId: parent.project_id, parentId: parent.id, names, zone: me?.timezone, scopes: me?.key?.scopes };
  }
  return { projectId, names, zone: me?.timezone, scopes: me?.key?.scopes };
}

/**
 * The capture has no parent_id: the new item is captured in the parent's project, then placed
 * under it (as the web app's "add subtask" does). Should that be refused (the parent deleted in
 * between), the new item is deleted again, so a retry does not leave a stray copy behind.
 */
export async function placeUnderParent(inbox: CaptureInbox, item: CapturedItem, parentId: string): Promise<CapturedItem> {
  try {
    return { ...(await inbox.items.update(item.id, { parent_id: parentId })), ai: item.ai };
  } catch (error) {
    await inbox.items.delete(item.id).catch(() => undefined);
    throw error;
  }
}

/**
 * POST /capture; with --organize on a Free plan (402 pro_required, which stores nothing) the text is
 * captured as typed and a warning says why, rather than losing what the user typed.
 */
export async function captureOrWarn(ctx: Context, inbox: CaptureInbox, input: CaptureInput): Promise<CapturedItem> {
  try {
    return await inbox.items.capture(input);
  } catch (error) {
    if (!(input.organize === true && error instanceof ApiError && error.error === 'pro_required')) throw error;
    const { organize: _dropped, ...asTyped } = input;
    const item = await inbox.items.capture(asTyped);
    ctx.note(`warning: the organizer needs the Pro plan (${error.message}); captured as typed`);
    return item;
  }
}

/**
 * The project quick add reads from `#Name`, for the printed row: its id from /parse, and the name
 * as typed (the key may lack read, so the project list is not asked for).
 */
export function learnQuickAddProject(plan: CapturePlan, parsed: QuickAdd): void {
  const span = parsed.spans.find((s) => s.kind === 'project');
  if (!parsed.project_id || !span) return;
  plan.names.set(parsed.project_id, { name: span.text.replace(/^#/, '').replace(/^"(.*)"$/, '$1') });
}

/**
 * The organizer filed the item into a project the plan cannot name: with read, the project list
 * names it; without read, or if the list fails, the row shows the id. Never fails: the item exists.
 */
export async function nameFiledProject(inbox: CaptureInbox, item: CapturedItem, plan: CapturePlan): Promise<void> {
  if (!item.ai?.applied.includes('project_id') || plan.names.has(item.project_id) || !plan.scopes?.includes('read')) return;
  try {
    const project = (await inbox.projects.list()).find((p) => p.id === item.project_id);
    if (project) plan.names.set(project.id, { name: project.name });
  } catch {
    // The id stands in for the name.
  }
}

/** Prints the captured item from its own answer: no request here can fail after the capture. */
export function printCaptured(ctx: Context, item: CapturedItem, plan: CapturePlan, verb = 'added'): void {
  if (ctx.json) return ctx.printJson(item);
  const names = new Map(plan.names);
  // No project given and the organizer did not route it: the item is in the default project,
  // which is always named Inbox (it cannot be renamed).
  if (plan.projectId === undefined && !item.ai?.applied.includes('project_id') && !names.has(item.project_id)) names.set(item.project_id, { name: 'Inbox' });
  const [row] = itemRows([item], { projects: names, zone: plan.zone ?? 'UTC' }, ctx.display, 10);
  ctx.print(`${verb.padEnd(8)}  ${row ?? ''}`);
}
