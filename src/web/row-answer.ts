import type { FastifyRequest } from 'fastify';
import type { Services } from '../container.js';
import type { Clock } from '../lib/clock.js';
import type { ItemView } from '../modules/items/item-view.js';
import type { AuthUser } from '../schemas/auth-user.js';
import { dateContext } from './acting.js';
import type { InboxView } from './inbox-render.js';
import { filtersOf } from './inbox-query.js';
import { placeOf } from './row-placement.js';
import { webContext } from './session.js';
import { itemName, itemRow } from './views/item-row.views.js';

export type RowAnswer = (request: FastifyRequest, user: AuthUser, item: ItemView, back: string) => Promise<{ place: string | null; html: string } | null>;

export function createRowAnswer(deps: {
  projects: Services['projects'];
  items: Services['items'];
  clock: Clock;
  listOf: (request: FastifyRequest, user: AuthUser, back: string) => Promise<Pick<InboxView, 'list' | 'query'>>;
}): RowAnswer {
  const { projects, items, clock, listOf } = deps;
  /**
   * The item's row as the page at `back` now shows it, for the script to put in place of the old
   * one (issue 47 item 8): where it goes (row-placement.ts) and its markup. Null for a page
   * without such rows (an item's own page): the script then fetches the page's lists.
   */
  return async function rowAnswer(
    request: FastifyRequest,
    user: AuthUser,
    item: ItemView,
    back: string,
  ): Promise<{ place: string | null; html: string } | null> {
    if (back.startsWith('/inbox/items/')) return null;
    const [{ list, query }, inboxId] = await Promise.all([listOf(request, user, back), projects.inboxId(user.id)]);
    const dates = dateContext(request, user.timezone, clock);
    const place = placeOf(list, item, dates, inboxId, filtersOf(query).show);
    if (place === null) return { place, html: '' };
    const [projectList, children, parent] = await Promise.all([
      projects.list(user.id),
      items.childrenOf(user.id, [item.id]),
      item.parent_id ? items.get(user.id, item.parent_id).catch(() => null) : Promise.resolve(null),
    ]);
    const row = itemRow(
      {
        csrf: webContext(request).csrf,
        self: back,
        dates,
        projects: projectList,
        projectNames: new Map(projectList.map((p) => [p.id, p.name])),
        children,
        ...(parent ? { parentNames: new Map([[parent.id, itemName(parent)]]) } : {}),
      },
      item,
    );
    return { place, html: row.value };
  };
}
