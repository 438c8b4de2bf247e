import type { Db } from '../../db/schema.js';
import { AppError, notFound } from '../../errors.js';
import type { ItemView } from '../items/item-view.js';
import type { ProjectsService } from '../projects/projects.service.js';
import { findCollectionNames, insertCollection } from './caldav.repository.js';
import { readOnlyCollection } from './dav-error.js';

/*
 * The calendar home's collections: one per project (todos, as VTODO), at the project's id or at
 * the URL a client's MKCALENDAR chose, and `notes` (every note, as VJOURNAL). Saved filters are not
 * served yet: the filters module lands in parallel (issue 49 leaves them for later).
 */

const NOTES_SEGMENT = 'notes';
const SEGMENT = /^[A-Za-z0-9._~@+-]{1,200}$/;

export interface Collection {
  segment: string;
  kind: 'todos' | 'notes';
  /** The project of a todos collection; null for notes. */
  projectId: string | null;
  displayName: string;
  isInbox: boolean;
}

/** Whether an item is a member of a collection: todos of its project, or any note. */
export const holds = (collection: Collection, item: Pick<ItemView, 'type' | 'project_id'>): boolean =>
  collection.kind === 'notes' ? item.type === 'note' : item.type === 'todo' && item.project_id === collection.projectId;

export interface Collections {
  list(userId: string): Promise<Collection[]>;
  /** The collection at a URL segment, or 404. */
  find(userId: string, segment: string): Promise<Collection>;
  /** MKCALENDAR / extended MKCOL: a project named `name`, served at `segment`. */
  make(userId: string, segment: string, name: string): Promise<Collection>;
  rename(userId: string, collection: Collection, name: string): Promise<void>;
  remove(userId: string, collection: Collection): Promise<void>;
}

export function createCollections(deps: { db: Db; projects: Pick<ProjectsService, 'list' | 'findOrCreate' | 'rename' | 'remove'> }): Collections {
  const { db, projects } = deps;

  async function list(userId: string): Promise<Collection[]> {
    const [all, names] = await Promise.all([projects.list(userId), findCollectionNames(db, userId)]);
    const segmentOf = new Map(names.map((n) => [n.project_id, n.name]));
    const todos: Collection[] = all.map((p) => ({
      segment: segmentOf.get(p.id) ?? p.id,
      kind: 'todos',
      projectId: p.id,
      displayName: p.name,
      isInbox: p.is_default,
    }));
    return [...todos, { segment: NOTES_SEGMENT, kind: 'notes', projectId: null, displayName: 'Notes', isInbox: false }];
  }

  return {
    list,

    async find(userId, segment) {
      const found = (await list(userId)).find((c) => c.segment === segment || c.projectId === segment);
      if (!found) throw notFound('collection');
      return found;
    },

    async make(userId, segment, name) {
      if (!SEGMENT.test(segment) || segment === NOTES_SEGMENT) throw new AppError('conflict', 'a collection cannot be made at this URL');
      const existing = await list(userId);
      if (existing.some((c) => c.segment === segment || c.projectId === segment)) throw new AppError('conflict', 'a collection exists at this URL');
      if (existing.some((c) => c.displayName.toLowerCase() === name.trim().toLowerCase())) {
        throw new AppError('conflict', `a project named "${name.trim()}" already exists`);
      }
      const project = await projects.findOrCreate(userId, name);
      await insertCollection(db, userId, project.id, segment);
      return { segment, kind: 'todos', projectId: project.id, displayName: project.name, isInbox: false };
    },

    async rename(userId, collection, name) {
      if (collection.projectId === null || collection.isInbox) throw readOnlyCollection();
      await projects.rename(userId, collection.projectId, name);
    },

    async remove(userId, collection) {
      if (collection.projectId === null || collection.isInbox) throw readOnlyCollection();
      await projects.remove(userId, collection.projectId);
    },
  };
}
