import type { Page } from './types.js';

/**
 * Every entry of a paged list, fetching the next page only when the caller asks for more, so a
 * `break` stops the requests. Ends on the page whose `next_cursor` is null.
 */
export async function* paginate<T>(fetchPage: (cursor: string | undefined) => Promise<Page<T>>, startCursor?: string): AsyncGenerator<T, void, undefined> {
  let cursor = startCursor;
  for (;;) {
    const page = await fetchPage(cursor);
    yield* page.items;
    if (page.next_cursor === null || page.next_cursor === cursor) return;
    cursor = page.next_cursor;
  }
}
