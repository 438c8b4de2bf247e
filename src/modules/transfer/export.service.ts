import type { Clock } from '../../lib/clock.js';
import { toTimestamp } from '../../lib/timestamps.js';
import type { ItemsService } from '../items/items.service.js';
import type { ProjectsService } from '../projects/projects.service.js';
import type { TagsService } from '../tags/tags.service.js';
import type { UsersService } from '../users/users.service.js';
import type { Db } from '../../db/schema.js';
import { freshFlow, NO_ITEMS, projectHeading, renderRoots } from './markdown.js';
import { projectPages } from './markdown-reader.js';
import { EXPORT_FORMAT, EXPORT_VERSION } from './transfer.schemas.js';

export type ExportFormat = 'json' | 'markdown';

/** Items read per page while streaming: memory stays flat whatever the size of the inbox. */
const PAGE = 200;

export interface ExportService {
  /** The user's whole data as chunks of text, produced while they are sent. */
  stream(userId: string, format: ExportFormat): AsyncGenerator<string>;
}

export function createExportService(deps: {
  db: Db;
  clock: Clock;
  users: UsersService;
  projects: ProjectsService;
  tags: TagsService;
  items: ItemsService;
  /** The organizer's learned model of the user (issue 37): their data too. */
  organizerModel: (userId: string) => Promise<object | null>;
  /** Completed occurrences of recurring items (contract "Recurrence"). */
  completions: (userId: string) => Promise<Array<{ item_id: string; completed_at: string; due_at: string | null }>>;
  /** Saved filters, in the user's order (contract "Filters and saved views"). */
  filters: (userId: string) => Promise<Array<{ id: string; name: string; query: string; color: string | null; position: number }>>;
}): ExportService {
  async function* json(userId: string): AsyncGenerator<string> {
    const me = await deps.users.me(userId);
    const [projects, tags, organizerModel, filters] = await Promise.all([
      deps.projects.list(userId),
      deps.tags.list(userId),
      deps.organizerModel(userId),
      deps.filters(userId),
    ]);
    const head = {
      format: EXPORT_FORMAT,
      version: EXPORT_VERSION,
      exported_at: toTimestamp(deps.clock.now()),
      user: { email: me.email, timezone: me.timezone },
      projects,
      tags,
      organizer_model: organizerModel,
      filters,
    };
    // The head without its closing brace, then the items one by one.
    yield `${JSON.stringify(head).slice(0, -1)},"items":[`;
    let cursor: string | undefined;
    let first = true;
    do {
      const page = await deps.items.list(userId, { limit: PAGE, ...(cursor ? { cursor } : {}) });
      for (const item of page.items) {
        yield `${first ? '' : ','}\n${JSON.stringify(item)}`;
        first = false;
      }
      cursor = page.next_cursor ?? undefined;
    } while (cursor);
    yield `\n],"completions":${JSON.stringify(await deps.completions(userId))}}\n`;
  }

  async function* markdown(userId: string): AsyncGenerator<string> {
    const me = await deps.users.me(userId);
    yield `<!-- Capture Inbox export of ${me.email}, ${toTimestamp(deps.clock.now())} -->\n`;
    for (const project of await deps.projects.list(userId)) {
      yield `\n${projectHeading(project.name)}`;
      // Streamed a page of top-level items (and their subtasks) at a time, as JSON streams its pages.
      const flow = freshFlow();
      for await (const page of projectPages(deps, userId, project.id)) yield renderRoots(page.roots, page.children, me.timezone, flow);
      if (flow.empty) yield NO_ITEMS;
    }
  }

  return {
    stream: (userId, format) => (format === 'markdown' ? markdown(userId) : json(userId)),
  };
}
