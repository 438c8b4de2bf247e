import type { InternalFilters } from '../modules/search/search.service.js';
import type { SearchQuery } from '../modules/search/search.schemas.js';

/** Open: neither done nor archived (the default); done; archived; everything. */
export type Show = 'open' | 'done' | 'archived' | 'all';

/** The list's filters as the page's query string carries them. */
export interface InboxFilters {
  q: string;
  project: string;
  tag: string;
  show: Show;
}

const SHOWS: readonly Show[] = ['open', 'done', 'archived', 'all'];

export function filtersOf(query: { q?: string | undefined; project?: string | undefined; tag?: string | undefined; show?: string | undefined }): InboxFilters {
  // "active" was the default's name before done items left the open lists; old links keep working.
  const show = SHOWS.find((s) => s === query.show) ?? 'open';
  return { q: (query.q ?? '').trim(), project: query.project ?? '', tag: (query.tag ?? '').trim(), show };
}

/** No words, no tag, open items: the list a project page shows by default, subtasks under their items. */
export const unfiltered = (f: InboxFilters): boolean => f.q === '' && f.tag === '' && f.show === 'open';

/**
 * The list's filters as the search service's, so the web and GET /items/search answer the same
 * words with the same items: "open" is is_completed=false and not archived, "done" status=done,
 * "archived" status=archived, "all" no condition.
 */
export function searchOf(f: InboxFilters, cursor?: string): { query: SearchQuery; internal: InternalFilters } {
  const query: SearchQuery = {
    ...(f.q ? { q: f.q } : {}),
    ...(f.project ? { project_id: f.project } : {}),
    ...(f.tag ? { tag: f.tag } : {}),
    ...(f.show === 'archived' ? { status: 'archived' as const } : {}),
    ...(f.show === 'done' ? { status: 'done' as const } : {}),
    ...(f.show === 'open' ? { is_completed: false } : {}),
    ...(cursor ? { cursor } : {}),
  };
  return { query, internal: f.show === 'open' ? { notArchived: true } : {} };
}

/** The filters back as a query string, so paging and forms keep them. */
export function inboxUrl(f: InboxFilters, cursor?: string, base = '/items'): string {
  const params = new URLSearchParams();
  if (f.q) params.set('q', f.q);
  if (f.project && !base.startsWith('/projects/')) params.set('project', f.project);
  if (f.tag) params.set('tag', f.tag);
  if (f.show !== 'open') params.set('show', f.show);
  if (cursor) params.set('cursor', cursor);
  const query = params.toString();
  return query ? `${base}?${query}` : base;
}
