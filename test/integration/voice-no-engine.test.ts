import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../helpers/dialects.js';
import { client, createTestApp, createUser, type TestApp, type TestUser } from '../helpers/test-app.js';
import { makeTempDir, transcribe } from '../helpers/voice.js';

/*
 * A server without ffmpeg or a speech engine (what `npm start` on a bare machine is): it needs no
 * Debian program, so it runs everywhere. The request's own faults are answered as on any server;
 * only a well-formed upload hears that no engine is there.
 */
describe.each(DIALECTS)('POST /api/v1/voice/transcribe with no speech engine (%s)', (dialect) => {
  let t: TestApp;
  let pro: TestUser;
  const temp = makeTempDir('voice-no-engine');

  beforeAll(async () => {
    t = await createTestApp(dialect, { voice: { tempRoot: temp.dir }, transcribe: { searchPath: join(temp.dir, 'no-programs-here') } });
    pro = await createUser(t, 'pro');
  });
  afterAll(async () => {
    await t?.close();
    temp.remove();
  });

  it('has no engine', () => {
    expect(t.services.voice.engineName).toBeNull();
  });

  it('answers a JSON body with 415, as a server with an engine does', async () => {
    const res = await client(t.app, pro.token).post('voice/transcribe', { text: 'not a form' });
    expect(res.status).toBe(415);
    expect(res.body).toEqual({ error: 'unsupported_media_type', message: expect.stringMatching(/multipart\/form-data/) });
  });

  it('answers no body with 400 naming the file field', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/api/v1/voice/transcribe', headers: { authorization: `Bearer ${pro.token}` } });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ error: 'bad_request', details: [{ field: 'file' }] });
  });

  it('answers a well-formed upload with 503 transcription_unavailable naming ffmpeg', async () => {
    const res = await transcribe(t.app, pro.token, [{ name: 'file', file: Buffer.from('RIFF'), filename: 'clip.wav' }]);
    expect(res.status).toBe(503);
    expect(res.body).toEqual({ error: 'transcription_unavailable', message: expect.stringMatching(/ffmpeg/) });
    expect(temp.entries(), 'the refused upload left files behind').toEqual([]);
  });
});
