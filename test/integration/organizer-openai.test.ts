import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { DIALECTS } from '../helpers/dialects.js';
import { chatAnswer, FakeOpenAi, loopbackFetch, type ChatRequest } from '../helpers/fake-openai.js';
import { actor, capture, ok, type Actor } from '../helpers/items.js';
import { capturingLogger } from '../helpers/log-capture.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';

/**
 * The `openai` engine against a fake OpenAI-compatible server on 127.0.0.1. Whatever the server
 * does (a valid answer, malformed JSON, no answer in time, a 500), the capture ends in a correct item.
 */
describe.each(DIALECTS)('organizer, openai engine (%s)', (dialect) => {
  const fake = new FakeOpenAi();
  const log = capturingLogger();
  let t: TestApp;
  let a: Actor;
  let work: string;

  beforeAll(async () => {
    await fake.start();
    t = await createTestApp(dialect, {
      logger: log.logger,
      fetch: loopbackFetch,
      // A short timeout keeps the "no answer" case quick; it is a setting, not a sleep.
      organizer: { engine: 'openai', openai: { baseUrl: fake.baseUrl, apiKey: 'sk-test-key', model: 'test-model' }, timeoutMs: 300 },
    });
    a = await actor(t, 'pro');
    ok(await a.c.patch('me', { timezone: 'Europe/Berlin' }));
    work = ok(await a.c.post('projects', { name: 'Work' })).id;
    await capture(a.c, 'review PR for the billing service', { project_id: work });
  });
  afterAll(async () => {
    await t?.close();
    await fake.stop();
  });
  beforeEach(() => {
    fake.requests.length = 0;
    log.lines.length = 0;
  });

  const projectsOf = (request: ChatRequest) =>
    (JSON.parse(request.body.messages.find((m) => m.role === 'user')!.content) as { projects: Array<{ id: string; name: string }> }).projects;
  const fallbackLogs = () => log.lines.filter((l) => l.msg === 'organizer: the openai engine failed; the local engine decided instead');

  /** The local engine's reading of the text used in the fallback cases. */
  const LOCAL_DECISION = {
    engine: 'local',
    type: 'todo',
    project_id: null,
    due_at: '2026-11-22T16:00:00.000Z',
    title: 'call mom',
    all_day: false,
    // The Inbox fills with these captures from case to case, and the reason says what is closest.
    reason: expect.any(String) as unknown,
    applied: ['due_at', 'title'],
  };

  it('uses a valid answer: the item takes its type, project, due date and title', async () => {
    fake.answer = (request) => {
      const project = projectsOf(request).find((p) => p.name === 'Work')!;
      return chatAnswer(JSON.stringify({ type: 'note', project_id: project.id, due_at: '2026-11-23T10:00:00+01:00', title: 'Standup prep' }));
    };
    const body = ok(await a.c.post('capture', { text: 'standup prep monday 10am', organize: true }), 201);
    expect(body).toMatchObject({ type: 'note', status: 'backlog', project_id: work, due_at: '2026-11-23T09:00:00.000Z', title: 'Standup prep' });
    expect(body.ai).toEqual({
      engine: 'openai',
      type: 'note',
      project_id: work,
      due_at: '2026-11-23T09:00:00.000Z',
      title: 'Standup prep',
      all_day: false,
      reason: 'the model chose Work',
      applied: ['type', 'project_id', 'due_at', 'title'],
    });

    // What was asked: one chat completion with the model, a JSON answer, the user's now and zone, and the projects.
    expect(fake.requests).toHaveLength(1);
    const [request] = fake.requests;
    expect(request!.url).toBe('/v1/chat/completions');
    expect(request!.headers.authorization).toBe('Bearer sk-test-key');
    expect(request!.body).toMatchObject({ model: 'test-model', response_format: { type: 'json_object' }, temperature: 0 });
    const asked = JSON.parse(request!.body.messages.find((m) => m.role === 'user')!.content) as Record<string, unknown>;
    expect(asked).toMatchObject({ now: '2026-11-21T11:00+01:00 (Saturday)', timezone: 'Europe/Berlin', text: 'standup prep monday 10am' });
    expect(projectsOf(request!).map((p) => p.name)).toEqual(['Inbox', 'Work']);
    // Each project comes with the user's own titles nearest the text (issue 37).
    expect(projectsOf(request!).find((p) => p.name === 'Work')).toMatchObject({ examples: ['review PR for the billing service'] });
    expect(fallbackLogs()).toEqual([]);
  });

  it('answers in a Markdown fence are still read', async () => {
    fake.answer = () => chatAnswer('```json\n{"type":"todo","project_id":null,"due_at":null,"title":"buy milk","reason":"nothing fits"}\n```');
    const body = ok(await a.c.post('capture', { text: 'buy milk', organize: true }), 201);
    expect(body.ai).toMatchObject({ engine: 'openai', applied: [], reason: 'nothing fits' });
  });

  it.each([
    ['malformed JSON in the message', () => chatAnswer('{"type": "todo", "project_id": null, '), /not JSON/],
    ['an answer that breaks the schema', () => chatAnswer('{"type":"task","project_id":null,"due_at":"soon","title":""}'), /schema/],
    [
      'a project id that is not one of the user’s',
      () => chatAnswer('{"type":"todo","project_id":"0190f5e2-7c3a-7b1d-9e2f-123456789abc","due_at":null,"title":"x"}'),
      /project_id/,
    ],
    ['a 500', () => ({ status: 500, body: '{"error":{"message":"overloaded"}}' }), /HTTP 500/],
    ['a body that is not JSON', () => ({ status: 200, body: '<html>bad gateway</html>' }), /not JSON/],
    ['no answer within the timeout', () => 'hang' as const, /no answer within 300 ms/],
  ])('falls back to the local engine on %s, logs why, and stores the local decision', async (_name, answer, reason) => {
    fake.answer = answer;
    const body = ok(await a.c.post('capture', { text: 'call mom tomorrow at 5pm', organize: true }), 201);
    expect(body).toMatchObject({ title: 'call mom', type: 'todo', project_id: a.user.inboxId, due_at: '2026-11-22T16:00:00.000Z' });
    expect(body.ai).toEqual(LOCAL_DECISION);
    expect(ok(await a.c.get(`items/${body.id}`)).due_at).toBe('2026-11-22T16:00:00.000Z');
    expect(fake.requests).toHaveLength(1);
    const logged = fallbackLogs();
    expect(logged).toHaveLength(1);
    expect(logged[0]).toMatchObject({ level: 40, engine: 'openai', model: 'test-model', reason: expect.stringMatching(reason) });
    // The key never reaches the log.
    expect(JSON.stringify(log.lines)).not.toContain('sk-test-key');
  });

  it('POST /items/{id}/organize uses the same engine and fallback', async () => {
    const item = await capture(a.c, 'call mom tomorrow at 5pm');
    fake.answer = () => ({ status: 500, body: '{}' });
    const body = ok(await a.c.post(`items/${item.id}/organize`));
    expect(body).toMatchObject({ id: item.id, title: 'call mom', due_at: '2026-11-22T16:00:00.000Z' });
    expect(body.ai.engine).toBe('local');
    expect(fallbackLogs()).toHaveLength(1);
  });
});
