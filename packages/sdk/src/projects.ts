import { arrayPage } from './items.js';
import { paginate } from './pages.js';
import { unwrap, type Api } from './transport.js';
import type { Item, Page, PageQuery, Project, ProjectInput, ProjectPatch } from './types.js';

export function projectsApi(api: Api) {
  const path = (id: string) => ({ path: { id } });
  return {
    list: async (): Promise<Project[]> => (await unwrap(api.GET('/api/v1/projects'))).projects,
    create: (input: ProjectInput): Promise<Project> => unwrap(api.POST('/api/v1/projects', { body: input })),
    get: (id: string): Promise<Project> => unwrap(api.GET('/api/v1/projects/{id}', { params: path(id) })),
    update: (id: string, patch: ProjectPatch): Promise<Project> => unwrap(api.PATCH('/api/v1/projects/{id}', { params: path(id), body: patch })),
    delete: async (id: string): Promise<void> => {
      await unwrap(api.DELETE('/api/v1/projects/{id}', { params: path(id) }));
    },
    /** One page of the project's items, newest first. */
    items: (id: string, query: PageQuery = {}): Promise<Page<Item>> => arrayPage(api.GET('/api/v1/projects/{id}/items', { params: { ...path(id), query } })),
    itemsAll: (id: string, query: Omit<PageQuery, 'cursor'> = {}): AsyncGenerator<Item, void, undefined> =>
      paginate((cursor) => arrayPage(api.GET('/api/v1/projects/{id}/items', { params: { ...path(id), query: { ...query, ...(cursor ? { cursor } : {}) } } }))),
  };
}
