import { expect } from 'vitest';
import { ok } from './items.js';
import type { Client, JsonBody } from './test-app.js';

/**
 * Follows next_cursor of GET /items/search to the end, asserting the paging contract on the way:
 * every page but the last is full, and no page is empty while a cursor was given.
 */
export async function allSearchPages(c: Client, query: string, limit: number): Promise<{ pages: JsonBody[][]; ids: string[] }> {
  const pages: JsonBody[][] = [];
  let cursor: string | null = null;
  do {
    const parts = [query, `limit=${limit}`, cursor ? `cursor=${cursor}` : ''].filter(Boolean);
    const body = ok(await c.get(`items/search?${parts.join('&')}`));
    cursor = body.next_cursor;
    if (cursor !== null || pages.length > 0) expect(body.items.length, `page ${pages.length + 1} of ${query}`).toBeGreaterThan(0);
    if (cursor !== null) expect(body.items).toHaveLength(limit);
    pages.push(body.items);
    expect(pages.length, 'paging must end').toBeLessThan(2000);
  } while (cursor !== null);
  return { pages, ids: pages.flat().map((item: { id: string }) => item.id) };
}
