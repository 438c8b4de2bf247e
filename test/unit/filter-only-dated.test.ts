import { describe, expect, it } from 'vitest';
import { lowerFilter } from '../../src/modules/filters/filter-shape.js';
import { parseFilter } from '../../src/modules/filters/language/parse.js';
import { resolveFilter } from '../../src/modules/filters/language/resolve.js';

/*
 * Which filters can match only dated items (decision 0100): for those the compiler adds `due_at is
 * not null` at the top level so SQLite may walk items_open_due_idx, which holds dated open items
 * only. A filter said "dated" that can match an undated item would lose that item from its answers.
 */
function dated(query: string): boolean {
  const parsed = parseFilter(query);
  if (!parsed.ok) throw new Error(parsed.error.message);
  const resolved = resolveFilter(parsed.filter, { now: new Date('2026-11-26T10:00:00.000Z'), timezone: 'Europe/Paris', readDate: () => null });
  if (!resolved.ok) throw new Error(resolved.error.message);
  const lowered = lowerFilter(resolved.plan, { dialect: 'sqlite', userId: 'u', projectIdsOf: () => ['p'] }, { order: 'due', after: undefined, limit: 50 });
  return lowered.shape.dated;
}

describe('a filter that matches only dated items', () => {
  it('is a date range, overdue, an OR of them, or an AND holding one', () => {
    for (const query of ['today', 'overdue', 'today | overdue', '7 days & !@waiting', '#Work & (tomorrow | overdue)', 'search: call & next 7 days', '(today | yesterday) & all']) {
      expect(dated(query), query).toBe(true);
    }
  });

  it('is not one that an undated item can meet: no date, a NOT, an OR with another term, other terms alone', () => {
    for (const query of ['no date', '!today', '!no date', 'today | no date', 'today | @calls', '@calls', '#Work & @calls', 'search: call', 'recurring', 'all']) {
      expect(dated(query), query).toBe(false);
    }
  });

});
