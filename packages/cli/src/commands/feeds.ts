import type { CaptureInbox, Feed } from '@capture-inbox/sdk';
import { CliError, UsageError, type Command } from '../command.js';
import type { Context } from '../context.js';
import { paint } from '../display.js';
import { resolveProject } from '../resolve.js';
import { findSavedFilter } from '../saved-filters.js';

const USAGE = 'cin feeds [add (--project NAME | --filter NAME | --all) [--events] | rm ID]';

/** What a feed shows, in words: a project's or a filter's name, or the whole account. */
async function sourceNames(inbox: CaptureInbox, feeds: readonly Feed[]): Promise<(feed: Feed) => string> {
  const needProjects = feeds.some((f) => f.project_id !== null);
  const needFilters = feeds.some((f) => f.filter_id !== null);
  const [projects, filters] = await Promise.all([needProjects ? inbox.projects.list() : [], needFilters ? inbox.filters.list() : []]);
  const project = new Map(projects.map((p) => [p.id, p.name]));
  const filter = new Map(filters.map((f) => [f.id, f.name]));
  return (feed) => {
    if (feed.project_id !== null) return `#${project.get(feed.project_id) ?? '(deleted project)'}`;
    if (feed.filter_id !== null) return `view ${filter.get(feed.filter_id) ?? '(deleted filter)'}`;
    return 'everything';
  };
}

async function list(ctx: Context, inbox: CaptureInbox): Promise<number> {
  const feeds = await inbox.feeds.list();
  if (ctx.json) {
    ctx.printJson(feeds);
    return 0;
  }
  if (feeds.length === 0) {
    ctx.note('no calendar feeds (cin feeds add --all makes one)');
    return 0;
  }
  const nameOf = await sourceNames(inbox, feeds);
  for (const f of feeds) ctx.print(`${f.id}  ${f.as.padEnd(6)}  ${paint(ctx.display, 'blue', nameOf(f))}\n  ${f.url}`);
  return 0;
}

async function add(ctx: Context, inbox: CaptureInbox): Promise<number> {
  const project = ctx.string('project');
  const filter = ctx.string('filter');
  const all = ctx.flag('all');
  if ([project !== undefined, filter !== undefined, all].filter(Boolean).length !== 1) {
    throw new UsageError('cin feeds add takes exactly one of --project NAME, --filter NAME or --all');
  }
  const as = ctx.flag('events') ? 'events' : 'todos';
  let feed: Feed;
  if (project !== undefined) feed = await inbox.feeds.create({ project_id: (await resolveProject(inbox, project)).id, as });
  else if (filter !== undefined) feed = await inbox.feeds.create({ filter_id: (await findSavedFilter(inbox, filter)).id, as });
  else feed = await inbox.feeds.create({ all: true, as });
  if (ctx.json) ctx.printJson(feed);
  else ctx.print(`added     ${feed.id}\n${feed.url}`);
  return 0;
}

async function remove(ctx: Context, inbox: CaptureInbox, given: string): Promise<number> {
  const feeds = await inbox.feeds.list();
  const wanted = given.trim().toLowerCase();
  const matches = feeds.filter((f) => f.id === wanted || (wanted.length >= 4 && f.id.endsWith(wanted)));
  if (matches.length > 1) throw new CliError('ambiguous_id', `several feeds end in ${given}; give more of the id`);
  const feed = matches[0];
  if (!feed) throw new CliError('not_found', `no feed has the id ${given} (cin feeds lists them)`);
  await inbox.feeds.delete(feed.id);
  if (ctx.json) ctx.printJson({ deleted: feed.id });
  else ctx.print(`deleted   ${feed.id}`);
  return 0;
}

export const feeds: Command = {
  name: 'feeds',
  summary: 'calendar feed URLs for Google Calendar, Outlook and other apps that subscribe',
  usage: USAGE,
  subcommands: ['add', 'rm'],
  manual: `Without arguments, lists your calendar feeds: each an .ics URL a calendar app subscribes to
(Google Calendar "From URL", Outlook "Subscribe from web"). Anyone with the URL can read the feed,
so keep it private; delete it, or rotate it in the web app, when it leaks. At most 20.

  cin feeds add --project NAME   the open todos of a project (name or id)
  cin feeds add --filter NAME    the open todos a saved filter picks (cin filters)
  cin feeds add --all            every open todo
        --events                 as events at their due dates (reminders as alarms) instead of
                                 todos; undated items are left out
  cin feeds rm ID                deletes the feed (its full id, or its last characters); the URL
                                 stops at once

For two-way sync with a task app (Apple Reminders, Tasks.org, Thunderbird) use CalDAV instead:
docs/caldav.md.

Examples:
  cin feeds add --all --events
  cin feeds add --project Work
  cin feeds rm 5d2c9a1f`,
  options: { project: { type: 'string' }, filter: { type: 'string' }, all: { type: 'boolean' }, events: { type: 'boolean' } },
  async run(ctx) {
    const [action, ...args] = ctx.positionals;
    if (action !== undefined && !['add', 'rm', 'ls'].includes(action)) throw new UsageError(`unknown action "${action}": add or rm`);
    if (action === 'rm' && args.length !== 1) throw new UsageError('cin feeds rm ID');
    if ((action === 'add' || action === 'ls' || action === undefined) && args.length > 0) throw new UsageError(`unexpected argument "${args[0]}"`);
    if (action !== 'add' && (ctx.string('project') !== undefined || ctx.string('filter') !== undefined || ctx.flag('all') || ctx.flag('events'))) {
      throw new UsageError('--project, --filter, --all and --events go with cin feeds add');
    }
    const inbox = await ctx.client();
    if (action === 'add') return add(ctx, inbox);
    if (action === 'rm') return remove(ctx, inbox, args[0]!);
    return list(ctx, inbox);
  },
};
