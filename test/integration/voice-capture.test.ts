import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { DIALECTS } from '../helpers/dialects.js';
import { FakeTranscriptionServer } from '../helpers/fake-transcription-server.js';
import { actor, expectError, ok, type Actor } from '../helpers/items.js';
import { FFMPEG, lacking } from '../helpers/system-programs.js';
import { createTestApp, type JsonBody, type Response, type TestApp } from '../helpers/test-app.js';
import { audioFile, encodeForm, LIBRIVOX_DIR, makeTempDir, type FormPart } from '../helpers/voice.js';

// Real ffmpeg decodes the clip before the fake engine hears it.
vi.setConfig({ testTimeout: 60_000 });

const CLIP = join(LIBRIVOX_DIR, 'sense_and_sensibility_01_austen_64kb-0880.wav');

/** Contract "Brain dump", voice: POST /voice/capture transcribes and captures, split by default. */
describe.skipIf(lacking(FFMPEG)).each(DIALECTS)('POST /api/v1/voice/capture (%s)', (dialect) => {
  const fake = new FakeTranscriptionServer();
  const temp = makeTempDir('voice-capture');
  let t: TestApp;

  beforeAll(async () => {
    await fake.start();
    t = await createTestApp(dialect, {
      transcribe: { engine: 'openai', openai: { baseUrl: fake.baseUrl, apiKey: 'test-key', model: 'test-model' } },
      voice: { tempRoot: temp.dir },
    });
  });
  afterEach(() => {
    expect(temp.entries(), 'a request left files behind').toEqual([]);
  });
  afterAll(async () => {
    await t?.close();
    await fake.stop();
    temp.remove();
  });

  const says = (text: string) => {
    fake.behaviour = { kind: 'answer', status: 200, body: JSON.stringify({ text }) };
  };

  async function voiceCapture(a: Actor, fields: Record<string, string> = {}): Promise<Response<JsonBody>> {
    const parts: FormPart[] = [audioFile(CLIP), ...Object.entries(fields).map(([name, value]) => ({ name, value }))];
    const { body, contentType } = await encodeForm(parts);
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/v1/voice/capture',
      headers: { authorization: `Bearer ${a.user.token}`, 'content-type': contentType },
      payload: body,
    });
    return { status: res.statusCode, body: res.body ? JSON.parse(res.body) : undefined, headers: res.headers, text: res.body };
  }

  it('splits the transcript into items read with quick add, and answers the transcript with them', async () => {
    const a = await actor(t, 'pro');
    says('buy milk tomorrow; call mom @family; fix the bike');
    const body = ok(await voiceCapture(a), 201);
    expect(body.transcript).toEqual({ text: 'buy milk tomorrow; call mom @family; fix the bike', language: null, duration_ms: 2990 });
    expect(body.items.map((i: JsonBody) => [i.title, i.tags, i.due_at !== null])).toEqual([
      ['buy milk', [], true],
      ['call mom', ['family'], false],
      ['fix the bike', [], false],
    ]);
    expect(await a.events.names()).toEqual(['item.created', 'item.created', 'item.created']);
    expect(ok(await a.c.get('items')).items).toHaveLength(3);
  });

  it('with split=false captures one item read with quick add', async () => {
    const a = await actor(t, 'pro');
    says('buy milk tomorrow; call mom @family');
    const body = ok(await voiceCapture(a, { split: 'false' }), 201);
    expect(body.items).toHaveLength(1);
    expect(body.items[0]).toMatchObject({ title: 'buy milk; call mom', tags: ['family'] });
  });

  it('with keep_audio=true attaches the recording, stored once, to every item', async () => {
    const a = await actor(t, 'pro');
    says('buy milk; fix the bike');
    const body = ok(await voiceCapture(a, { keep_audio: 'true' }), 201);
    expect(body.audio_kept).toBe(true);
    expect(body.items).toHaveLength(2);
    const [first, second] = body.items.map((i: JsonBody) => i.attachments);
    expect(first).toHaveLength(1);
    expect(first[0]).toMatchObject({ filename: CLIP.split('/').pop(), content_type: 'audio/wav' });
    expect(second[0].sha256).toBe(first[0].sha256);
    const stored = ok(await a.c.get(`items/${body.items[0].id}`));
    expect(stored.attachments).toEqual(first);
    expect(stored.updated_at).toBe(body.items[0].updated_at);
    const download = await t.app.inject({ method: 'GET', url: `/api/v1/attachments/${first[0].id}`, headers: { authorization: `Bearer ${a.user.token}` } });
    expect(download.statusCode).toBe(200);
    expect(download.rawPayload.length).toBe(first[0].size);
    expect(ok(await a.c.get('me')).storage.used).toBe(first[0].size);
  });

  it('with keep_audio=false (the default) stores no file; past the storage quota it keeps the items and says the audio was not kept', async () => {
    const a = await actor(t, 'pro');
    says('buy milk; fix the bike');
    const plain = ok(await voiceCapture(a), 201);
    expect(plain.items.map((i: JsonBody) => i.attachments)).toEqual([[], []]);
    expect(plain.audio_kept).toBeUndefined();
    expect(ok(await a.c.get('me')).storage.used).toBe(0);

    // Storage all but full: a stored content of that size on one of the items, without writing it.
    const fake = 'e'.repeat(64);
    const full = 10 * 1024 * 1024 * 1024 - 10;
    await t.services.db.insertInto('attachment_blobs').values({ sha256: fake, size: full, created_at: '2026-01-01T00:00:00.000Z' }).execute();
    await t.services.db
      .insertInto('attachments')
      .values({
        id: crypto.randomUUID(),
        user_id: a.user.id,
        item_id: plain.items[0].id,
        filename: 'big',
        content_type: 'application/octet-stream',
        size: full,
        sha256: fake,
        created_at: '2026-01-01T00:00:00.000Z',
      })
      .execute();
    says('call mom; water the plants');
    const body = ok(await voiceCapture(a, { keep_audio: 'true' }), 201);
    expect(body.audio_kept).toBe(false);
    expect(body.audio_problem).toMatch(/storage/);
    expect(body.items.map((i: JsonBody) => [i.title, i.attachments])).toEqual([
      ['call mom', []],
      ['water the plants', []],
    ]);
    expect(ok(await a.c.get('items')).items).toHaveLength(4);
    expect(ok(await a.c.get('me')).storage.used).toBe(full);
  });

  it('refuses Free users, a bad flag and silence, capturing nothing', async () => {
    says('buy milk');
    const free = await actor(t, 'free');
    expectError(await voiceCapture(free), 402, 'pro_required');
    const a = await actor(t, 'pro');
    expectError(await voiceCapture(a, { split: 'maybe' }), 400, 'bad_request');
    says('   ');
    expectError(await voiceCapture(a), 422, 'transcription_failed');
    expect(ok(await a.c.get('items')).items).toEqual([]);
    expect(await a.events.take()).toEqual([]);
  });
});
