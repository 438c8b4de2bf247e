import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '../../src/lib/ids.js';
import { DIALECTS } from '../helpers/dialects.js';
import { actor, ok, type Actor } from '../helpers/items.js';
import { allSearchPages } from '../helpers/search.js';
import { newestFirst, seedItems, type SeedItem, type SeededItem } from '../helpers/seed-items.js';
import { createTestApp, type JsonBody, type TestApp } from '../helpers/test-app.js';

/*
 * Correctness at size (not timed): paging through more than a thousand matches of a search gives
 * every match exactly once, in order, with the filters applied, on every dialect. Items are inserted
 * out of created_at order, and many share a millisecond, so neither insertion order nor a page end
 * inside a group of equal timestamps can disturb the result.
 */

const WORDS = ['alpha', 'alphabet', 'beta', 'gamma', 'delta', 'Ümlaut', 'café', 'Report'];
const STATUSES = ['todo', 'doing', 'backlog', 'done', 'archived'] as const;
const BASE = Date.parse('2026-01-01T00:00:00.000Z');
const WORD = /[\p{L}\p{M}\p{Nd}]+/gu;

/** A deterministic pseudo-random sequence, so a failure can be replayed. */
function prng(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1103515245 + 12345) % 2147483648;
    return state / 2147483648;
  };
}

function shuffle<T>(list: T[], random: () => number): void {
  for (let i = list.length - 1; i > 0; i -= 1) {
    const j = Math.floor(random() * (i + 1));
    [list[i], list[j]] = [list[j]!, list[i]!];
  }
}

function specs(count: number, projectId: string, seed: number): SeedItem[] {
  const random = prng(seed);
  const pick = () => WORDS[Math.floor(random() * WORDS.length)]!;
  const out: SeedItem[] = [];
  for (let i = 0; i < count; i += 1) {
    const status = STATUSES[i % STATUSES.length]!;
    const hasAlpha = i % 10 !== 0;
    out.push({
      title: `${hasAlpha ? (i % 2 === 0 ? 'Alpha' : 'alphabet') : 'omega'} ${pick()} #${i}`,
      content_md: i % 3 === 0 ? null : `${pick()} ${pick()} notes`,
      type: i % 7 === 0 ? 'note' : 'todo',
      status,
      is_completed: status === 'done' || (status === 'archived' && i % 2 === 0),
      project_id: projectId,
      due_at: i % 4 === 0 ? null : new Date(BASE + (i % 50) * 86_400_000).toISOString(),
      // Groups of four items share a millisecond, so page ends fall inside groups.
      created_at: new Date(BASE + Math.floor(i / 4) * 1000).toISOString(),
      tags: i % 3 === 1 ? ['Work'] : i % 5 === 0 ? ['home', 'work'] : [],
    });
  }
  // Insert in shuffled order, with ids unrelated to it: neither insertion order nor id order may
  // stand in for created_at, and ties within a millisecond must still come out by id.
  const ids = out.map(() => newId());
  shuffle(out, random);
  shuffle(ids, random);
  return out.map((spec, i) => ({ ...spec, id: ids[i]! }));
}

/** The reference rule: every q word starts some word of title or content_md, case-insensitively. */
function matches(item: SeedItem, q: string): boolean {
  const words = `${item.title} ${item.content_md ?? ''}`.toLowerCase().match(WORD) ?? [];
  return (q.toLowerCase().match(WORD) ?? []).every((w) => words.some((word) => word.startsWith(w)));
}

describe.each(DIALECTS)('GET /api/v1/items/search at size (%s)', (dialect) => {
  let t: TestApp;
  let a: Actor;
  let items: SeededItem[];

  beforeAll(async () => {
    t = await createTestApp(dialect);
    a = await actor(t);
    items = await seedItems(t, a.user.id, specs(1400, a.user.inboxId, 7));
    const b = await actor(t);
    await seedItems(t, b.user.id, specs(300, b.user.inboxId, 11));
  }, 120_000);
  afterAll(async () => t?.close());

  const expected = (filter: (item: SeededItem) => boolean): string[] =>
    items
      .filter(filter)
      .sort(newestFirst)
      .map((i) => i.id);

  it('pages through 1,000+ matches of one word exactly once, newest first', async () => {
    const want = expected((i) => matches(i, 'alpha'));
    expect(want.length).toBeGreaterThan(1000);
    expect((await allSearchPages(a.c, 'q=alpha', 50)).ids).toEqual(want);
  });

  it('clamps limit above 200 to 200 and defaults to 50', async () => {
    const want = expected((i) => matches(i, 'alp'));
    const clamped = ok(await a.c.get('items/search?q=ALP&limit=1000'));
    expect(clamped.items.map((i: JsonBody) => i.id)).toEqual(want.slice(0, 200));
    expect(clamped.next_cursor).toEqual(expect.any(String));
    expect(ok(await a.c.get('items/search?q=alp')).items.map((i: JsonBody) => i.id)).toEqual(want.slice(0, 50));
    expect((await allSearchPages(a.c, 'q=ALP', 200)).ids).toEqual(want);
  });

  it.each([
    ['q=alpha&status=todo&tag=work', 37, (i: SeededItem) => matches(i, 'alpha') && i.status === 'todo' && i.tags.some((t) => t.toLowerCase() === 'work')],
    ['q=alp%20caf', 61, (i: SeededItem) => matches(i, 'alp caf')],
    ['q=%C3%BCml%20report&is_completed=false', 23, (i: SeededItem) => matches(i, 'üml report') && !i.is_completed],
    [
      'q=alphabet&type=todo&due_after=2026-01-10T00:00:00Z&due_before=2026-02-10T00:00:00Z',
      29,
      (i: SeededItem) =>
        matches(i, 'alphabet') && i.type === 'todo' && i.due_at !== null && i.due_at >= '2026-01-10T00:00:00.000Z' && i.due_at <= '2026-02-10T00:00:00.000Z',
    ],
    ['status=archived&is_completed=true', 17, (i: SeededItem) => i.status === 'archived' && i.is_completed],
    ['tag=HOME', 43, (i: SeededItem) => i.tags.includes('home')],
  ])('pages %s (limit %i) with every filter applied', async (query, limit, filter) => {
    const want = expected(filter);
    expect(want.length).toBeGreaterThan(limit);
    expect((await allSearchPages(a.c, query, limit)).ids).toEqual(want);
  });
});
