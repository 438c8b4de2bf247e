import type { Db } from '../../db/schema.js';
import { AppError, notFound } from '../../errors.js';
import type { FiltersService } from '../filters/filters.service.js';
import type { ItemView } from '../items/item-view.js';
import type { ProjectsService } from '../projects/projects.service.js';
import { findCollectionNames, findHomeProjects, insertCollection } from './caldav.repository.js';
import { readOnlyCollection } from './dav-error.js';

/*
 * The calendar home's collections: one per project (todos, as VTODO), at the project's id or at
 * the URL a client's MKCALENDAR chose, `notes` (every note, as VJOURNAL), and one read-only
 * collection per saved filter at `filter-{id}`, named after the filter: the todos its query picks
 * (decisions/0083). Which items a filter holds is the filter compiler's answer (object-store.ts).
 */

const NOTES_SEGMENT = 'notes';
const FILTER_PREFIX = 'filter-';
const SEGMENT = /^[A-Za-z0-9._~@+-]{1,200}$/;

export interface Collection {
  segment: string;
  kind: 'todos' | 'notes' | 'filter';
  /** The project of a todos collection; null for notes and filters. */
  projectId: string | null;
  /** The saved filter of a filter collection (its query picks the members); null otherwise. */
  filter: { id: string; query: string } | null;
  displayName: string;
  isInbox: boolean;
}

/**
 * Whether an item is a member of a project's collection (its todos) or of `notes` (any note). A
 * filter collection's members are its query's answer, which this cannot tell: false here, and
 * ObjectStore.membership() answers for every kind.
 */
export const holds = (collection: Collection, item: Pick<ItemView, 'type' | 'project_id'>): boolean => {
  if (collection.kind === 'filter') return false;
  return collection.kind === 'notes' ? item.type === 'note' : item.type === 'todo' && item.project_id === collection.projectId;
};

export interface Collections {
  list(userId: string): Promise<Collection[]>;
  /** The collection at a URL segment, or 404. */
  find(userId: string, segment: string): Promise<Collection>;
  /** MKCALENDAR / extended MKCOL: a project named `name`, served at `segment`. */
  make(userId: string, segment: string, name: string): Promise<Collection>;
  rename(userId: string, collection: Collection, name: string): Promise<void>;
  remove(userId: string, collection: Collection): Promise<void>;
}

export function createCollections(deps: {
  db: Db;
  projects: Pick<ProjectsService, 'findOrCreate' | 'rename' | 'remove'>;
  filters: Pick<FiltersService, 'list'>;
}): Collections {
  const { db, projects } = deps;

  async function list(userId: string): Promise<Collection[]> {
    const [all, names, filters] = await Promise.all([findHomeProjects(db, userId), findCollectionNames(db, userId), deps.filters.list(userId)]);
    const segmentOf = new Map(names.map((n) => [n.project_id, n.name]));
    const todos: Collection[] = all.map((p) => ({
      segment: segmentOf.get(p.id) ?? p.id,
      kind: 'todos',
      projectId: p.id,
      filter: null,
      displayName: p.name,
      isInbox: p.is_default,
    }));
    const views: Collection[] = filters.map((f) => ({
      segment: `${FILTER_PREFIX}${f.id}`,
      kind: 'filter',
      projectId: null,
      filter: { id: f.id, query: f.query },
      displayName: f.name,
      isInbox: false,
    }));
    return [...todos, { segment: NOTES_SEGMENT, kind: 'notes', projectId: null, filter: null, displayName: 'Notes', isInbox: false }, ...views];
  }

  return {
    list,

    async find(userId, segment) {
      const found = (await list(userId)).find((c) => c.segment === segment || c.projectId === segment);
      if (!found) throw notFound('collection');
      return found;
    },

    async make(userId, segment, name) {
      if (!SEGMENT.test(segment) || segment === NOTES_SEGMENT || segment.startsWith(FILTER_PREFIX))
        throw new AppError('conflict', 'a collection cannot be made at this URL');
      const existing = await list(userId);
      if (existing.some((c) => c.segment === segment || c.projectId === segment)) throw new AppError('conflict', 'a collection exists at this URL');
      if (existing.some((c) => c.displayName.toLowerCase() === name.trim().toLowerCase())) {
        throw new AppError('conflict', `a project named "${name.trim()}" already exists`);
      }
      const project = await projects.findOrCreate(userId, name);
      await insertCollection(db, userId, project.id, segment);
      return { segment, kind: 'todos', projectId: project.id, filter: null, displayName: project.name, isInbox: false };
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
