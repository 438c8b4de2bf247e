import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fingerprint } from '../helpers/db-fingerprint.js';
import { DIALECTS } from '../helpers/dialects.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { LIBRIVOX_DIR } from '../helpers/voice.js';
import { csrfOf, signedInBrowser, webClient, type WebClient } from '../helpers/web-client.js';
import { FFMPEG, lacking, POCKETSPHINX } from '../helpers/system-programs.js';

describe.each(DIALECTS)('web app install, share and voice (%s)', (dialect) => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp(dialect);
  });
  afterAll(async () => t?.close());

  it('GET /manifest.webmanifest names PNG icons of their declared sizes and a share target', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/manifest.webmanifest' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('application/manifest+json');
    const manifest = res.json<{ icons: { src: string; sizes: string }[]; share_target: { action: string; method: string }; display: string }>();
    expect(manifest.display).toBe('standalone');
    expect(manifest.share_target).toMatchObject({ action: '/share', method: 'POST', enctype: 'multipart/form-data' });
    expect(manifest.icons.map((i) => i.sizes)).toEqual(['192x192', '512x512']);
    for (const icon of manifest.icons) {
      const png = (await t.app.inject({ method: 'GET', url: icon.src })).rawPayload;
      expect(png.subarray(1, 4).toString('ascii')).toBe('PNG');
      expect(`${png.readUInt32BE(16)}x${png.readUInt32BE(20)}`).toBe(icon.sizes);
    }
    const page = await (await signedInBrowser(t)).web.get('/');
    expect(page.body).toContain('<link rel="manifest" href="/manifest.webmanifest">');
  });

  it('GET /share puts the shared text and URL in the capture box, saving nothing; signed out, it signs in first and comes back', async () => {
    const { web, email } = await signedInBrowser(t);
    const before = await fingerprint(t.services.db);
    const shared = await web.get('/share?title=Article&text=Read+this+https%3A%2F%2Fexample.org%2Fa&url=https%3A%2F%2Fexample.org%2Fa');
    expect(shared.status).toBe(200);
    expect(shared.body).toContain('>Article\nRead this https://example.org/a</textarea>');
    expect(await fingerprint(t.services.db)).toEqual(before);

    const stranger = webClient(t.app);
    const first = await stranger.get('/share?text=Buy+milk');
    expect(first.location).toBe(`/login?next=${encodeURIComponent('/share?text=Buy+milk')}`);
    const signIn = await stranger.submit(first.location!, '/login', { email, password: 'correct horse battery', next: '/share?text=Buy+milk' });
    expect(signIn.location).toBe('/share?text=Buy+milk');
    expect((await stranger.get(signIn.location!)).body).toContain('>Buy milk</textarea>');
  });

  async function postVoice(web: WebClient, audio: Buffer) {
    const page = await web.get('/');
    const form = new FormData();
    form.append('_csrf', csrfOf(page.body));
    form.append('file', new Blob([audio], { type: 'audio/wav' }), 'voice.wav');
    const request = new Request('http://x/', { method: 'POST', body: form });
    const cookie = [...web.jar].map(([k, v]) => `${k}=${v}`).join('; ');
    const res = await t.app.inject({
      method: 'POST',
      url: '/inbox/voice',
      payload: Buffer.from(await request.arrayBuffer()),
      headers: { cookie, 'content-type': request.headers.get('content-type')! },
    });
    return { status: res.statusCode, body: res.json<{ text?: string; error?: string }>() };
  }

  it('POST /inbox/voice is Pro: a free user is told so', async () => {
    const { web } = await signedInBrowser(t);
    const res = await postVoice(web, Buffer.from('RIFF'));
    expect(res).toEqual({ status: 402, body: { error: 'Voice capture is part of the Pro plan.' } });
  });

  it.skipIf(lacking(FFMPEG, POCKETSPHINX))(
    'POST /inbox/voice answers the transcription for review, saving nothing',
    async () => {
      const { web, userId } = await signedInBrowser(t);
      await t.services.users.setPlanById(userId, 'pro');
      // CI installs pocketsphinx (.ci/run); the offline engine transcribes the recorded English.
      expect(t.services.voice.engineName).not.toBeNull();
      const clip = join(LIBRIVOX_DIR, 'sense_and_sensibility_01_austen_64kb-0870.wav');
      const before = await fingerprint(t.services.db);
      const res = await postVoice(web, readFileSync(clip));
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(res.body.text!.split(' ').length).toBeGreaterThan(3);
      expect(await fingerprint(t.services.db)).toEqual(before);
    },
    60_000,
  );

  it('without a speech engine, the page says so on the record button and the upload answers 503 with the reason', async () => {
    const bare = await createTestApp(dialect, { transcribe: { searchPath: '/nonexistent-for-test' } });
    try {
      expect(bare.services.voice.engineName).toBeNull();
      const { web, userId } = await signedInBrowser(bare);
      await bare.services.users.setPlanById(userId, 'pro');
      expect((await web.get('/')).body).toContain(
        'data-voice-unavailable="Voice capture is not available on this server yet: type instead, or ask its administrator to turn it on.',
      );
      const page = await web.get('/');
      const form = new FormData();
      form.append('_csrf', csrfOf(page.body));
      form.append('file', new Blob([Buffer.from('RIFF')], { type: 'audio/wav' }), 'voice.wav');
      const request = new Request('http://x/', { method: 'POST', body: form });
      const res = await bare.app.inject({
        method: 'POST',
        url: '/inbox/voice',
        payload: Buffer.from(await request.arrayBuffer()),
        headers: { cookie: [...web.jar].map(([k, v]) => `${k}=${v}`).join('; '), 'content-type': request.headers.get('content-type')! },
      });
      expect(res.statusCode).toBe(503);
      // Said to an end user: what to do, not which Debian package the administrator lacks.
      expect(res.json().error).toBe('Voice capture is not available on this server yet: type instead, or ask its administrator to turn it on.');
      expect(res.json().error).not.toContain('apt-get');
    } finally {
      await bare.close();
    }
  });
});
