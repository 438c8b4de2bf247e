import { describe, expect, it } from 'vitest';
import { ifMatchHolds, ifNoneMatchMatches, itemEtag } from '../../src/modules/items/item-etag.js';
import type { ItemView } from '../../src/modules/items/item-view.js';

const item: ItemView = {
  id: '0190f5e2-7c3a-7b1d-9e2f-123456789abc',
  project_id: '0190f5e2-7c3a-7b1d-9e2f-123456789abd',
  type: 'todo',
  title: 'buy milk',
  content_md: null,
  recurrence: null,
  remind_at: null,
  all_day: false,
  attachments: [],
  is_completed: false,
  status: 'todo',
  due_at: null,
  parent_id: null,
  tags: ['shop'],
  archived_at: null,
  created_at: '2026-11-21T10:00:00.000Z',
  updated_at: '2026-11-21T10:00:00.000Z',
};
const etag = itemEtag(item);
const opaque = etag.slice(1, -1);

describe('itemEtag', () => {
  it('is a quoted strong tag that changes with any field, tags included, and only then', () => {
    expect(etag).toMatch(/^"[A-Za-z0-9_-]{43}"$/);
    expect(itemEtag({ ...item })).toBe(etag);
    expect(itemEtag({ ...item, tags: ['shop', 'dairy'] })).not.toBe(etag);
    expect(itemEtag({ ...item, is_completed: true })).not.toBe(etag);
    expect(itemEtag({ ...item, updated_at: '2026-11-21T10:00:00.001Z' })).not.toBe(etag);
    // Fields a capture answer adds (ai) do not take part.
    expect(itemEtag({ ...item, ai: null } as ItemView)).toBe(etag);
  });
});

describe('If-Match (strong comparison)', () => {
  const cases: [string, boolean][] = [
    [etag, true],
    ['*', true],
    [` ${etag} `, true],
    [`"other", ${etag}`, true],
    [`"other",${etag}`, true],
    [`W/${etag}`, false],
    ['"other"', false],
    [opaque, false], // not quoted: not an entity tag, so nothing matches
    ['', false],
    [`${etag} "other"`, false], // no comma: not a list
    [`"a"b", ${etag}`, false],
    ['*, "x"', false],
  ];
  it.each(cases)('%s → %s', (header, holds) => {
    expect(ifMatchHolds(header, etag)).toBe(holds);
  });
});

describe('If-None-Match (weak comparison)', () => {
  const cases: [string, boolean][] = [
    [etag, true],
    [`W/${etag}`, true],
    ['*', true],
    [`"x", W/${etag}`, true],
    ['"x"', false],
    [opaque, false],
  ];
  it.each(cases)('%s → %s', (header, matches) => {
    expect(ifNoneMatchMatches(header, etag)).toBe(matches);
  });
});
