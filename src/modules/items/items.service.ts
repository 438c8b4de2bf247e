import type { Db } from '../../db/schema.js';
import type { DialectName } from '../../db/create-db.js';
import { isUniqueViolation } from '../../db/errors.js';
import { badRequest } from '../../errors.js';
import type { Clock } from '../../lib/clock.js';
import { clampLimit, cutPage, decodeCursor } from '../../lib/cursor.js';
import type { IdGenerator } from '../../lib/ids.js';
import { parseTimestamp, toTimestamp } from '../../lib/timestamps.js';
import type { AuthUser } from '../users/auth-user.js';
import type { EventsService } from '../events/events.service.js';
import type { AiView } from '../organizer/organizer.schemas.js';
import type { OrganizerService } from '../organizer/organizer.service.js';
import type { ProjectsService } from '../projects/projects.service.js';
import { splitCapturedText } from './capture-text.js';
import type { ItemLoader } from './item-loader.js';
import { toItemView, type ItemView } from './item-view.js';
import { findItemByClientId, findItemPage, insertNewItem, type ItemPageQuery } from './items.repository.js';

/** The contract's limit on captured text, counted after trim. */
const TEXT_MAX = 100000;
export interface CaptureInput {
  text: string;
  project_id?: string;
  type?: 'note' | 'todo';
  organize?: boolean;
  client_id?: string;
  due_at?: string;
}

/** `ai` is what the organizer decided, or null when it did not run. */
export type CapturedItem = ItemView & { ai: AiView | null };

export interface Page<T> {
  items: T[];
  next_cursor: string | null;
}

export interface ListQuery {
  since?: string;
  limit?: number;
  cursor?: string;
}

export interface ItemsService {
  capture(user: AuthUser, input: CaptureInput): Promise<{ item: CapturedItem; created: boolean }>;
  get(userId: string, id: string): Promise<ItemView>;
  list(userId: string, query: ListQuery): Promise<Page<ItemView>>;
  children(userId: string, id: string, query: ListQuery): Promise<Page<ItemView>>;
  inProject(userId: string, projectId: string, query: ListQuery): Promise<Page<ItemView>>;
}

export function createItemsService(deps: {
  db: Db;
  dialect: DialectName;
  clock: Clock;
  newId: IdGenerator;
  loader: ItemLoader;
  projects: ProjectsService;
  events: EventsService;
  organizer: Pick<OrganizerService, 'organizeCapture'>;
}): ItemsService {
  const { db, loader } = deps;

  async function page(userId: string, q: Omit<ItemPageQuery, 'after'>, cursor: string | undefined): Promise<Page<ItemView>> {
    const ordering = [q.order, q.projectId ?? '', q.parentId ?? ''].join(':');
    const after = cursor === undefined ? undefined : decodeCursor(ordering, cursor);
    const rows = await findItemPage(db, userId, { ...q, ...(after ? { after } : {}) });
    const page = cutPage(rows, q.limit, ordering, (row) => (q.order === 'created' ? row.created_at : row.updated_at));
    return { items: await loader.views(db, userId, page.rows), next_cursor: page.next_cursor };
  }

  async function replay(user: AuthUser, clientId: string): Promise<CapturedItem | undefined> {
    const existing = await findItemByClientId(db, user.id, clientId);
    return existing ? { ...(await loader.view(db, user.id, existing)), ai: null } : undefined;
  }

  return {
    async capture(user, input) {
      if (Array.from(input.text.trim()).length > TEXT_MAX) throw badRequest(`text must be 1 to ${TEXT_MAX} characters after trim`, 'text');
      if (input.client_id) {
        const previous = await replay(user, input.client_id);
        if (previous) return { item: previous, created: false };
      }
      const dueAt = input.due_at === undefined ? null : parseTimestamp(input.due_at, 'due_at');
      const project = input.project_id
        ? await deps.projects.requireProject(db, user.id, input.project_id)
        : await deps.projects.requireInbox(db, user.id);
      const text = splitCapturedText(input.text);
      let fields = { type: input.type ?? ('todo' as const), project_id: project.id, due_at: dueAt, title: text.title as string | null };
      let ai: AiView | null = null;
      // The route's `pro` marker already refused free users; a replay above never runs the organizer again.
      if (input.organize) {
        const fixed = { type: input.type !== undefined, project_id: input.project_id !== undefined, due_at: input.due_at !== undefined };
        ({ fields, ai } = await deps.organizer.organizeCapture(user, { baseline: fields, content_md: text.content_md, fixed }));
      }
      const { type } = fields;
      const newRow = (now: string) => ({
        id: deps.newId(),
        user_id: user.id,
        project_id: fields.project_id,
        parent_id: null,
        type,
        title: fields.title,
        content_md: text.content_md,
        is_completed: 0,
        status: type === 'todo' ? ('todo' as const) : ('backlog' as const),
        status_before_archive: null,
        due_at: fields.due_at,
        archived_at: null,
        client_id: input.client_id ?? null,
        created_at: now,
        updated_at: now,
      });
      let item!: ItemView;
      try {
        await db.transaction().execute(async (trx) => {
          // Stamped inside the transaction, which SQLite runs one at a time: a user's search keys,
          // which count inserts, then follow created_at (see the search-key-counter migration).
          const row = newRow(toTimestamp(deps.clock.now()));
          await insertNewItem(trx, deps.dialect, row);
          item = toItemView(row, []);
          await deps.events.record(trx, user.id, [{ name: 'item.created', item }]);
        });
      } catch (error) {
        // Two captures with one client_id raced; the loser answers with the winner's item.
        const winner = isUniqueViolation(error) && input.client_id ? await replay(user, input.client_id) : undefined;
        if (winner) return { item: winner, created: false };
        throw error;
      }
      return { item: { ...item, ai }, created: true };
    },

    async get(userId, id) {
      return loader.view(db, userId, await loader.requireRow(db, userId, id));
    },

    async list(userId, query) {
      const since = query.since === undefined ? undefined : parseTimestamp(query.since, 'since');
      const order = since === undefined ? 'created' : 'updated';
      return page(userId, { order, ...(since ? { since } : {}), limit: clampLimit(query.limit, 50, 200) }, query.cursor);
    },

    async children(userId, id, query) {
      const parent = await loader.requireRow(db, userId, id);
      return page(userId, { order: 'created', parentId: parent.id, limit: clampLimit(query.limit, 200, 1000) }, query.cursor);
    },

    async inProject(userId, projectId, query) {
      const project = await deps.projects.requireProject(db, userId, projectId);
      return page(userId, { order: 'created', projectId: project.id, limit: clampLimit(query.limit, 200, 1000) }, query.cursor);
    },
  };
}
