import type { FastifyInstance } from 'fastify';
import type { FiltersService } from '../modules/filters/filters.service.js';
import type { SavedFilterView } from '../schemas/filter.js';
import { html, type SafeHtml } from './html.js';
import { SAVED_VIEWS_SLOT } from './layout.js';

/** Saved filters shown in the navigation itself; the rest are one click away on /filters. */
const NAV_VIEWS = 8;

/** A saved filter's color as a dot: an SVG fill, since the pages' CSP allows no inline style. */
export const colorDot = (color: string | null): SafeHtml =>
  color
    ? html`<svg class="dot" width="10" height="10" viewBox="0 0 10 10" aria-hidden="true" focusable="false"><circle cx="5" cy="5" r="5" fill="${color}"/></svg>`
    : html``;

/** The first NAV_VIEWS saved filters, in the user's order, as links beside Today, Upcoming and the Inbox. */
function savedViewLinks(views: readonly SavedFilterView[], path: string): SafeHtml {
  return html`${views
    .slice(0, NAV_VIEWS)
    .map(
      (v) => html`<a class="view" href="/filters/${v.id}"${path === `/filters/${v.id}` ? html` aria-current="page"` : ''}>${colorDot(v.color)}${v.name}</a>`,
    )}`;
}

/**
 * Fills the navigation's saved-filter slot (layout.ts) in every page sent with one: the user's
 * saved filters, read once per page, so the fifteen page renderers need not each load them
 * (decision 0087). Signed out, or if they cannot be read, the slot is left empty: the page stands.
 */
export function installSavedViewsNav(app: FastifyInstance, deps: { filters: Pick<FiltersService, 'list'> }): void {
  app.addHook('onSend', async (request, _reply, payload) => {
    if (typeof payload !== 'string' || !payload.includes(SAVED_VIEWS_SLOT)) return payload;
    const user = request.web?.user ?? null;
    let links: SafeHtml = html``;
    if (user) {
      try {
        links = savedViewLinks(await deps.filters.list(user.id), request.url.split('?')[0]!);
      } catch (error) {
        request.log.warn({ err: error }, 'saved filters for the navigation could not be read');
      }
    }
    return payload.replace(SAVED_VIEWS_SLOT, () => links.value);
  });
}
