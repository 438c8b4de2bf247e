import type { CaptureInbox, Item } from '@capture-inbox/sdk';

/** More subtasks than this under one item are not a terminal's business (every loop here is bounded). */
const MAX_PAGES = 10;

/** The item's subtasks in the order the API answers them (newest first), every page up to the bound. */
export async function subtasksOf(inbox: CaptureInbox, id: string): Promise<Item[]> {
  const out: Item[] = [];
  let cursor: string | null = null;
  for (let page = 0; page < MAX_PAGES; page += 1) {
    const answer = await inbox.items.children(id, { limit: 200, ...(cursor ? { cursor } : {}) });
    out.push(...answer.items);
    cursor = answer.next_cursor;
    if (!cursor) break;
  }
  return out;
}
