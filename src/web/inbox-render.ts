import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Services } from '../container.js';
import type { ItemView } from '../modules/items/item-view.js';
import type { AuthUser } from '../schemas/auth-user.js';
import { dateContext } from './acting.js';
import { dayHeading, dayStart, overdueTest, type DateContext } from './dates.js';
import { html, type SafeHtml } from './html.js';
import { filtersOf, inboxUrl, searchOf, unfiltered, type InboxFilters } from './inbox-query.js';
import { sendPage, type Section } from './layout.js';
import { createFlashNotices } from './inbox-notices.js';
import { webContext } from './session.js';
import { readSearchBox, type SearchBox } from './search-box.js';
import { itemName } from './views/item-row.views.js';
import { inboxPage, type ListGroup } from './views/inbox.views.js';

/** The organizer checkbox is remembered per browser in this cookie ("1" or "0"). */
export const ORGANIZE_COOKIE = 'cin_organize';
/** Set once a free user has seen what Pro's organizer would do. */
export const PRO_HINT_COOKIE = 'cin_pro_hint';
export { CAPTURED_COOKIE, ORGANIZED_COOKIE } from './inbox-notices.js';
export const FLASH = { httpOnly: true, sameSite: 'lax' as const, path: '/', maxAge: 300 };

/** Which list: Today, Upcoming, the Inbox's triage queue, all items (search), or one project. */
export type ListKind =
  { kind: 'today' } | { kind: 'upcoming' } | { kind: 'inbox' } | { kind: 'items' } | { kind: 'project'; projectId: string; header: SafeHtml };

export interface InboxView {
  list: ListKind;
  query: { q?: string; project?: string; tag?: string; show?: string; cursor?: string };
  notice?: SafeHtml;
  status?: number;
  error?: string;
  /** The capture that failed: its text back in the box, its message next to it. */
  capture?: { draft: string; error: string };
}

export type InboxRenderer = (request: FastifyRequest, reply: FastifyReply, user: AuthUser, view: InboxView) => Promise<FastifyReply>;

/** What the lists read: the routes that render them take these among their own options. */
export type InboxSources = Pick<Services, 'clock' | 'items' | 'projects' | 'search' | 'tags' | 'voice'> & {
  quickAdd: Pick<Services['quickAdd'], 'splitsProse'>;
};

/** Upcoming shows this many days after today. */
const UPCOMING_DAYS = 14;

interface Listed {
  title: string;
  section: Section;
  groups: ListGroup[];
  doneToday?: ItemView[];
  children?: Map<string, ItemView[]>;
  nextPage: string | null;
  self: string;
  base: string;
  empty: SafeHtml;
  header?: SafeHtml;
  /** What the page says about how it read the search box. */
  note?: SafeHtml;
}

/** The user's projects and tags, as every list page shows them and the search box reads them. */
type Lists = Promise<[Awaited<ReturnType<Services['projects']['list']>>, Awaited<ReturnType<Services['tags']['list']>>]>;

const BLANK: InboxFilters = { q: '', project: '', tag: '', show: 'open' };

