import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { fingerprint } from '../helpers/db-fingerprint.js';
import { DIALECTS } from '../helpers/dialects.js';
import { chatAnswer, FakeOpenAi, loopbackFetch, type ChatRequest, type FakeAnswer } from '../helpers/fake-openai.js';
import { actor, expectConsistent, expectError, ok, type Actor } from '../helpers/items.js';
import { capturingLogger } from '../helpers/log-capture.js';
import { createTestApp, type JsonBody, type TestApp } from '../helpers/test-app.js';

/**
 * Contract "Brain dump": "with ORGANIZER_ENGINE=openai and organize: true, the model may split
 * prose into items (the preview shows its split)" (decision 0099), against a fake
 * OpenAI-compatible server on 127.0.0.1.
 */
describe.each(DIALECTS)('brain dump, the model splits prose (%s)', (dialect) => {
  const fake = new FakeOpenAi();
  const log = capturingLogger();
  let t: TestApp;
  let local: TestApp;

  beforeAll(async () => {
    await fake.start();
    t = await createTestApp(dialect, {
      logger: log.logger,
      fetch: loopbackFetch,
      // A short timeout keeps the "no answer" case quick; it is a setting, not a sleep.
      organizer: { engine: 'openai', openai: { baseUrl: fake.baseUrl, apiKey: 'sk-test-key', model: 'test-model' }, timeoutMs: 300 },
    });
    local = await createTestApp(dialect, { db: t.db });
  });
  afterAll(async () => {
    await local?.close();
    await t?.close();
    await fake.stop();
  });
  beforeEach(() => {
    fake.requests.length = 0;
    log.lines.length = 0;
  });

  /** The model answers these pieces for any text. */
  const pieces = (...items: unknown[]) => (fake.answer = () => chatAnswer(JSON.stringify({ items })));
  const sentText = (request: ChatRequest) => request.body.messages.find((m) => m.role === 'user')!.content;
  const failures = () => log.lines.filter((l) => l.msg === 'brain dump: the openai split failed; the text stays one item');

  async function proWithHome(app = t): Promise<Actor & { home: string }> {
    const a = await actor(app, 'pro');
    const { id } = ok(await a.c.post('projects', { name: 'Home' }));
    await a.events.take();
    return { ...a, home: id as string };
  }

  // Each test its own text: the split of a text is kept per user for a while.
  let n = 0;
  const prose = () => `Buy milk for the café tomorrow and then call mom #Home, also fix the bike (${++n})`;

  describe('POST /api/v1/parse with split and organize', () => {
    it("answers the model's items, each read with quick add, spans counted over the whole text; stores nothing", async () => {
      const a = await proWithHome();
      const text = prose();
      pieces('Buy milk for the café tomorrow', 'call mom #Home', `fix the bike (${n})`);
      const before = await fingerprint(t.services.db);
      const { items } = ok(await a.c.post('parse', { text, split: true, organize: true }));
      expect(items.map((i: JsonBody) => [i.title, i.project_id, i.parent_index, i.is_completed])).toEqual([
        ['Buy milk for the café', null, null, false],
        ['call mom', a.home, null, false],
        [`fix the bike (${n})`, null, null, false],
      ]);
      expect(items[0].due_at).not.toBeNull();
      expect(items[0].all_day).toBe(true);
      // UTF-16 offsets into the text sent, past the "é".
      expect(items[1].spans).toEqual([{ kind: 'project', start: text.indexOf('#Home'), end: text.indexOf('#Home') + 5, text: '#Home', value: a.home }]);
      for (const item of items) for (const span of item.spans) expect(text.slice(span.start, span.end)).toBe(span.text);
      expect(fake.requests).toHaveLength(1);
      expect(sentText(fake.requests[0]!)).toBe(text);
      expect(fake.requests[0]!.body).toMatchObject({ model: 'test-model', temperature: 0 });
      expect(fake.requests[0]!.headers.authorization).toBe('Bearer sk-test-key');
      expect(await fingerprint(t.services.db)).toEqual(before);
    });

    it('leaves prose one item without organize, and never sends a list or "; " clauses to the model', async () => {
      const a = await proWithHome();
      pieces('Buy milk', 'call mom');
      expect(ok(await a.c.post('parse', { text: prose(), split: true })).items).toHaveLength(1);
      expect(ok(await a.c.post('parse', { text: 'buy milk and eggs\ncall mom', split: true, organize: true })).items).toHaveLength(2);
      expect(ok(await a.c.post('parse', { text: 'buy milk; call mom and dad', split: true, organize: true })).items).toHaveLength(2);
      expect(fake.requests).toHaveLength(0);
    });

    it('is 402 pro_required for a free user asking for organize', async () => {
      const free = await actor(t);
      expectError(await free.c.post('parse', { text: prose(), split: true, organize: true }), 402, 'pro_required');
      expect(fake.requests).toHaveLength(0);
    });
  });

  describe('falls back to one item, never a 5xx', () => {
    const cases: Array<[string, () => FakeAnswer]> = [
      ['words that are not the text', () => chatAnswer(JSON.stringify({ items: ['Buy oat milk', 'call mom'] }))],
      ['pieces out of order', () => chatAnswer(JSON.stringify({ items: ['call mom', 'Buy milk'] }))],
      ['a message that is not JSON', () => chatAnswer('Sure! Here are your items: milk, mom')],
      ['JSON of another shape', () => chatAnswer(JSON.stringify({ items: [1, 2] }))],
      ['more than 100 items', () => chatAnswer(JSON.stringify({ items: Array.from({ length: 101 }, () => 'milk') }))],
      ['an empty piece', () => chatAnswer(JSON.stringify({ items: ['Buy milk', '  '] }))],
      ['an HTTP 500', () => ({ status: 500, body: '{"error":{"message":"overloaded"}}' })],
      ['no answer in time', () => 'hang'],
    ];
    it.each(cases)('on %s: the preview and the batch keep the text one item', async (_name, answer) => {
      const a = await proWithHome();
      const text = prose();
      fake.answer = answer;
      const { items: preview } = ok(await a.c.post('parse', { text, split: true, organize: true }));
      expect(preview.map((i: JsonBody) => i.title)).toEqual([text.replace(' #Home', '').replace(' tomorrow', '')]);
      const { items } = ok(await a.c.post('capture/batch', { text, organize: true }), 201);
      expect(items.map((i: JsonBody) => i.title)).toEqual(preview.map((i: JsonBody) => i.title));
      // The failure is kept as the split: the batch asked nothing more.
      expect(fake.requests).toHaveLength(1);
    });

    it('logs why the call failed', async () => {
      const a = await proWithHome();
      fake.answer = () => 'hang';
      ok(await a.c.post('parse', { text: prose(), split: true, organize: true }));
      expect(failures().map((l) => l.reason)).toEqual(['no answer within 300 ms']);
      fake.answer = () => chatAnswer('not json');
      ok(await a.c.post('parse', { text: prose(), split: true, organize: true }));
      expect(failures().map((l) => l.reason)).toEqual(['no answer within 300 ms', 'the message is not JSON']);
    });
  });

  describe('POST /api/v1/capture/batch with organize', () => {
    it('stores the split the preview showed without asking again, even when the model would now answer otherwise', async () => {
      const a = await proWithHome();
      const text = prose();
      pieces('Buy milk for the café tomorrow', 'call mom #Home', `fix the bike (${n})`);
      const { items: preview } = ok(await a.c.post('parse', { text, split: true, organize: true }));
      pieces('Buy milk for the café tomorrow and then call mom #Home', `fix the bike (${n})`);
      const { items } = ok(await a.c.post('capture/batch', { text, organize: true }), 201);
      expect(fake.requests).toHaveLength(1);
      expect(items.map((i: JsonBody) => [i.title, i.due_at, i.all_day])).toEqual(preview.map((i: JsonBody) => [i.title, i.due_at, i.all_day]));
      expect(items[1].project_id).toBe(a.home);
      for (const item of items) expectConsistent(item);
      const events = await a.events.take();
      expect(events.map((e) => [e.event, (e.data as { item: { id: string } }).item.id])).toEqual(items.map((i: JsonBody) => ['item.created', i.id]));
    });

    it('asks the model itself for a text never previewed, and again once the kept split has expired', async () => {
      const a = await proWithHome();
      const text = prose();
      pieces('Buy milk for the café tomorrow', 'call mom #Home');
      expect(ok(await a.c.post('capture/batch', { text, organize: true }), 201).items).toHaveLength(2);
      expect(fake.requests).toHaveLength(1);
      t.clock.advance(31 * 60_000);
      pieces('Buy milk for the café tomorrow', 'call mom #Home', `fix the bike (${n})`);
      expect(ok(await a.c.post('capture/batch', { text, organize: true }), 201).items).toHaveLength(3);
      expect(fake.requests).toHaveLength(2);
    });

    it('keeps a split per user: another user previewing the same text asks the model for their own', async () => {
      const [a, b] = [await proWithHome(), await proWithHome()];
      const text = prose();
      pieces('Buy milk for the café tomorrow', 'call mom #Home');
      ok(await a.c.post('parse', { text, split: true, organize: true }));
      ok(await b.c.post('parse', { text, split: true, organize: true }));
      expect(fake.requests).toHaveLength(2);
    });

    it('is 402 for a free user asking for organize, with nothing stored', async () => {
      const free = await actor(t);
      // The key's first use is recorded; the refusal after it changes nothing.
      ok(await free.c.get('me'));
      const before = await fingerprint(t.services.db);
      expectError(await free.c.post('capture/batch', { text: prose(), organize: true }), 402, 'pro_required');
      expect(await fingerprint(t.services.db)).toEqual(before);
    });
  });

  describe('the local engine', () => {
    it('keeps prose one item with organize: true, asking no model', async () => {
      const a = await proWithHome(local);
      const text = prose();
      pieces('Buy milk for the café tomorrow', 'call mom #Home');
      expect(ok(await a.c.post('parse', { text, split: true, organize: true })).items).toHaveLength(1);
      expect(ok(await a.c.post('capture/batch', { text, organize: true }), 201).items).toHaveLength(1);
      expect(fake.requests).toHaveLength(0);
    });
  });
});
