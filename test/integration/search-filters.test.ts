import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../helpers/dialects.js';
import { actor, capture, expectError, ok, UNKNOWN_ID, type Actor } from '../helpers/items.js';
import { allSearchPages } from '../helpers/search.js';
import { createTestApp, type JsonBody, type TestApp } from '../helpers/test-app.js';

type Key = 'A' | 'B' | 'C' | 'D' | 'E' | 'F';

describe.each(DIALECTS)('GET /api/v1/items/search filters and paging (%s)', (dialect) => {
  let t: TestApp;
  let a: Actor;
  let id: Record<Key, string>;
  let p1: string;
  let p2: string;
  let foreignProject: string;

  beforeAll(async () => {
    t = await createTestApp(dialect);
    a = await actor(t);
    p1 = ok(await a.c.post('projects', { name: 'P1' })).id;
    p2 = ok(await a.c.post('projects', { name: 'P2' })).id;
    const other = await actor(t);
    foreignProject = ok(await other.c.post('projects', { name: 'P1' })).id;
    await capture(other.c, 'Alpha report of someone else', { project_id: foreignProject });

    // Created in this order, one second apart: newest first is F E D C B A.
    const specs: Array<[Key, string, Record<string, unknown>, Record<string, unknown>, string[]]> = [
      ['A', 'Alpha report', { project_id: p1, due_at: '2026-12-01T09:00:00Z' }, { tags: ['Work'] }, []],
      ['B', 'Alpha notes', { type: 'note' }, { tags: ['work', 'Home'] }, []],
      ['C', 'Beta report', { project_id: p1, due_at: '2026-12-05T09:00:00Z' }, { tags: ['Home'] }, ['toggle']],
      ['D', 'Alpha archive', { project_id: p2, due_at: '2026-12-10T00:00:00Z' }, {}, ['archive']],
      ['E', 'Gamma', { project_id: p2, due_at: '2026-11-30T23:59:59.999Z' }, { tags: ['Work'], status: 'doing' }, []],
      ['F', 'Alpha done archived', { project_id: p2, due_at: '2026-12-05T09:00:00+02:00' }, {}, ['toggle', 'archive']],
    ];
    id = {} as Record<Key, string>;
    for (const [key, text, captureFields, patch, actions] of specs) {
      t.clock.advance(1000);
      const item = await capture(a.c, text, captureFields);
      if (Object.keys(patch).length > 0) ok(await a.c.patch(`items/${item.id}`, patch));
      for (const action of actions) ok(await a.c.post(`items/${item.id}/${action}`));
      id[key] = item.id;
    }
  });
  afterAll(async () => t?.close());

  /** The keys a search answers, newest first. */
  async function keys(query: string): Promise<string[]> {
    const body = ok(await a.c.get(`items/search?${query}`));
    const byId = Object.fromEntries(Object.entries(id).map(([k, v]) => [v, k]));
    return body.items.map((item: JsonBody) => byId[item.id] ?? `unknown ${item.id}`);
  }

  it('includes archived and completed items unless narrowed', async () => {
    expect(await keys('')).toEqual(['F', 'E', 'D', 'C', 'B', 'A']);
  });

  it.each([
    ['todo', ['A']],
    ['backlog', ['B']],
    ['doing', ['E']],
    ['done', ['C']],
    ['archived', ['F', 'D']],
  ])('status=%s', async (status, expected) => {
    expect(await keys(`status=${status}`)).toEqual(expected);
  });

  it.each(['DONE', 'finished', ''])('answers 400 for status=%j', async (status) => {
    expectError(await a.c.get(`items/search?status=${status}`), 400, 'bad_request');
  });

  it('type filters notes and todos; an unknown type is 400', async () => {
    expect(await keys('type=note')).toEqual(['B']);
    expect(await keys('type=todo')).toEqual(['F', 'E', 'D', 'C', 'A']);
    expectError(await a.c.get('items/search?type=task'), 400, 'bad_request');
  });

  it('tag matches the name case-insensitively; an unknown tag matches nothing', async () => {
    expect(await keys('tag=work')).toEqual(['E', 'B', 'A']);
    expect(await keys('tag=WORK')).toEqual(['E', 'B', 'A']);
    expect(await keys(`tag=${encodeURIComponent(' Home ')}`)).toEqual(['C', 'B']);
    expect(await keys('tag=nope')).toEqual([]);
    expectError(await a.c.get('items/search?tag='), 400, 'bad_request');
    expectError(await a.c.get('items/search?tag=%20%20'), 400, 'bad_request');
  });

  it('project_id narrows to a project; unknown or foreign projects match nothing; malformed is 400', async () => {
    expect(await keys(`project_id=${p1}`)).toEqual(['C', 'A']);
    expect(await keys(`project_id=${p2}`)).toEqual(['F', 'E', 'D']);
    expect(await keys(`project_id=${a.user.inboxId}`)).toEqual(['B']);
    expect(await keys(`project_id=${UNKNOWN_ID}`)).toEqual([]);
    expect(await keys(`project_id=${foreignProject}`)).toEqual([]);
    expectError(await a.c.get('items/search?project_id=inbox'), 400, 'bad_request');
  });

  it('is_completed accepts true and false only', async () => {
    expect(await keys('is_completed=true')).toEqual(['F', 'C']);
    expect(await keys('is_completed=false')).toEqual(['E', 'D', 'B', 'A']);
    for (const value of ['yes', '1', '']) expectError(await a.c.get(`items/search?is_completed=${value}`), 400, 'bad_request');
  });

  it('due bounds are inclusive and never match items without a due date', async () => {
    expect(await keys('due_after=2026-12-05T07:00:00Z')).toEqual(['F', 'D', 'C']);
    expect(await keys('due_before=2026-12-01T09:00:00Z')).toEqual(['E', 'A']);
    expect(await keys('due_after=2026-12-01T09:00:00Z&due_before=2026-12-05T07:00:00.000Z')).toEqual(['F', 'A']);
    expect(await keys(`due_before=${encodeURIComponent('2026-12-01T10:00:00+01:00')}`)).toEqual(['E', 'A']);
    expect(await keys('due_after=2000-01-01T00:00:00Z')).toEqual(['F', 'E', 'D', 'C', 'A']);
    expect(await keys('due_after=2026-12-11T00:00:00Z&due_before=2026-12-01T00:00:00Z')).toEqual([]);
  });

  it.each(['2026-12-01', '2026-12-01T09:00:00', 'tomorrow'])('answers 400 for due_before=%s and due_after=%s', async (value) => {
    expectError(await a.c.get(`items/search?due_before=${value}`), 400, 'bad_request');
    expectError(await a.c.get(`items/search?due_after=${value}`), 400, 'bad_request');
  });

  it.each([
    ['q=alpha', ['F', 'D', 'B', 'A']],
    ['q=alpha&status=archived', ['F', 'D']],
    ['q=alpha&tag=work', ['B', 'A']],
    ['q=alpha&is_completed=false&type=todo', ['D', 'A']],
    ['q=report&due_after=2026-12-02T00:00:00Z', ['C']],
    ['q=alpha&status=archived&is_completed=true', ['F']],
    ['q=report&tag=home&project_id=P1', ['C']],
    ['q=alpha report&status=todo&type=todo&tag=WORK&project_id=P1&is_completed=false&due_after=2026-12-01T00:00:00Z&due_before=2026-12-01T23:59:59Z', ['A']],
    ['q=alpha&type=note&status=todo', []],
  ])('combines filters with AND: %s', async (query, expected) => {
    expect(await keys(query.replace('P1', p1).replaceAll(' ', '%20'))).toEqual(expected);
  });

  describe('paging', () => {
    it('pages through every match exactly once, newest first, never an empty page', async () => {
      const b = await actor(t);
      const matching: string[] = [];
      for (let i = 0; i < 30; i += 1) {
        t.clock.advance(7);
        matching.push((await capture(b.c, `match ${i}`)).id);
        if (i % 3 === 0) await capture(b.c, `other ${i}`);
      }
      const { pages, ids } = await allSearchPages(b.c, 'q=match', 7);
      expect(pages.map((p) => p.length)).toEqual([7, 7, 7, 7, 2]);
      expect(ids).toEqual([...matching].reverse());
      expect((await allSearchPages(b.c, 'q=match', 10)).pages.map((p) => p.length)).toEqual([10, 10, 10]);
    });

    it('orders items that share created_at by id, across page boundaries', async () => {
      const b = await actor(t);
      const rows: Array<{ id: string; created_at: string }> = [];
      for (let i = 0; i < 40; i += 1) {
        // Groups of 1, 2, 3 … items share a millisecond, so page ends fall inside groups.
        if ([0, 1, 3, 6, 10, 15, 21, 28, 36].includes(i)) t.clock.advance(1);
        rows.push(await capture(b.c, `tie ${i}`));
      }
      const expected = [...rows]
        .sort((x, y) => (x.created_at === y.created_at ? (x.id < y.id ? 1 : -1) : x.created_at < y.created_at ? 1 : -1))
        .map((r) => r.id);
      for (const limit of [1, 2, 3, 4, 5, 7, 40]) {
        expect((await allSearchPages(b.c, 'q=tie', limit)).ids, `limit ${limit}`).toEqual(expected);
        expect((await allSearchPages(b.c, 'type=todo', limit)).ids, `limit ${limit} without q`).toEqual(expected);
      }
    });

    it('pages filter-only searches', async () => {
      expect((await allSearchPages(a.c, 'is_completed=false', 1)).ids).toEqual([id.E, id.D, id.B, id.A]);
      expect((await allSearchPages(a.c, 'q=alpha&status=archived', 1)).ids).toEqual([id.F, id.D]);
    });

    it('answers 400 for a cursor of another search, of GET /items, or garbage', async () => {
      const first = ok(await a.c.get('items/search?q=alpha&limit=1'));
      expect(first.next_cursor).toEqual(expect.any(String));
      ok(await a.c.get(`items/search?q=alpha&limit=1&cursor=${first.next_cursor}`));
      ok(await a.c.get(`items/search?q=alpha&limit=3&cursor=${first.next_cursor}`));
      for (const query of ['q=beta', 'q=alpha&status=todo', 'q=alpha&tag=work', '', 'q=alpha%20alpha%20report']) {
        expectError(await a.c.get(`items/search?${query}&cursor=${first.next_cursor}`), 400, 'bad_request');
      }
      const list = ok(await a.c.get('items?limit=1'));
      expectError(await a.c.get(`items/search?cursor=${list.next_cursor}`), 400, 'bad_request');
      expectError(await a.c.get(`items?cursor=${first.next_cursor}`), 400, 'bad_request');
      for (const cursor of ['abc', 'not a cursor!', Buffer.from('["search:x","2026-11-21T10:00:00.000Z","nope"]').toString('base64url')]) {
        expectError(await a.c.get(`items/search?cursor=${encodeURIComponent(cursor)}`), 400, 'bad_request');
      }
    });

    it.each(['0', '-1', '1.5', 'abc'])('answers 400 for limit=%s', async (limit) => {
      expectError(await a.c.get(`items/search?q=alpha&limit=${limit}`), 400, 'bad_request');
    });
  });
});
