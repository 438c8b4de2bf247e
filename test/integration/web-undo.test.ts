import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AuthUser } from '../../src/schemas/auth-user.js';
import { DIALECTS } from '../helpers/dialects.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { signedInBrowser, type WebClient } from '../helpers/web-client.js';

/*
 * Undo kept by the server (issue 47 item 1, decision 0076): an action in place answers what undoes
 * it, and POST /inbox/undo/{id} applies that inverse once, only to the item as the action left it.
 * The clock is Thursday 26 November 2026, 10:00 UTC (the user's zone).
 */
describe.each(DIALECTS)('web undo (%s)', (dialect) => {
  let t: TestApp;
  let web: WebClient;
  let userId: string;
  let user: AuthUser;

  beforeAll(async () => {
    t = await createTestApp(dialect);
    t.clock.set(new Date('2026-11-26T10:00:00.000Z'));
    ({ web, userId } = await signedInBrowser(t));
    await t.services.users.setPlanById(userId, 'free');
    const me = await t.services.users.me(userId);
    user = { id: me.id, email: me.email, plan: me.plan, timezone: me.timezone, keyId: null };
  });
  afterAll(async () => t?.close());

  const inPlace = { 'cin-in-place': '1' };
  const act = async (id: string, action: string, form: Record<string, string> = {}) => {
    const res = await web.submit('/', `/inbox/items/${id}/${action}`, { return: '/', ...form }, inPlace);
    expect(res.status, res.body.slice(0, 300)).toBe(200);
    return JSON.parse(res.body) as { message: string; undo: string | null };
  };
  const undo = async (id: string) => {
    const res = await web.submit('/', `/inbox/undo/${id}`, { return: '/' }, inPlace);
    return { status: res.status, ...(JSON.parse(res.body) as { message: string }) };
  };
  const add = async (text: string, extra: { due_at?: string; remind_at?: string } = {}) => (await t.services.capture.capture(user, { text, ...extra })).item;

  it('undoes a repeating item’s completion: the old due date and reminder back, the completion it logged removed', async () => {
    const weekly = await add('Weekly review', { due_at: '2026-11-27T09:00:00.000Z', remind_at: '2026-11-27T08:30:00.000Z' });
    await t.services.items.patch(userId, weekly.id, { recurrence: { rule: 'FREQ=WEEKLY', from: 'due' } });
    const done = await act(weekly.id, 'toggle');
    expect(done.message).toBe('Marked “Weekly review” done; next due Fri 4 Dec, 09:00.');
    expect((await t.services.items.get(userId, weekly.id)).due_at).toBe('2026-12-04T09:00:00.000Z');
    expect((await t.services.recurrence.completions(userId, weekly.id, {})).completions).toHaveLength(1);

    const undone = await undo(done.undo!);
    expect(undone.status).toBe(200);
    expect(undone.message).toBe('Undone: “Weekly review” is not done, due Fri 27 Nov, 09:00 again; its completion is removed.');
    const now = await t.services.items.get(userId, weekly.id);
    expect(now).toMatchObject({ due_at: '2026-11-27T09:00:00.000Z', remind_at: '2026-11-27T08:30:00.000Z', is_completed: false, status: 'todo' });
    expect((await t.services.recurrence.completions(userId, weekly.id, {})).completions).toEqual([]);
    // Completing it again completes the same occurrence, not a second one.
    await act(weekly.id, 'toggle');
    expect((await t.services.items.get(userId, weekly.id)).due_at).toBe('2026-12-04T09:00:00.000Z');
  });

  it('undoes a toggle, an archive, a move and a date change with their inverses, each saying what it put back', async () => {
    const item = await add('Call the dentist', { due_at: '2026-11-25T08:00:00.000Z' });
    const work = await t.services.projects.findOrCreate(userId, 'Work');

    const toggled = await act(item.id, 'toggle');
    expect(toggled.message).toBe('Marked “Call the dentist” done.');
    expect((await undo(toggled.undo!)).message).toBe('Undone: “Call the dentist” is not done again.');
    expect((await t.services.items.get(userId, item.id)).is_completed).toBe(false);

    const archived = await act(item.id, 'archive');
    expect((await undo(archived.undo!)).message).toBe('Undone: “Call the dentist” is out of the archive again.');
    expect((await t.services.items.get(userId, item.id)).status).toBe('todo');

    const moved = await act(item.id, 'move', { project_id: work.id });
    expect(moved.message).toBe('Moved “Call the dentist” to Work.');
    expect((await undo(moved.undo!)).message).toBe('Undone: “Call the dentist” is in Inbox again.');
    expect((await t.services.items.get(userId, item.id)).project_id).toBe(item.project_id);

    const dated = await act(item.id, 'due', { due_date: '2026-11-30', due_time: '09:15' });
    expect((await t.services.items.get(userId, item.id)).due_at).toBe('2026-11-30T09:15:00.000Z');
    expect((await undo(dated.undo!)).message).toBe('Undone: “Call the dentist” is due Wed 25 Nov, 08:00 again.');
    expect((await t.services.items.get(userId, item.id)).due_at).toBe('2026-11-25T08:00:00.000Z');
  });

  it('applies an undo once, never over a later change, and never another user’s', async () => {
    const item = await add('Pay rent');
    const first = await act(item.id, 'toggle');
    expect((await undo(first.undo!)).status).toBe(200);
    const again = await undo(first.undo!);
    expect(again).toMatchObject({ status: 404, message: 'Not undone: it was undone already, or it is too old to undo.' });
    expect((await t.services.items.get(userId, item.id)).is_completed).toBe(false);

    // Changed after the action (here through the API): the undo would overwrite it, so it is refused.
    const second = await act(item.id, 'toggle');
    await t.services.items.patch(userId, item.id, { title: 'Pay the rent' });
    expect(await undo(second.undo!)).toMatchObject({ status: 409 });
    expect((await t.services.items.get(userId, item.id)).is_completed).toBe(true);

    const third = await act(item.id, 'toggle');
    const other = await signedInBrowser(t);
    const res = await other.web.submit('/', `/inbox/undo/${third.undo!}`, { return: '/' }, inPlace);
    expect(res.status).toBe(404);
    expect((await t.services.items.get(userId, item.id)).is_completed).toBe(false);

    // Too old: ten minutes later the inverse is gone.
    t.clock.set(new Date('2026-11-26T10:11:00.000Z'));
    expect(await undo(third.undo!)).toMatchObject({ status: 404 });
    t.clock.set(new Date('2026-11-26T10:00:00.000Z'));
  });

  it('without the in-place header, acts and redirects as a plain form does', async () => {
    const item = await add('Water plants');
    const res = await web.submit('/', `/inbox/items/${item.id}/toggle`, { return: '/' });
    expect(res.status).toBe(303);
    expect(res.location).toBe(`/#item-${item.id}`);
  });
});
