import type { Services } from '../container.js';
import { filtersOf } from './inbox-query.js';
import { queryOf } from './routes/forms.js';
import { sidebar } from './views/sidebar.views.js';

/** The sidebar as the page at `back` shows it now; null for a page without one (an item's page, a filter). */
export type SidebarAnswer = (userId: string, back: string) => Promise<string | null>;

/** The list pages that draw the sidebar (inbox.views.ts), by the path of their return target. */
const WITH_SIDEBAR = new Set(['/', '/upcoming', '/inbox', '/items']);

/**
 * An action in place answers the sidebar with the row (issue 47): its counts move with a tick, an
 * undo, a delete, a move or a capture, and the live echo that used to bring them is skipped as the
 * page's own change. The page marks the project or tag it lists as current, as the renderer does.
 */
export function createSidebarAnswer(deps: { projects: Services['projects']; tags: Services['tags'] }): SidebarAnswer {
  return async (userId, back) => {
    const path = back.split('?')[0]!;
    const project = path.startsWith('/projects/') ? path.slice('/projects/'.length) : null;
    if (project === null && !WITH_SIDEBAR.has(path)) return null;
    const filters = project !== null || path === '/items' ? filtersOf(queryOf(back)) : null;
    const [projects, tags] = await Promise.all([deps.projects.list(userId), deps.tags.list(userId)]);
    return sidebar({
      projects,
      tags,
      ...(filters ? { currentProject: project ?? filters.project, currentTag: filters.tag } : {}),
    }).value;
  };
}
