import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../helpers/dialects.js';
import { client, createTestApp, createUser, type Client, type JsonBody, type TestApp } from '../helpers/test-app.js';
import { capture, ok } from '../helpers/items.js';

/*
 * GET /api/v1/items?filter= (contract "Filters and saved views"): what each term picks, the order
 * and paging, the open-items default, and every bad input of issue 48 a 400 with its position.
 * The clock stands at Saturday 2026-11-21 10:00 UTC; the user's zone is UTC unless a test says.
 */
const NOW = '2026-11-21T10:00:00.000Z';

describe.each(DIALECTS)('GET /items?filter= (%s)', (dialect) => {
  let t: TestApp;
  let c: Client;
  const ids: Record<string, string> = {};

  const titles = (body: JsonBody): string[] => body.items.map((i: JsonBody) => i.title);
  const pick = async (filter: string, extra = ''): Promise<JsonBody> => ok(await c.get(`items?filter=${encodeURIComponent(filter)}${extra}`));
  const picked = async (filter: string): Promise<string[]> => titles(await pick(filter));
  const fails = async (filter: string): Promise<JsonBody> => {
    const res = await c.get(`items?filter=${encodeURIComponent(filter)}`);
    expect(res.status, res.text).toBe(400);
    expect(res.body.error).toBe('bad_request');
    expect(res.body.details).toHaveLength(1);
    expect(res.body.details[0].field).toBe('filter');
    return res.body.details[0];
  };

  async function item(title: string, fields: Record<string, unknown> = {}, state?: 'toggle' | 'archive'): Promise<void> {
    t.clock.advance(1000);
    const made = await capture(c, title, { parse: false });
    if (Object.keys(fields).length > 0) ok(await c.patch(`items/${made.id}`, fields));
    if (state) ok(await c.post(`items/${made.id}/${state}`));
    ids[title] = made.id;
  }

  beforeAll(async () => {
    t = await createTestApp(dialect);
    t.clock.set('2026-11-01T00:00:00.000Z');
    const user = await createUser(t);
    c = client(t.app, user.token);
    const work = ok(await c.post('projects', { name: 'Work' }));
    const side = ok(await c.post('projects', { name: 'Side project' }));
    const odd = ok(await c.post('projects', { name: "50%_off o'clock \\" }));
    await item('call bob', { due_at: '2026-11-21T15:00:00.000Z', project_id: work.id, tags: ['calls'] });
    await item('pay rent', { due_at: '2026-11-20T09:00:00.000Z', remind_at: '2026-11-20T08:00:00.000Z' });
    await item('idea', { type: 'note' });
    await item('ship release', { due_at: '2026-11-24T12:00:00.000Z', project_id: work.id, tags: ['calls', 'home'] });
    await item('done today', { due_at: '2026-11-21T12:00:00.000Z' }, 'toggle');
    await item('old archived', { project_id: side.id }, 'archive');
    await item('sub of bob', { parent_id: undefined });
    ok(await c.patch(`items/${ids['sub of bob']}`, { parent_id: ids['call bob'] }));
    await item('weekly review', { due_at: '2026-11-27T17:00:00.000Z', recurrence: { rule: 'FREQ=WEEKLY', from: 'due' } });
    await item('far away', { due_at: '2026-12-25T10:00:00.000Z', tags: ['homework'] });
    await item('percent 50%_off', { project_id: odd.id, tags: ["o'clock_%\\"] });
    await item('milk and honey');
    t.clock.set(NOW);
  });
  afterAll(async () => {
    await t?.close();
  });

  it('picks by day words, in due order with overdue first, and only open items by default', async () => {
    expect(await picked('today')).toEqual(['call bob']);
    expect(await picked('today | overdue')).toEqual(['pay rent', 'call bob']);
    expect(await picked('overdue')).toEqual(['pay rent']);
    expect(await picked('yesterday')).toEqual(['pay rent']);
    expect(await picked('TOMORROW')).toEqual([]);
    // 7 days is today and the six days after; overdue is not in it.
    expect(await picked('7 days')).toEqual(['call bob', 'ship release', 'weekly review']);
    expect(await picked('next 3 days')).toEqual(['call bob']);
  });

  it("reads due: D, due before: D and due after: D as days or instants in the user's zone", async () => {
    expect(await picked('due: 2026-11-24')).toEqual(['ship release']);
    expect(await picked('due before: today')).toEqual(['pay rent']);
    expect(await picked('due after: 2026-12-01')).toEqual(['far away']);
    expect(await picked('due before: today 4pm & due after: today 2pm')).toEqual(['call bob']);
    // In Tokyo (UTC+9) 15:00 UTC on the 21st is the 22nd, local.
    ok(await c.patch('me', { timezone: 'Asia/Tokyo' }));
    try {
      expect(await picked('today')).toEqual([]);
      expect(await picked('tomorrow')).toEqual(['call bob']);
    } finally {
      ok(await c.patch('me', { timezone: 'UTC' }));
    }
  });

  it("takes an all-day item as overdue only once its day has ended in the user's zone", async () => {
    const own = client(t.app, (await createUser(t)).token);
    ok(await own.patch('me', { timezone: 'America/New_York' }));
    // 10:00 UTC is 05:00 in New York: the local day is the 21st, which began at 05:00 UTC.
    const made = async (title: string, fields: Record<string, unknown>) =>
      ok(await own.patch(`items/${(await capture(own, title, { parse: false })).id}`, fields));
    await made('day before', { due_at: '2026-11-20T05:00:00.000Z', all_day: true });
    await made('this day', { due_at: '2026-11-21T05:00:00.000Z', all_day: true });
    await made('timed an hour ago', { due_at: '2026-11-21T09:00:00.000Z' });
    const local = async (filter: string) => titles(ok(await own.get(`items?filter=${encodeURIComponent(filter)}`)));
    expect(await local('overdue')).toEqual(['day before', 'timed an hour ago']);
    expect(await local('today')).toEqual(['this day', 'timed an hour ago']);
    expect(await local('yesterday')).toEqual(['day before']);
  });

  it('picks no date, recurring, no reminder, types and subtasks', async () => {
    expect(await picked('no date & notes')).toEqual(['idea']);
    expect(await picked('recurring')).toEqual(['weekly review']);
    expect(await picked('!no reminder & due before: today')).toEqual(['pay rent']);
    expect(await picked('subtasks')).toEqual(['sub of bob']);
    expect((await picked('todos')).includes('idea')).toBe(false);
  });

  it('picks by project and tag, with wildcards, Inbox and no tags', async () => {
    expect(await picked('#Work')).toEqual(['call bob', 'ship release']);
    expect(await picked('#work & @calls')).toEqual(['call bob', 'ship release']);
    expect(await picked('#sideproject & all')).toEqual(['old archived']);
    expect(await picked('#"Side project" & archived')).toEqual(['old archived']);
    expect(await picked('@home')).toEqual(['ship release']);
    expect(await picked('@home*')).toEqual(['ship release', 'far away']);
    expect(await picked('#Wo*')).toEqual(['call bob', 'ship release']);
    expect((await picked('inbox')).sort()).toEqual(['far away', 'idea', 'milk and honey', 'pay rent', 'sub of bob', 'weekly review']);
    expect(await picked('#Inbox & no date & !notes')).toEqual(['sub of bob', 'milk and honey'].reverse());
    expect(await picked('@unknown')).toEqual([]);
    expect(await picked('no tags & #Work')).toEqual([]);
    expect(await picked('@* & !@calls')).toEqual(['far away', 'percent 50%_off']);
  });

  it('takes SQL and LIKE metacharacters in names literally', async () => {
    expect(await picked(`#"50%_off o'clock \\"`)).toEqual(['percent 50%_off']);
    expect(await picked(`@"o'clock_%\\"`)).toEqual(['percent 50%_off']);
    expect(await picked(`@o'clock_%*`)).toEqual(['percent 50%_off']);
    // `_` and `%` are not wildcards: "o'clockX" would match o'clock_ as a LIKE pattern.
    expect(await picked(`@o'clock_x*`)).toEqual([]);
    expect(await picked('@%*')).toEqual([]);
    expect(await picked('@_*')).toEqual([]);
    expect(await picked(`search: 50%_off`)).toEqual(['percent 50%_off']);
    expect(await picked(`search: ' or 1=1 --`)).toEqual([]);
  });

  it('searches words as q does: prefixes of words in title and notes', async () => {
    expect(await picked('search: mil')).toEqual(['milk and honey']);
    expect(await picked('search: honey milk')).toEqual(['milk and honey']);
    expect(await picked('search: ilk')).toEqual([]);
    expect(await picked('search: rent | search: ship')).toEqual(['pay rent', 'ship release']);
  });

  it('applies the state words: done, archived, all, and !done takes archived items too', async () => {
    expect(await picked('done')).toEqual(['done today']);
    expect(await picked('archived')).toEqual(['old archived']);
    expect(await picked('today & all')).toEqual(['done today', 'call bob']);
    expect(await picked('!done & #sideproject')).toEqual(['old archived']);
  });

  it('picks the items without a due date under ! of a date term', async () => {
    const notToday = await picked('!today & !subtasks & inbox');
    expect(notToday).toContain('idea');
    expect(notToday).not.toContain('call bob');
  });

  it('picks undated items after dated ones when a term can match them, as an OR of a date term and another', async () => {
    expect(await picked('today | no date & inbox')).toEqual(['call bob', 'milk and honey', 'sub of bob', 'idea']);
    expect(await picked('overdue | !recurring & !#Work & !no date')).toEqual(['pay rent', 'far away']);
    expect(await picked('@calls | !today & inbox')).toEqual([
      'pay rent',
      'call bob',
      'ship release',
      'weekly review',
      'far away',
      'milk and honey',
      'sub of bob',
      'idea',
    ]);
  });

  it('binds & tighter than |, and reads parentheses and any number of !', async () => {
    expect(await picked('today | overdue & #Work')).toEqual(['call bob']);
    expect(await picked('(today | overdue) & #Work')).toEqual(['call bob']);
    expect(await picked('!!!!today')).toEqual(['call bob']);
    expect(await picked('!!!today & #Work')).toEqual(['ship release']);
  });

  it('pages by due date (none last), then newest first, with next_cursor', async () => {
    const all = await picked('all');
    const seen: string[] = [];
    let cursor: string | null = null;
    for (let page = 0; page < 20; page += 1) {
      const body: JsonBody = await pick('all', `&limit=3${cursor ? `&cursor=${cursor}` : ''}`);
      expect(body.items.length).toBeLessThanOrEqual(3);
      seen.push(...titles(body));
      cursor = body.next_cursor;
      if (!cursor) break;
    }
    expect(seen).toEqual(all);
    expect(all.slice(0, 7)).toEqual(['pay rent', 'done today', 'call bob', 'ship release', 'weekly review', 'far away', 'milk and honey']);
    // Without a due date: newest first.
    expect(all.slice(6)).toEqual(['milk and honey', 'percent 50%_off', 'sub of bob', 'old archived', 'idea']);
  });

  it('keeps the sync order with since, and ANDs it with the filter', async () => {
    const body = await pick('all', `&since=${encodeURIComponent('2026-11-01T00:00:09.000Z')}&limit=2`);
    const first = titles(body);
    const next = await pick('all', `&since=${encodeURIComponent('2026-11-01T00:00:09.000Z')}&limit=50&cursor=${body.next_cursor}`);
    const rest = titles(next);
    const updated = [...body.items, ...next.items].map((i: JsonBody) => i.updated_at);
    expect(updated).toEqual([...updated].sort());
    expect([...first, ...rest]).not.toContain('call bob');
    expect([...first, ...rest]).toContain('milk and honey');
  });

  it('answers queries of one shape each with its own values (the compiled statement is shared, decision 0094)', async () => {
    // Each pair is one shape: a value baked into the first one's statement would answer the second wrongly.
    expect(await picked('#Work')).toEqual(['call bob', 'ship release']);
    expect(await picked(`#"50%_off o'clock \\"`)).toEqual(['percent 50%_off']);
    expect(await picked('@calls')).toEqual(['call bob', 'ship release']);
    expect(await picked('@homework')).toEqual(['far away']);
    expect(await picked('search: milk')).toEqual(['milk and honey']);
    expect(await picked('search: rent')).toEqual(['pay rent']);
    expect(await picked('today')).toEqual(['call bob']);
    t.clock.advance(3 * 86_400_000);
    expect(await picked('today')).toEqual(['ship release']);
    t.clock.set(NOW);
  });

  it('refuses a cursor of another listing', async () => {
    const list = ok(await c.get('items?limit=1'));
    const res = await c.get(`items?filter=all&cursor=${list.next_cursor}`);
    expect(res.status).toBe(400);
    expect(res.body.details[0].field).toBe('cursor');
  });

  it('answers each bad input of issue 48 with 400 and the position', async () => {
    expect(await fails('#')).toEqual({ field: 'filter', message: 'expected a project name after #', position: 1 });
    expect((await fails('(today')).position).toBe(6);
    expect((await fails('today)')).position).toBe(5);
    expect((await fails('((((today & (overdue | #Work))')).position).toBe(30);
    const terms = Array.from({ length: 1000 }, () => 'today').join('|');
    expect((await fails(terms)).message).toMatch(/at most 1000 characters/);
    const hundredOne = Array.from({ length: 101 }, () => 'today').join('|');
    expect((await fails(hundredOne.slice(0, 1000))).message).toMatch(/at most 100 terms/);
    expect((await fails(`#${'x'.repeat(1000)}`)).message).toMatch(/1000 characters|at most 100 characters/);
    expect((await fails(`#${'x'.repeat(101)}`)).message).toBe('a project name has at most 100 characters');
    expect(await fails('tody')).toMatchObject({ position: 0, message: expect.stringContaining('did you mean today') });
    expect(await fails('today & #Nowhere')).toEqual({ field: 'filter', message: 'there is no project named "Nowhere"', position: 8 });
    expect(await fails('due before: blah')).toMatchObject({ position: 12 });
    expect((await fails('p1')).message).toMatch(/priorities/);
    expect((await fails("#50%'_\\ x")).position).toBeGreaterThan(0);
    expect((await fails('!'.repeat(999))).message).toBe('expected a term after !');
    expect((await fails('('.repeat(500) + 'today' + ')'.repeat(495))).message).toMatch(/nest at most 20/);
  });

  it('answers quickly on deep and wide queries that do parse', async () => {
    const wide = Array.from({ length: 100 }, (_, i) => (i % 2 ? '@x*' : 'search: mil')).join(' | ');
    const deep = '('.repeat(20) + 'today' + ')'.repeat(20);
    for (const q of [wide, deep, '!'.repeat(900) + 'today']) {
      const res = await c.get(`items?filter=${encodeURIComponent(q)}`);
      expect(res.status, res.text).toBe(200);
    }
  });

  it("lists another user's items never", async () => {
    const other = await createUser(t);
    const them = client(t.app, other.token);
    expect(titles(ok(await them.get('items?filter=all')))).toEqual([]);
    expect((await them.get('items?filter=%23Work')).status).toBe(400);
  });
});
