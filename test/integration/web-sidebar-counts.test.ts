import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AuthUser } from '../../src/schemas/auth-user.js';
import { DIALECTS } from '../helpers/dialects.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { signedInBrowser, type WebClient } from '../helpers/web-client.js';

/*
 * The sidebar's counts after an action in place (issue 47): the page skips the live echo of its own
 * change, so the answer carries the sidebar as the page now shows it (its project counts, decision
 * 0096), marked for the page it returns to, and nothing for a page without one.
 */
describe.each(DIALECTS)('the sidebar in answers in place (%s)', (dialect) => {
  let t: TestApp;
  let web: WebClient;
  let userId: string;
  let user: AuthUser;
  let inbox: string;
  let work: string;

  beforeAll(async () => {
    t = await createTestApp(dialect);
    t.clock.set(new Date('2026-11-26T10:00:00.000Z'));
    ({ web, userId } = await signedInBrowser(t));
    const me = await t.services.users.me(userId);
    user = { id: me.id, email: me.email, plan: me.plan, timezone: me.timezone, keyId: null };
    inbox = await t.services.projects.inboxId(userId);
    work = (await t.services.projects.findOrCreate(userId, 'Work')).id;
  });
  afterAll(async () => t?.close());

  interface Answer {
    undo: string | null;
    sidebar: string | null;
  }
  const inPlace = { 'cin-in-place': '1' };
  const post = async (url: string, form: Record<string, string>) => {
    const res = await web.submit('/', url, form, inPlace);
    expect(res.status, res.body.slice(0, 300)).toBe(200);
    return { answer: JSON.parse(res.body) as Answer, bytes: Buffer.byteLength(res.body) };
  };
  const act = async (id: string, action: string, back = '/', form: Record<string, string> = {}) =>
    (await post(`/inbox/items/${id}/${action}`, { return: back, ...form })).answer;
  /** Each project's count as the sidebar markup says it, and the one marked current. */
  const countsIn = (sidebar: string | null) => {
    expect(sidebar).not.toBeNull();
    const counts = Object.fromEntries(
      [...sidebar!.matchAll(/<a href="\/projects\/([^"]+)"[^>]*><span>[^<]*<\/span><span class="count"[^>]*>(\d+)<\/span>/g)].map((m) => [m[1], Number(m[2])]),
    );
    const current = /<a href="\/projects\/([^"]+)" aria-current="page">/.exec(sidebar!)?.[1] ?? null;
    return { inbox: counts[inbox], work: counts[work], current };
  };
  const add = async (text: string, extra: { project_id?: string; tags?: string[] } = {}) => (await t.services.capture.capture(user, { text, ...extra })).item;

  it('answers a tick, its undo, a move and a delete with the sidebar’s counts after them', async () => {
    const dentist = await add('Call the dentist');
    const rent = await add('Pay rent');
    await add('Draft the plan', { project_id: work });

    const ticked = await act(dentist.id, 'toggle');
    expect(countsIn(ticked.sidebar)).toEqual({ inbox: 1, work: 1, current: null });
    const undone = (await post(`/inbox/undo/${ticked.undo!}`, { return: '/' })).answer;
    expect(countsIn(undone.sidebar)).toEqual({ inbox: 2, work: 1, current: null });

    // Moved from the Work page: that page's project is marked current, as its own page marks it.
    const moved = await act(rent.id, 'move', `/projects/${work}`, { project_id: work });
    expect(countsIn(moved.sidebar)).toEqual({ inbox: 1, work: 2, current: work });

    const deleted = await act(dentist.id, 'delete', '/inbox');
    expect(countsIn(deleted.sidebar)).toEqual({ inbox: 0, work: 2, current: null });
  });

  it('answers a capture in place with the counts of the project it went to', async () => {
    const before = countsIn((await act((await add('Water plants')).id, 'archive', '/inbox')).sidebar);
    const { answer } = await post('/inbox/capture', { text: 'Book the venue', project_id: work, return: `/items?project=${work}` });
    expect(countsIn(answer.sidebar)).toEqual({ ...before, work: before.work! + 1, current: work });
  });

  it('sends no sidebar to a page without one, and keeps a tick’s answer small', async () => {
    const item = await add('Read the contract');
    expect((await act(item.id, 'toggle', `/inbox/items/${item.id}`)).sidebar).toBeNull();
    expect((await act(item.id, 'toggle', '/filter?q=today')).sidebar).toBeNull();
    // Ten projects and ten tags: the sidebar adds a few KB to a tick's answer (issue 47's budget is 20 KB a tick).
    for (let i = 0; i < 10; i++) await add(`Task ${i}`, { tags: [`tag${i}`], project_id: (await t.services.projects.findOrCreate(userId, `Project ${i}`)).id });
    const { answer, bytes } = await post(`/inbox/items/${item.id}/toggle`, { return: '/' });
    expect(answer.sidebar).toContain('@tag9');
    expect(bytes).toBeLessThan(8_000);
  });
});
