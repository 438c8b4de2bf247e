import type { InternalFilters } from '../modules/search/search.service.js';
import type { SearchQuery } from '../modules/search/search.schemas.js';

export type Show = 'active' | 'archived' | 'all';

/** The inbox's filters as the page's query string carries them. */
export interface InboxFilters {
  q: string;
  project: string;
  tag: string;
  show: Show;
}

const SHOWS: readonly Show[] = ['active', 'archived', 'all'];

export function filtersOf(query: { q?: string | undefined; project?: string | undefined; tag?: string | undefined; show?: string | undefined }): InboxFilters {
  const show = SHOWS.find((s) => s === query.show) ?? 'active';
  return { q: (query.q ?? '').trim(), project: query.project ?? '', tag: (query.tag ?? '').trim(), show };
}

/**
 * The inbox's views as the search service's filters, so the web and GET /items/search answer the
 * same words with the same items: "active" is everything not archived, "archived" the API's
 * status=archived, "all" no status condition.
 */
export function searchOf(f: InboxFilters, cursor?: string): { query: SearchQuery; internal: InternalFilters } {
  const query: SearchQuery = {
    ...(f.q ? { q: f.q } : {}),
    ...(f.project ? { project_id: f.project } : {}),
    ...(f.tag ? { tag: f.tag } : {}),
    ...(f.show === 'archived' ? { status: 'archived' as const } : {}),
    ...(cursor ? { cursor } : {}),
  };
  return { query, internal: f.show === 'active' ? { notArchived: true } : {} };
}

/** The filters back as a query string, so paging and forms keep them. */
export function inboxUrl(f: InboxFilters, cursor?: string, base = '/'): string {
  const params = new URLSearchParams();
  if (f.q) params.set('q', f.q);
  if (f.project && !base.startsWith('/projects/')) params.set('project', f.project);
  if (f.tag) params.set('tag', f.tag);
  if (f.show !== 'active') params.set('show', f.show);
  if (cursor) params.set('cursor', cursor);
  const query = params.toString();
  return query ? `${base}?${query}` : base;
}