/** Every list page: Today, Upcoming, Inbox, all items and a project's page, each read through the items or search service. */
export function createInboxRenderer({ clock, items, projects, search, tags, voice, quickAdd }: InboxSources): InboxRenderer {
  async function today(userId: string, dates: DateContext): Promise<Listed> {
    const start = dayStart(dates, 0).toISOString();
    const [due, doneToday] = await Promise.all([items.agenda(userId, { dueBefore: dayStart(dates, 1).toISOString() }), items.doneSince(userId, start)]);
    // Overdue (its time has passed, earlier today included; an all-day item once its day has ended)
    // first: the service answers soonest first, so the split keeps each part in due order.
    const isOverdue = overdueTest(dates);
    const overdue = due.filter(isOverdue);
    const rest = due.filter((i) => !isOverdue(i));
    return {
      title: 'Today',
      section: 'today',
      groups: [
        { id: 'overdue', heading: 'Overdue', items: overdue },
        { id: 'due-today', heading: 'Due today', items: rest },
      ],
      doneToday,
      nextPage: null,
      self: '/',
      base: '/items',
      empty: html`<p class="empty">Nothing due today. <a href="/upcoming">See what is coming up</a> or <a href="/inbox">triage the Inbox</a>.</p>`,
    };
  }

  async function upcoming(userId: string, dates: DateContext): Promise<Listed> {
    const starts = Array.from({ length: UPCOMING_DAYS + 1 }, (_, i) => dayStart(dates, i));
    const all = await items.agenda(userId, { dueBefore: starts[UPCOMING_DAYS]!.toISOString() });
    // Overdue first (issue 47 item 10), as on Today, with one action that moves them all to today.
    const isOverdue = overdueTest(dates);
    const overdue = all.filter(isOverdue);
    const due = all.filter((i) => !isOverdue(i));
    const groups: ListGroup[] = starts.slice(0, UPCOMING_DAYS).map((start, i) => {
      const from = i === 0 ? '' : start.toISOString();
      const to = starts[i + 1]!.toISOString();
      return { id: `day-${i}`, heading: dayHeading(start, i, dates), items: due.filter((item) => item.due_at! >= from && item.due_at! < to) };
    });
    groups.unshift({ id: 'overdue', heading: 'Overdue', items: overdue, action: 'reschedule-overdue' });
    return {
      title: 'Upcoming',
      section: 'upcoming',
      groups,
      nextPage: null,
      self: '/upcoming',
      base: '/items',
      empty: html`<p class="empty">Nothing due in the next ${UPCOMING_DAYS} days.</p>`,
    };
  }

  /** A project's open items (the Inbox is a project too), newest first, subtasks under their items. */
  async function openList(
    userId: string,
    projectId: string,
    cursor: string | undefined,
    base: string,
  ): Promise<Pick<Listed, 'groups' | 'children' | 'nextPage' | 'self'>> {
    const page = await items.open(userId, { projectId, ...(cursor ? { cursor } : {}) });
    const children = await items.childrenOf(
      userId,
      page.items.map((i) => i.id),
    );
    return {
      groups: [{ id: 'open', heading: null, items: page.items }],
      children,
      nextPage: page.next_cursor ? `${base}?cursor=${encodeURIComponent(page.next_cursor)}` : null,
      self: cursor ? `${base}?cursor=${encodeURIComponent(cursor)}` : base,
    };
  }

  /**
   * The filters as the search box reads them (search-box.ts): its tag and project words become
   * filters; links keep the box as typed. A box with no words to look for lists nothing.
   */
  async function searched(
    userId: string,
    filters: InboxFilters,
    cursor: string | undefined,
    base: string,
    box: SearchBox,
  ): Promise<Pick<Listed, 'groups' | 'nextPage' | 'self' | 'note'>> {
    const self = inboxUrl(filters, cursor, base);
    if (box.noWords) return { groups: [], nextPage: null, self };
    const read: InboxFilters = { ...filters, q: box.text, ...(box.tag ? { tag: box.tag } : {}), ...(box.projectId ? { project: box.projectId } : {}) };
    const { query, internal } = searchOf(read, cursor);
    const page = await search.search(userId, query, internal);
    const note =
      box.ignoredTags.length > 0
        ? html`<div class="alert" role="status"><p>One tag at a time: showing items tagged @${box.tag}, not ${box.ignoredTags.map((t) => `@${t}`).join(', ')}.</p></div>`
        : undefined;
    return {
      groups: [{ id: 'found', heading: null, items: page.items }],
      nextPage: page.next_cursor ? inboxUrl(filters, page.next_cursor, base) : null,
      self,
      ...(note ? { note } : {}),
    };
  }

  /** What an empty search says: no words to look for, or no match. */
  const emptySearch = (box: SearchBox, base: string, noMatch: SafeHtml): SafeHtml =>
    box.noWords
      ? html`<p class="empty no-words" role="status">“${box.text}” has no letters or digits, so there are no words to search for. Search finds words in titles and notes; <kbd>@tag</kbd> shows the items with a tag. <a href="${base}">Show every open item</a></p>`
      : noMatch;

  async function listed(user: AuthUser, view: InboxView, filters: InboxFilters, dates: DateContext, lists: Lists): Promise<Listed> {
    const cursor = view.query.cursor;
    const noMatch = (base: string) => html`<p class="empty">No items match these filters. <a href="${base}">Show every open item</a></p>`;
    switch (view.list.kind) {
      case 'today':
        return today(user.id, dates);
      case 'upcoming':
        return upcoming(user.id, dates);
      case 'inbox': {
        const inboxId = await projects.inboxId(user.id);
        return {
          title: 'Inbox',
          section: 'inbox',
          ...(await openList(user.id, inboxId, cursor, '/inbox')),
          base: '/items',
          empty: html`<p class="empty">The Inbox is empty: everything captured has a project.</p>`,
        };
      }
      case 'project': {
        const base = `/projects/${view.list.projectId}`;
        if (unfiltered(filters)) {
          return {
            title: 'Project',
            section: 'projects',
            ...(await openList(user.id, view.list.projectId, cursor, base)),
            base,
            header: view.list.header,
            empty: html`<p class="empty">No open items in this project.</p>`,
          };
        }
        // The page's project is fixed: `#name` there can only be a tag.
        const box = readSearchBox(filters.q, { tags: (await lists)[1].map((t) => t.name), projects: [] });
        const part = await searched(user.id, filters, cursor, base, box);
        return { title: 'Project', section: 'projects', ...part, base, header: view.list.header, empty: emptySearch(box, base, noMatch(base)) };
      }
      case 'items': {
        const [projectList, tagList] = await lists;
        const box = readSearchBox(filters.q, { tags: tagList.map((t) => t.name), projects: projectList });
        const part = await searched(user.id, filters, cursor, '/items', box);
        return {
          title: 'All items',
          section: 'items',
          ...part,
          base: '/items',
          empty:
            unfiltered(filters) && filters.project === ''
              ? html`<p class="empty">Nothing open. Capture a thought above.</p>`
              : emptySearch(box, '/items', noMatch('/items')),
        };
      }
    }
  }

  const { organized, captured } = createFlashNotices({ items, projects });

  return async (request, reply, user, view) => {
    const filters =
      view.list.kind === 'project' ? { ...filtersOf(view.query), project: view.list.projectId } : view.list.kind === 'items' ? filtersOf(view.query) : BLANK;
    const dates = dateContext(request, user.timezone, clock);
    const lists: Lists = Promise.all([projects.list(user.id), tags.list(user.id)]);
    const [list, [projectList, tagList]] = await Promise.all([listed(user, view, filters, dates, lists), lists]);
    const shown = list.groups.flatMap((g) => g.items);
    // Subtasks shown on their own (Today, Upcoming, search) say whose they are.
    const parentIds = [...new Set(shown.map((i) => i.parent_id).filter((id): id is string => id !== null && !shown.some((s) => s.id === id)))];
    const parents = await Promise.all(parentIds.slice(0, 50).map((id) => items.get(user.id, id).catch(() => null)));
    const parentNames = new Map(parents.filter((p): p is ItemView => p !== null).map((p) => [p.id, itemName(p)]));
    const notices = [view.notice, list.note, await organized(request, reply, user, dates, list.self), await captured(request, reply, user, shown)].filter(
      (n): n is SafeHtml => n !== undefined,
    );
    const notice = notices.length > 0 ? html`${notices}` : undefined;
    const pro = user.plan === 'pro';
    const title = view.list.kind === 'project' ? (projectList.find((p) => p.id === filters.project)?.name ?? 'Project') : list.title;
    const page = inboxPage({
      user,
      csrf: webContext(request).csrf,
      title,
      section: list.section,
      filters,
      groups: list.groups,
      ...(list.doneToday ? { doneToday: list.doneToday } : {}),
      ...(list.children ? { children: list.children } : {}),
      parentNames,
      projects: projectList,
      tags: tagList,
      dates,
      nextPage: list.nextPage,
      self: list.self,
      base: list.base,
      empty: list.empty,
      capture: {
        organize: pro ? { checked: request.cookies[ORGANIZE_COOKIE] !== '0', splitsProse: quickAdd.splitsProse } : null,
        voice: pro
          ? {
              unavailable:
                voice.engineName === null ? 'Voice capture is not available on this server yet: type instead, or ask its administrator to turn it on.' : null,
            }
          : null,
        ...(view.capture ?? {}),
      },
      ...(list.header ? { header: list.header } : {}),
      ...(notice ? { notice } : {}),
      ...(view.error ? { error: view.error } : {}),
    });
    return sendPage(reply, view.status ?? 200, page);
  };
}
