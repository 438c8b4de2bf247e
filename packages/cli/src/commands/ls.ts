import type { CaptureInbox, Item, SearchQuery } from '@capture-inbox/sdk';
import { UsageError, type Command } from '../command.js';
import type { Context } from '../context.js';
import { itemRows } from '../format.js';
import { startOfLocalDay } from '../local-day.js';
import { resolveProject, rowContext } from '../resolve.js';
import { DEFAULT_LIMIT, limitOf, take } from './list-flags.js';
import { findSavedFilter, withFilterCaret } from '../saved-filters.js';

const DUE_WINDOWS = ['today', 'overdue', 'week'] as const;
type DueWindow = (typeof DUE_WINDOWS)[number];
const SORTS = ['due', 'created'] as const;
type Sort = (typeof SORTS)[number];
/** Sorting by due date reads every matching item first; at most this many (every loop here is bounded). */
const SORT_SCAN = 5000;

/** The due_after/due_before of a window, in the user's days (`due_before` is inclusive, hence the -1 ms). */
function dueRange(window: DueWindow, zone: string, now: Date): { due_after?: string; due_before: string } {
  const before = (at: Date) => new Date(at.getTime() - 1).toISOString();
  if (window === 'overdue') return { due_before: before(now) };
  const start = startOfLocalDay(now, zone).toISOString();
  return { due_after: start, due_before: before(startOfLocalDay(now, zone, window === 'today' ? 1 : 7)) };
}

/** Earliest due first, items without a due date last; newest first among equals. */
const byDue = (a: Item, b: Item): number =>
  (a.due_at === null ? 1 : 0) - (b.due_at === null ? 1 : 0) || (a.due_at ?? '').localeCompare(b.due_at ?? '') || b.created_at.localeCompare(a.created_at);

function choice<T extends string>(ctx: Context, flag: string, allowed: readonly T[]): T | undefined {
  const given = ctx.string(flag);
  if (given !== undefined && !allowed.includes(given as T)) throw new UsageError(`--${flag} must be one of ${allowed.join(', ')}`);
  return given as T | undefined;
}

/** --filter or --view: the server reads the query (one parser, the server's) and pages by due date. */
async function listFiltered(ctx: Context, inbox: CaptureInbox, limit: number, filter: string | undefined, view: string | undefined): Promise<number> {
  const pages = view !== undefined ? inbox.filters.itemsAll((await findSavedFilter(inbox, view)).id, { limit: Math.min(200, limit) }) : undefined;
  const items = await withFilterCaret(filter ?? '', () => take(pages ?? inbox.items.listAll({ filter: filter!, limit: Math.min(200, limit) }), limit));
  if (ctx.printList(items)) return 0;
  if (items.length === 0) ctx.note('nothing matches');
  else for (const row of itemRows(items, await rowContext(inbox), ctx.display)) ctx.print(row);
  return 0;
}

export const ls: Command = {
  name: 'ls',
  summary: 'open items, newest first or by due date',
  usage: 'cin ls [--project NAME] [--due today|overdue|week] [--sort due|created] [--all] [--limit N] [--filter QUERY | --view NAME]',
  manual: `Lists your items: short id, mark, title with its @tags, project and due date in your time
zone. Marks: [ ] open todo, [x] done, [-] archived, ~ a note. Without --all only open items (not
done, not archived) are listed. On a terminal titles are cut to its width and overdue dates are
red (NO_COLOR turns colour off, FORCE_COLOR on; a pipe gets plain, whole lines).

  --project NAME    only this project's items (name, case-insensitive, or id)
  --due today       due today, in your time zone (cin whoami shows it)
  --due overdue     due before now and not done
  --due week        due from today to the end of the 6th day after it (7 days)
  --sort due        earliest due first, items without a due date last (the default with --due)
  --sort created    newest first (the default otherwise)
  --all             done and archived items too
  --limit N         at most N items (default ${DEFAULT_LIMIT})
  --filter QUERY    the items a filter query picks, by due date (docs/filters.md): today | overdue,
                    #Work & @calls, 7 days & !#Someday, search: invoice & no date. Alone: no
                    other flag but --limit goes with it (write #Project, done or all in the query)
  --view NAME       the items of a saved filter (cin filters lists them), by name or id

With --json: an array of items as the API answers them; --ndjson: one item a line;
--quiet: their full ids, one a line (for xargs: cin ls --due overdue -q | xargs cin done).

Examples:
  cin ls --due today
  cin ls --project Work --sort due --limit 5
  cin ls --filter 'today | overdue'
  cin ls --view "Work calls"`,
  flagValues: { due: DUE_WINDOWS, sort: SORTS },
  lists: true,
  options: {
    project: { type: 'string' },
    due: { type: 'string' },
    sort: { type: 'string' },
    all: { type: 'boolean' },
    limit: { type: 'string' },
    filter: { type: 'string' },
    view: { type: 'string' },
  },
  async run(ctx) {
    if (ctx.positionals.length > 0) throw new UsageError('cin ls takes no arguments (cin search QUERY finds by words)');
    const limit = limitOf(ctx);
    const filter = ctx.string('filter');
    const view = ctx.string('view');
    if (filter !== undefined || view !== undefined) {
      if (filter !== undefined && view !== undefined) throw new UsageError('--filter and --view do not go together: one query at a time');
      const others = [...(['project', 'due', 'sort'] as const).filter((f) => ctx.string(f) !== undefined), ...(ctx.flag('all') ? ['all'] : [])];
      if (others.length > 0) {
        throw new UsageError(`--${others[0]} does not go with --${filter !== undefined ? 'filter' : 'view'}: say it in the query (#Project, today, all)`);
      }
      return listFiltered(ctx, await ctx.client(), limit, filter, view);
    }
    const window = choice(ctx, 'due', DUE_WINDOWS);
    const sort: Sort = choice(ctx, 'sort', SORTS) ?? (window ? 'due' : 'created');
    const inbox = await ctx.client();
    const name = ctx.string('project');
    const projectId = name !== undefined ? (await resolveProject(inbox, name)).id : undefined;
    const all = ctx.flag('all');
    // Days are the user's: GET /me names the zone (it needs no scope).
    const zone = window ? (await inbox.me.get()).timezone : 'UTC';
    const query: SearchQuery = {
      limit: 200,
      ...(projectId ? { project_id: projectId } : {}),
      ...(all ? {} : { is_completed: false }),
      ...(window ? dueRange(window, zone, new Date()) : {}),
    };
    // Search without words lists newest first and filters by project, completion and due date on
    // the server; archived items that were never done are the only ones left to skip here.
    const keep = (item: Item) => all || item.status !== 'archived';
    let items: Item[];
    if (sort === 'created') {
      items = await take(inbox.items.searchAll({ ...query, limit: Math.min(200, all ? limit : limit + 10) }), limit, keep);
    } else {
      const scanned = await take(inbox.items.searchAll(query), SORT_SCAN, keep);
      if (scanned.length >= SORT_SCAN) ctx.note(`note: sorted the newest ${SORT_SCAN} items only; narrow with --due or --project`);
      items = scanned.sort(byDue).slice(0, limit);
    }
    if (ctx.printList(items)) return 0;
    if (items.length === 0)
      ctx.note(
        window
          ? `nothing ${window === 'overdue' ? 'is overdue' : `is due ${window === 'week' ? 'this week' : 'today'}`}`
          : all
            ? 'no items'
            : 'no open items (cin ls --all shows done and archived ones)',
      );
    else for (const row of itemRows(items, await rowContext(inbox), ctx.display)) ctx.print(row);
    return 0;
  },
};
