/*
 * The user's own changes, as the server answered them: the live stream echoes each one back, and
 * fetching the page again for it would download what this page already shows (issue 47 item 8).
 * Kept for a short while only: an echo comes within a second or two.
 */
const KEPT_MS = 15_000;
const seen = new Map<string, number>();

const key = (id: string, updatedAt: string): string => `${id}@${updatedAt}`;

function forgetOld(now: number): void {
  for (const [k, until] of seen) if (until < now) seen.delete(k);
}

export const ownChanges = {
  /** An item this page changed; `updatedAt` null for a delete (any echo of the item is then ours). */
  note(id: string, updatedAt: string | null): void {
    const now = Date.now();
    forgetOld(now);
    seen.set(key(id, updatedAt ?? '*'), now + KEPT_MS);
  },
  /** Whether a change of the stream (its data: `{ item: { id, updated_at } }`) is one of ours. */
  mine(data: unknown): boolean {
    forgetOld(Date.now());
    const item = typeof data === 'object' && data !== null ? (data as { item?: { id?: unknown; updated_at?: unknown } }).item : undefined;
    if (!item || typeof item.id !== 'string') return false;
    return seen.has(key(item.id, '*')) || (typeof item.updated_at === 'string' && seen.has(key(item.id, item.updated_at)));
  },
};
