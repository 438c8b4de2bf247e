import type { DialectName } from '../../db/create-db.js';
import type { Db } from '../../db/schema.js';
import type { Clock } from '../../lib/clock.js';
import { clampLimit, cutPage, decodeCursor } from '../../lib/cursor.js';
import type { IdGenerator } from '../../lib/ids.js';
import { parseTimestamp } from '../../lib/timestamps.js';
import type { EventsService } from '../events/events.service.js';
import type { OrganizerService } from '../organizer/organizer.service.js';
import type { ProjectsService } from '../projects/projects.service.js';
import { createCapture, type Capture } from './capture.js';
import type { ItemEdits } from './item-edits.js';
import type { ItemLoader } from './item-loader.js';
import type { ItemView } from './item-view.js';
import { findItemPage, type ItemPageQuery } from './items.repository.js';

export type { CaptureInput, CapturedItem } from './capture.js';
export type { PatchInput } from './item-patch.js';

export interface Page<T> {
  items: T[];
  next_cursor: string | null;
}

export interface ListQuery {
  since?: string;
  limit?: number;
  cursor?: string;
}

/** Every operation the API and the web app offer on items. */
export interface ItemsService extends ItemEdits {
  capture: Capture;
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
  projects: Pick<ProjectsService, 'requireProject' | 'inboxId'>;
  events: EventsService;
  /** The single-item changes, built first: the organizer's "organize a stored item" saves through them too. */
  edits: ItemEdits;
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

  return {
    capture: createCapture(deps),
    ...deps.edits,

    async get(userId, id) {
      return loader.requireView(db, userId, id);
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
