import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { DIALECTS } from '../helpers/dialects.js';
import { client, createTestApp, createUser, type TestApp, type TestUser } from '../helpers/test-app.js';
import { audioFile, LIBRIVOX_DIR, makeTempDir, transcribe, until } from '../helpers/voice.js';
import { FFMPEG, lacking, POCKETSPHINX } from '../helpers/system-programs.js';

// Real ffmpeg and pocketsphinx processes: on a busy machine they take a while.
vi.setConfig({ testTimeout: 90_000 });

const TEN_MIB = 10 * 1024 * 1024;
/** 2.99 s of a man reading "he was not an ill disposed young man". */
const SHORT_CLIP = join(LIBRIVOX_DIR, 'sense_and_sensibility_01_austen_64kb-0880.wav');

describe.skipIf(lacking(FFMPEG, POCKETSPHINX)).each(DIALECTS)('POST /api/v1/voice/transcribe (%s)', (dialect) => {
  let t: TestApp;
  let free: TestUser;
  let pro: TestUser;
  // The service's temp root for this file: every request must leave it empty.
  const temp = makeTempDir('voice-route');
  // Files the tests make (inputs, a bin directory); never inside the service's root.
  const inputs = makeTempDir('voice-inputs');
  const extraApps: TestApp[] = [];

  beforeAll(async () => {
    t = await createTestApp(dialect, { voice: { tempRoot: temp.dir } });
    free = await createUser(t, 'free');
    pro = await createUser(t, 'pro');
  });
  afterEach(() => {
    expect(temp.entries(), 'a request left files behind').toEqual([]);
  });
  afterAll(async () => {
    await Promise.all([t?.close(), ...extraApps.map((a) => a.close())]);
    temp.remove();
    inputs.remove();
  });

  async function otherApp(options: Parameters<typeof createTestApp>[1]): Promise<{ app: TestApp; user: TestUser }> {
    const app = await createTestApp(dialect, { ...options, voice: { tempRoot: temp.dir, ...options?.voice } });
    extraApps.push(app);
    return { app, user: await createUser(app, 'pro') };
  }

  describe('plans and authentication', () => {
    it('answers 402 pro_required to a free user', async () => {
      const res = await transcribe(t.app, free.token, [audioFile(SHORT_CLIP)]);
      expect(res.status).toBe(402);
      expect(res.body).toEqual({ error: 'pro_required', message: expect.stringMatching(/Pro plan/) });
    });

    it('answers 402 to a free user whatever the body is', async () => {
      const res = await client(t.app, free.token).post('voice/transcribe', { text: 'not a form' });
      expect(res.status).toBe(402);
    });

    it('answers 401 without a key', async () => {
      const res = await transcribe(t.app, undefined, [audioFile(SHORT_CLIP)]);
      expect(res.status).toBe(401);
    });
  });

  describe('transcription with the offline engine', () => {
    it('transcribes English speech and reports language and duration', async () => {
      const res = await transcribe(t.app, pro.token, [audioFile(SHORT_CLIP)]);
      expect(res.status, res.text).toBe(200);
      expect(res.body).toEqual({ text: expect.any(String), language: 'en', duration_ms: 2990 });
      expect(res.body.text).toMatch(/^he was not an? .*young man$/);
    });

    it('answers in the canonical form of the language tag it was given, whatever the order of the parts', async () => {
      const res = await transcribe(t.app, pro.token, [{ name: 'language', value: 'en-gb' }, audioFile(SHORT_CLIP), { name: 'note', value: 'ignored' }]);
      expect(res.status, res.text).toBe(200);
      expect(res.body.language).toBe('en-GB');
      const after = await transcribe(t.app, pro.token, [audioFile(SHORT_CLIP), { name: 'language', value: 'EN' }]);
      expect(after.body.language).toBe('en');
    });

    it('answers 422 transcription_failed for another language, saying the offline engine is English only', async () => {
      const res = await transcribe(t.app, pro.token, [audioFile(SHORT_CLIP), { name: 'language', value: 'de-DE' }]);
      expect(res.status).toBe(422);
      expect(res.body).toEqual({ error: 'transcription_failed', message: expect.stringMatching(/English only.*de-DE/) });
    });

    it('answers 200 with empty text for audio without samples', async () => {
      const silence = join(inputs.dir, 'empty.wav');
      // A valid WAV header announcing no data.
      const header = Buffer.alloc(44);
      header.write('RIFF', 0, 'ascii');
      header.writeUInt32LE(36, 4);
      header.write('WAVEfmt ', 8, 'ascii');
      header.writeUInt32LE(16, 16);
      header.writeUInt16LE(1, 20);
      header.writeUInt16LE(1, 22);
      header.writeUInt32LE(16000, 24);
      header.writeUInt32LE(32000, 28);
      header.writeUInt16LE(2, 32);
      header.writeUInt16LE(16, 34);
      header.write('data', 36, 'ascii');
      writeFileSync(silence, header);
      const res = await transcribe(t.app, pro.token, [audioFile(silence, 'empty.wav')]);
      expect(res.status, res.text).toBe(200);
      expect(res.body).toEqual({ text: '', language: 'en', duration_ms: 0 });
    });
  });

  describe('bad input', () => {
    it('answers 400 when the form has no file part', async () => {
      const res = await transcribe(t.app, pro.token, [{ name: 'language', value: 'en' }]);
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ error: 'bad_request', details: [{ field: 'file', message: 'is required' }] });
      expect((await transcribe(t.app, pro.token, [])).status).toBe(400);
    });

    it('answers 400 when file is a text field rather than an upload', async () => {
      const res = await transcribe(t.app, pro.token, [{ name: 'file', value: 'hello' }]);
      expect(res.status).toBe(400);
      expect(res.body.message).toMatch(/file upload/);
    });

    it('answers 400 when the audio is in a part not named file', async () => {
      const res = await transcribe(t.app, pro.token, [{ ...audioFile(SHORT_CLIP), name: 'audio' }]);
      expect(res.status).toBe(400);
      expect(res.body.message).toMatch(/named file/);
    });

    it('answers 413 to a second file part', async () => {
      const res = await transcribe(t.app, pro.token, [audioFile(SHORT_CLIP), { ...audioFile(SHORT_CLIP), filename: 'again.wav' }]);
      expect(res.status).toBe(413);
      expect(res.body.message).toMatch(/one file/);
    });

    it('answers 400 for a language that is not a BCP-47 tag', async () => {
      for (const language of ['en_US', 'english please', '12', 'x', 'en-', 'a'.repeat(65)]) {
        const res = await transcribe(t.app, pro.token, [audioFile(SHORT_CLIP), { name: 'language', value: language }]);
        expect(res.status, language).toBe(400);
        expect(res.body.details).toContainEqual(expect.objectContaining({ field: 'language' }));
      }
    });

    it('answers 400 to a POST without a body, and to a broken multipart body', async () => {
      const api = client(t.app, pro.token);
      expect((await api.post('voice/transcribe')).status).toBe(400);
      const broken = await api.post('voice/transcribe', '--x\r\nContent-Disposition: form-data; name="file"; filename="a.wav"\r\n\r\nabc', {
        'content-type': 'multipart/form-data; boundary=x',
      });
      expect(broken.status).toBe(400);
      expect(broken.body.error).toBe('bad_request');
      const noBoundary = await api.post('voice/transcribe', 'abc', { 'content-type': 'multipart/form-data' });
      expect(noBoundary.status).toBe(400);
    });

    it('answers 415 to a body that is not multipart/form-data', async () => {
      const api = client(t.app, pro.token);
      for (const [body, type] of [
        ['{"file":"x"}', 'application/json'],
        ['file=x', 'application/x-www-form-urlencoded'],
        ['RIFF', 'audio/wav'],
      ] as const) {
        const res = await api.post('voice/transcribe', body, { 'content-type': type });
        expect(res.status, type).toBe(415);
        expect(res.body).toEqual({ error: 'unsupported_media_type', message: expect.stringMatching(/multipart\/form-data/) });
      }
    });

    it('answers 415 to a file that is not audio', async () => {
      const png = Buffer.from('89504e470d0a1a0a0000000d4948445200000001000000010806000000', 'hex');
      const files = [
        { name: 'file', file: Buffer.from('just some text, not audio\n'), filename: 'notes.txt' },
        { name: 'file', file: png, filename: 'image.png' },
        { name: 'file', file: Buffer.alloc(0), filename: 'empty.wav' },
        // A playlist would make ffmpeg open other files or URLs; such formats are refused outright.
        { name: 'file', file: Buffer.from('#EXTM3U\n#EXTINF:10,\nfile:///etc/hostname\n#EXT-X-ENDLIST\n'), filename: 'list.wav' },
      ];
      for (const file of files) {
        const res = await transcribe(t.app, pro.token, [file]);
        expect(res.status, file.filename).toBe(415);
        expect(res.body).toEqual({ error: 'unsupported_media_type', message: expect.stringMatching(/not audio/) });
      }
    });

    it('accepts a file of exactly 10 MiB and answers 413 to one byte more', async () => {
      // Zeros are not audio, so a file that passes the size check is answered 415 by the decoder.
      const exact = await transcribe(t.app, pro.token, [{ name: 'file', file: Buffer.alloc(TEN_MIB), filename: 'exact.bin' }]);
      expect(exact.status).toBe(415);
      const over = await transcribe(t.app, pro.token, [{ name: 'file', file: Buffer.alloc(TEN_MIB + 1), filename: 'over.bin' }]);
      expect(over.status).toBe(413);
      expect(over.body).toEqual({ error: 'payload_too_large', message: expect.stringMatching(/10 MiB/) });
      expect(over.headers.connection).toBe('close');
    });

    it('answers 413 to audio longer than the service transcribes', async () => {
      const { app, user } = await otherApp({ voice: { maxAudioMs: 2000 } });
      const res = await transcribe(app.app, user.token, [audioFile(SHORT_CLIP)]);
      expect(res.status).toBe(413);
      expect(res.body).toEqual({ error: 'payload_too_large', message: expect.stringMatching(/longer than 2 s/) });
    });
  });

  describe('without a speech engine', () => {
    it('answers 503 transcription_unavailable, while /readyz and the rest of the API keep working', async () => {
      const { app, user } = await otherApp({ transcribe: { searchPath: join(inputs.dir, 'nothing-here') } });
      expect(app.services.voice.engineName).toBeNull();
      const res = await transcribe(app.app, user.token, [audioFile(SHORT_CLIP)]);
      expect(res.status).toBe(503);
      expect(res.body).toEqual({ error: 'transcription_unavailable', message: expect.stringMatching(/ffmpeg/) });
      expect((await app.app.inject({ method: 'GET', url: '/readyz' })).statusCode).toBe(200);
      expect((await client(app.app, user.token).post('capture', { text: 'still works' })).status).toBe(201);
    });

    it('answers 503 naming pocketsphinx when it is chosen but not installed', async () => {
      const bin = join(inputs.dir, 'bin');
      mkdirSync(bin);
      symlinkSync('/usr/bin/ffmpeg', join(bin, 'ffmpeg'));
      const { app, user } = await otherApp({ transcribe: { engine: 'pocketsphinx', searchPath: bin } });
      const res = await transcribe(app.app, user.token, [audioFile(SHORT_CLIP)]);
      expect(res.status).toBe(503);
      expect(res.body.message).toMatch(/pocketsphinx is not installed/);
    });
  });

  describe('bounded work', () => {
    /** Takes the only slot until release() is called; the test, not a transcription, holds it. */
    function holdSlot(app: TestApp): { release(): void; done: Promise<void> } {
      let release = (): void => undefined;
      const held = new Promise<void>((resolve) => {
        release = resolve;
      });
      return { release, done: app.services.voice.limiter.run(() => held) };
    }

    async function whileSlotHeld(app: TestApp, use: () => Promise<void>): Promise<void> {
      const slot = holdSlot(app);
      try {
        await use();
      } finally {
        slot.release();
        await slot.done;
      }
    }

    it('answers 503 with Retry-After when no slot frees up in time, and lists stay fast meanwhile', async () => {
      const { app, user } = await otherApp({ voice: { concurrency: 1, queueWaitMs: 50 } });
      await whileSlotHeld(app, async () => {
        const res = await transcribe(app.app, user.token, [audioFile(SHORT_CLIP)]);
        expect(res.status).toBe(503);
        expect(res.body).toEqual({ error: 'transcription_unavailable', message: expect.stringMatching(/busy/) });
        expect(res.headers['retry-after']).toBe('30');
        expect((await client(app.app, user.token).get('items')).status).toBe(200);
      });
    });

    it('refuses at once when the queue is full', async () => {
      const { app, user } = await otherApp({ voice: { concurrency: 1, maxWaiting: 0 } });
      await whileSlotHeld(app, async () => {
        const res = await transcribe(app.app, user.token, [audioFile(SHORT_CLIP)]);
        expect(res.status).toBe(503);
        expect(res.body.message).toMatch(/queue is full/);
      });
    });

    it('lets a waiting request run once the slot frees, while other routes answer', async () => {
      const { app, user } = await otherApp({ voice: { concurrency: 1 } });
      const slot = holdSlot(app);
      const pending = transcribe(app.app, user.token, [audioFile(SHORT_CLIP)]);
      expect(await until(() => app.services.voice.limiter.waiting === 1)).toBe(true);
      const api = client(app.app, user.token);
      expect((await api.post('capture', { text: 'captured while audio waits' })).status).toBe(201);
      expect((await api.get('items')).body.items).toHaveLength(1);
      expect(app.services.voice.limiter.waiting).toBe(1);
      slot.release();
      await slot.done;
      const res = await pending;
      expect(res.status, res.text).toBe(200);
      expect(res.body.duration_ms).toBe(2990);
    });
  });
});
