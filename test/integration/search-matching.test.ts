import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../helpers/dialects.js';
import { actor, capture, expectError, ok, type Actor } from '../helpers/items.js';
import { createTestApp, type JsonBody, type TestApp } from '../helpers/test-app.js';

/** What `q` matches: every word of q must match the start of a word of title or content_md. */

const TEXTS = [
  'Buy Milk\n2% from the corner shop',
  'Café au lait\nwith Über-friendly crème brûlée',
  'Read docs.python.org\nmail bob@corp.com about foo_bar and well-known issues',
  'Orange juice OR tea\nnear the door',
  '東京タワー visit\nनमस्ते दुनिया',
  'Invoice 2026-11\nv2 draft',
  'Milkshake recipe',
  'Ölwechsel ÉCOLE',
] as const;

describe.each(DIALECTS)('GET /api/v1/items/search matching q (%s)', (dialect) => {
  let t: TestApp;
  let a: Actor;
  /** Item ids by TEXTS index. */
  let ids: string[];

  beforeAll(async () => {
    t = await createTestApp(dialect);
    a = await actor(t);
    ids = [];
    for (const text of TEXTS) {
      t.clock.advance(1000);
      ids.push((await capture(a.c, text)).id);
    }
    // Someone else's milk must never show up.
    const other = await actor(t);
    await capture(other.c, 'Milk for the neighbours');
  });
  afterAll(async () => t?.close());

  /** The TEXTS indexes q finds, newest first. */
  async function found(q: string): Promise<number[]> {
    const body = ok(await a.c.get(`items/search?q=${encodeURIComponent(q)}`));
    expect(body.next_cursor).toBeNull();
    return body.items.map((item: JsonBody) => ids.indexOf(item.id));
  }

  it('answers { items, next_cursor } with full items', async () => {
    const body = ok(await a.c.get('items/search?q=corner'));
    expect(Object.keys(body).sort()).toEqual(['items', 'next_cursor']);
    expect(body.items).toEqual([ok(await a.c.get(`items/${ids[0]}`))]);
  });

  it.each([
    ['mil', [6, 0]],
    ['Milk', [6, 0]],
    ['MILK', [6, 0]],
    ['milks', [6]],
    ['corner', [0]],
    ['recipe', [6]],
  ])('matches the start of a word, case-insensitively: %s', async (q, expected) => {
    expect(await found(q)).toEqual(expected);
  });

  it.each(['ilk', 'lk', 'shake', 'ipe'])('does not match inside a word: %s', async (q) => {
    expect(await found(q)).toEqual([]);
  });

  it('requires every word, each in title or content_md', async () => {
    expect(await found('buy corner')).toEqual([0]);
    expect(await found('corner buy')).toEqual([0]);
    expect(await found('buy juice')).toEqual([]);
    expect(await found('milk milk MILK')).toEqual([6, 0]);
  });

  it.each([
    ['caf', [1]],
    ['café', [1]],
    ['CAFÉ', [1]],
    ['über', [1]],
    ['ÜBER', [1]],
    ['brû', [1]],
    ['crème', [1]],
    ['ölw', [7]],
    ['école', [7]],
    ['Éco', [7]],
  ])('matches non-ASCII letters by prefix and case: %s', async (q, expected) => {
    expect(await found(q)).toEqual(expected);
  });

  it('keeps diacritics significant: cafe does not find café', async () => {
    expect(await found('cafe')).toEqual([]);
    expect(await found('uber')).toEqual([]);
  });

  it('finds a word typed in decomposed form (NFD) as its composed one', async () => {
    expect(await found('cafe\u0301')).toEqual([1]);
  });

  it.each([
    ['東京', [4]],
    ['नमस', [4]],
    ['दुनिया', [4]],
  ])('matches words of other scripts: %s', async (q, expected) => {
    expect(await found(q)).toEqual(expected);
  });

  it.each([
    ['python', [2]],
    ['corp', [2]],
    ['com', [2]],
    ['bar', [2]],
    ['known', [2]],
    ['friendly', [1]],
    ['2026', [5]],
    ['11', [5]],
    ['v2', [5]],
  ])('splits words at punctuation (hosts, addresses, hyphens, underscores): %s', async (q, expected) => {
    expect(await found(q)).toEqual(expected);
  });

  it.each([
    ['"milk"', [6, 0]],
    ['milk*', [6, 0]],
    ['-milk', [6, 0]],
    ['+milk', [6, 0]],
    ['!milk', [6, 0]],
    ['(milk)', [6, 0]],
    ['milk:*', [6, 0]],
    ["'milk'", [6, 0]],
    ['^milk', [6, 0]],
    ['\\milk', [6, 0]],
    ['{title}: milk', []],
    ['title:milk', []],
    ['milk OR tea', []],
    ['orange OR', [3]],
    ['" OR "', [3, 2]],
    ['juice AND tea', []],
    ['NOT juice', []],
    ['NEAR(juice door)', [3]],
    ['juice & tea', [3]],
    ['juice | tea', [3]],
    ['juice <-> tea', [3]],
    ['"juice tea"', [3]],
    ['"unbalanced', []],
    ['juice"', [3]],
    ['juice)', [3]],
    ['ju*ce', []],
  ])('treats operators and quotes as plain text: %s', async (q, expected) => {
    expect(await found(q)).toEqual(expected);
  });

  it.each(['', ' ', '"', '*', '-', ':', '&', '|', '!', '()', '""', '*:*', '…—–'])('adds no condition for a q without letters or digits: %j', async (q) => {
    expect(await found(q)).toEqual([7, 6, 5, 4, 3, 2, 1, 0]);
  });

  it('answers 400 for a q over 500 characters', async () => {
    expect(await found('milk '.repeat(100))).toEqual([6, 0]);
    expectError(await a.c.get(`items/search?q=${'m'.repeat(501)}`), 400, 'bad_request');
  });

  it('follows changes: a new title is found, the old one no longer, a deleted item never', async () => {
    const b = await actor(t);
    const item = await capture(b.c, 'Quarterly planning\nagenda for Monday');
    const search = async (q: string) => ok(await b.c.get(`items/search?q=${q}`)).items.map((i: JsonBody) => i.id);
    expect(await search('quarter')).toEqual([item.id]);
    ok(await b.c.patch(`items/${item.id}`, { title: 'Yearly review' }));
    expect(await search('quarter')).toEqual([]);
    expect(await search('yearly')).toEqual([item.id]);
    expect(await search('monday')).toEqual([item.id]);
    ok(await b.c.patch(`items/${item.id}`, { content_md: null }));
    expect(await search('monday')).toEqual([]);
    ok(await b.c.post(`items/${item.id}/archive`));
    expect(await search('yearly')).toEqual([item.id]);
    expect((await b.c.delete(`items/${item.id}`)).status).toBe(204);
    expect(await search('yearly')).toEqual([]);
  });
});
