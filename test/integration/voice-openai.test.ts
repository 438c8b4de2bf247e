import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { DIALECTS } from '../helpers/dialects.js';
import { FakeTranscriptionServer } from '../helpers/fake-transcription-server.js';
import { createTestApp, createUser, type TestApp, type TestUser } from '../helpers/test-app.js';
import { audioFile, encodeForm, LIBRIVOX_DIR, makeTempDir, transcribe, until } from '../helpers/voice.js';
import { FFMPEG, lacking } from '../helpers/system-programs.js';

// Real ffmpeg and pocketsphinx processes: on a busy machine they take a while.
vi.setConfig({ testTimeout: 90_000 });

/** 2.99 s of speech: 47,840 samples at 16 kHz once decoded. */
const SHORT_CLIP = join(LIBRIVOX_DIR, 'sense_and_sensibility_01_austen_64kb-0880.wav');

describe.skipIf(lacking(FFMPEG)).each(DIALECTS)('POST /api/v1/voice/transcribe with the openai engine (%s)', (dialect) => {
  const fake = new FakeTranscriptionServer();
  const temp = makeTempDir('voice-openai');
  let t: TestApp;
  let pro: TestUser;

  beforeAll(async () => {
    await fake.start();
    // auto picks the OpenAI-compatible service because it is configured, although pocketsphinx is installed.
    t = await createTestApp(dialect, {
      transcribe: { engine: 'auto', openai: { baseUrl: fake.baseUrl, apiKey: 'test-key', model: 'test-model' } },
      voice: { tempRoot: temp.dir },
    });
    pro = await createUser(t, 'pro');
  });
  afterEach(() => {
    fake.behaviour = { kind: 'answer', status: 200, body: JSON.stringify({ text: 'hello from the fake' }) };
    fake.received.length = 0;
    fake.abandoned = 0;
    expect(temp.entries(), 'a request left files behind').toEqual([]);
  });
  afterAll(async () => {
    await t?.close();
    await fake.stop();
    temp.remove();
  });

  it('is the engine auto picks when it is configured', () => {
    expect(t.services.voice.engineName).toBe('openai');
  });

  it('sends the decoded audio as 16 kHz mono WAV with model, language and key, and answers its text', async () => {
    fake.behaviour = { kind: 'answer', status: 200, body: JSON.stringify({ text: '  Olá, mundo. ' }) };
    const res = await transcribe(t.app, pro.token, [audioFile(SHORT_CLIP), { name: 'language', value: 'pt-br' }]);
    expect(res.status, res.text).toBe(200);
    expect(res.body).toEqual({ text: 'Olá, mundo.', language: 'pt-BR', duration_ms: 2990 });

    expect(fake.received).toHaveLength(1);
    const [sent] = fake.received;
    expect(sent!.path).toBe('/v1/audio/transcriptions');
    expect(sent!.authorization).toBe('Bearer test-key');
    // OpenAI takes ISO 639-1 codes, so the region is dropped on the way out.
    expect(sent!.fields).toEqual({ model: 'test-model', response_format: 'json', language: 'pt' });
    const wav = sent!.file!;
    expect(wav.type).toBe('audio/wav');
    expect(wav.bytes.subarray(0, 4).toString('ascii')).toBe('RIFF');
    expect(wav.bytes.readUInt16LE(22)).toBe(1); // channels
    expect(wav.bytes.readUInt32LE(24)).toBe(16000); // sample rate
    expect(wav.bytes.readUInt16LE(34)).toBe(16); // bits per sample
    expect(wav.bytes.readUInt32LE(40)).toBe(wav.bytes.length - 44);
    expect(wav.bytes.length - 44).toBe(2990 * 32);
  });

  it('leaves the language to the service when none is given, and keeps a tag it reports', async () => {
    fake.behaviour = { kind: 'answer', status: 200, body: JSON.stringify({ text: 'bonjour', language: 'fr' }) };
    const res = await transcribe(t.app, pro.token, [audioFile(SHORT_CLIP)]);
    expect(res.status, res.text).toBe(200);
    expect(res.body).toEqual({ text: 'bonjour', language: 'fr', duration_ms: 2990 });
    expect(fake.received[0]!.fields).toEqual({ model: 'test-model', response_format: 'json' });

    // An empty field, as an HTML form sends it, and "und" (undetermined) count as no language.
    for (const language of ['', 'und']) {
      fake.received.length = 0;
      const blank = await transcribe(t.app, pro.token, [audioFile(SHORT_CLIP), { name: 'language', value: language }]);
      expect(blank.status, language).toBe(200);
      expect(fake.received[0]!.fields).toEqual({ model: 'test-model', response_format: 'json' });
    }

    fake.behaviour = { kind: 'answer', status: 200, body: JSON.stringify({ text: 'hello', language: 'english' }) };
    const named = await transcribe(t.app, pro.token, [audioFile(SHORT_CLIP)]);
    expect(named.body.language).toBeNull();
  });

  it('answers 422 transcription_failed when the service answers 500, without passing its body on', async () => {
    fake.behaviour = { kind: 'answer', status: 500, body: JSON.stringify({ error: { message: 'internal secret detail' } }) };
    const res = await transcribe(t.app, pro.token, [audioFile(SHORT_CLIP)]);
    expect(res.status).toBe(422);
    expect(res.body).toEqual({ error: 'transcription_failed', message: 'the transcription service answered HTTP 500' });
    expect(res.text).not.toContain('secret');
  });

  /** Another app on the same database (so the same users), with other transcription settings. */
  async function withApp(options: Parameters<typeof createTestApp>[1], use: (app: TestApp) => Promise<void>): Promise<void> {
    const app = await createTestApp(dialect, { ...options, db: t.db, voice: { tempRoot: temp.dir, ...options?.voice } });
    try {
      await use(app);
    } finally {
      await app.close();
    }
  }

  it('answers 422 transcription_failed when the service does not answer in time', async () => {
    fake.behaviour = { kind: 'hang' };
    const openai = { baseUrl: fake.baseUrl, apiKey: undefined, model: 'whisper-1' };
    await withApp({ transcribe: { engine: 'openai', openai }, voice: { openaiTimeoutMs: 1000 } }, async (app) => {
      const res = await transcribe(app.app, pro.token, [audioFile(SHORT_CLIP)]);
      expect(res.status).toBe(422);
      expect(res.body).toEqual({ error: 'transcription_failed', message: 'the transcription service did not answer within 1 s' });
      expect(fake.received).toHaveLength(1);
      expect(fake.received[0]!.authorization).toBeUndefined();
    });
  });

  it('answers 422 when the answer has no text', async () => {
    for (const body of ['not json', '{"words":[]}', '[]']) {
      fake.behaviour = { kind: 'answer', status: 200, body };
      const res = await transcribe(t.app, pro.token, [audioFile(SHORT_CLIP)]);
      expect(res.status, body).toBe(422);
      expect(res.body.message).toMatch(/without a text/);
    }
  });

  it('transcribes any language: the English-only rule belongs to the offline engine', async () => {
    const res = await transcribe(t.app, pro.token, [audioFile(SHORT_CLIP), { name: 'language', value: 'de' }]);
    expect(res.status, res.text).toBe(200);
    expect(fake.received[0]!.fields.language).toBe('de');
  });

  it('still answers 415 for a file that is not audio, without calling the service', async () => {
    const res = await transcribe(t.app, pro.token, [{ name: 'file', file: Buffer.from('plain text'), filename: 'a.txt' }]);
    expect(res.status).toBe(415);
    expect(fake.received).toHaveLength(0);
  });

  it('stops waiting for the service when the client goes away', async () => {
    fake.behaviour = { kind: 'hang' };
    await withApp({ transcribe: { engine: 'openai', openai: { baseUrl: fake.baseUrl, apiKey: undefined, model: 'whisper-1' } } }, async (app) => {
      await app.app.listen({ port: 0, host: '127.0.0.1' });
      const { port } = app.app.server.address() as AddressInfo;
      const { body, contentType } = await encodeForm([audioFile(SHORT_CLIP)]);
      const client = new AbortController();
      const request = fetch(`http://127.0.0.1:${port}/api/v1/voice/transcribe`, {
        method: 'POST',
        headers: { authorization: `Bearer ${pro.token}`, 'content-type': contentType },
        body,
        signal: client.signal,
      }).catch((error: unknown) => error);
      expect(await until(() => fake.received.length === 1)).toBe(true);
      client.abort();
      expect(await request).toBeInstanceOf(Error);
      expect(await until(() => fake.abandoned === 1)).toBe(true);
      expect(await until(() => temp.entries().length === 0)).toBe(true);
    });
  });

  it('answers 422 when the service cannot be reached', async () => {
    const gone = new FakeTranscriptionServer();
    await gone.start();
    const baseUrl = gone.baseUrl;
    await gone.stop();
    await withApp({ transcribe: { engine: 'openai', openai: { baseUrl, apiKey: undefined, model: 'whisper-1' } } }, async (app) => {
      const res = await transcribe(app.app, pro.token, [audioFile(SHORT_CLIP)]);
      expect(res.status).toBe(422);
      expect(res.body).toEqual({ error: 'transcription_failed', message: 'could not reach the transcription service' });
    });
  });
});
