import type { operations } from './generated/openapi.js';
import { unwrap, type Api } from './transport.js';

/** A subscribable calendar feed: `url` is readable with no key, so keep it private (rotate it if it leaks). */
export type Feed = operations['createFeed']['responses'][201]['content']['application/json']['feed'];
/** Exactly one of `project_id`, `filter_id` or `all: true`; `as` is `todos` (default) or `events`. */
export type FeedInput = NonNullable<operations['createFeed']['requestBody']>['content']['application/json'];

/** Calendar feeds for apps that only subscribe to an .ics URL (contract "Calendar apps: CalDAV and feeds"). */
export function feedsApi(api: Api) {
  const path = (id: string) => ({ path: { id } });
  return {
    /** The user's feeds, oldest first. */
    list: async (): Promise<Feed[]> => (await unwrap(api.GET('/api/v1/feeds'))).feeds,
    /** At most 20 a user: the 21st is an ApiError 400. */
    create: async (input: FeedInput): Promise<Feed> => (await unwrap(api.POST('/api/v1/feeds', { body: input }))).feed,
    /** A new URL for the feed; the old one stops at once. */
    rotate: async (id: string): Promise<Feed> => (await unwrap(api.POST('/api/v1/feeds/{id}/rotate', { params: path(id) }))).feed,
    /** Deletes the feed; its URL stops at once. */
    delete: async (id: string): Promise<void> => {
      await unwrap(api.DELETE('/api/v1/feeds/{id}', { params: path(id) }));
    },
  };
}
