import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../helpers/dialects.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { csrfOf, signedInBrowser } from '../helpers/web-client.js';

/*
 * Refusing a quick-add reading in the web capture box (decision 0098): the form's `literal` field
 * names the ranges kept as text; the preview (POST /inbox/parse) and the capture read them alike.
 */
describe.each(DIALECTS)('web quick add: refused readings (%s)', (dialect) => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp(dialect);
    t.clock.set(new Date('2026-11-26T10:00:00.000Z'));
  });
  afterAll(async () => t?.close());

  const only = async (userId: string) => (await t.services.items.list(userId, { limit: 10 })).items;

  it('the preview leaves a refused range unread, and the capture keeps its words and gets no date', async () => {
    const { web, userId } = await signedInBrowser(t);
    const page = await web.get('/');
    const _csrf = csrfOf(page.body);
    const text = 'Watch Friday night lights';
    const read = await web.postRaw('/inbox/parse', { _csrf, text });
    expect(JSON.parse(read.body)).toMatchObject({ spans: [{ kind: 'date', start: 6, end: 18, text: 'Friday night' }] });
    const refused = await web.postRaw('/inbox/parse', { _csrf, text, literal: '6-18' });
    expect(JSON.parse(refused.body)).toEqual({ spans: [], all_day: false });

    const res = await web.postRaw('/inbox/capture', { _csrf, text, return: '/', literal: '6-18' });
    expect(res.status).toBe(303);
    expect((await only(userId))[0]).toMatchObject({ title: 'Watch Friday night lights', due_at: null, all_day: false });
  });

  it('refuses a tag and a project while the date is still read', async () => {
    const { web, userId } = await signedInBrowser(t);
    await t.services.projects.findOrCreate(userId, 'Work');
    const inbox = await t.services.projects.inboxId(userId);
    const page = await web.get('/');
    const text = 'Call mum tomorrow #Work @phone';
    const res = await web.postRaw('/inbox/capture', { _csrf: csrfOf(page.body), text, return: '/', literal: '18-23,24-30' });
    expect(res.status).toBe(303);
    expect((await only(userId))[0]).toMatchObject({
      title: 'Call mum #Work @phone',
      project_id: inbox,
      tags: [],
      due_at: '2026-11-27T00:00:00.000Z',
      all_day: true,
    });
  });

  it('a malformed literal field is ignored, never a 5xx: the text is read as without it', async () => {
    const { web, userId } = await signedInBrowser(t);
    const page = await web.get('/');
    const _csrf = csrfOf(page.body);
    const parse = await web.postRaw('/inbox/parse', { _csrf, text: 'Buy milk today', literal: '9-3,abc,1-2-3' });
    expect(parse.status).toBe(200);
    expect(JSON.parse(parse.body).spans).toHaveLength(1);
    const res = await web.postRaw('/inbox/capture', { _csrf, text: 'Buy milk today', return: '/', literal: '99999-999999,x' });
    expect(res.status).toBe(303);
    expect((await only(userId))[0]).toMatchObject({ title: 'Buy milk', all_day: true });
    const long = await web.postRaw('/inbox/capture', { _csrf, text: 'Too long', return: '/', literal: '1-2,'.repeat(400) });
    expect(long.status).toBeLessThan(500);
  });
});
