import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../helpers/dialects.js';
import { createTestApp, createUser, type TestApp, type TestUser } from '../helpers/test-app.js';
import { audioFile, convert, librivoxClips, makeTempDir, transcribe, wordErrors, words, type Container } from '../helpers/voice.js';
import { FFMPEG, lacking, POCKETSPHINX } from '../helpers/system-programs.js';

/*
 * Accuracy of the offline engine on real human speech: the LibriVox clips of Debian's
 * pocketsphinx-testdata (Jane Austen read aloud, with reference transcripts), converted into
 * several containers in a temp directory and sent through the HTTP route like any client would.
 *
 * Measured on Debian 12's pocketsphinx 0.8+5prealpha with pocketsphinx-en-us, 71 reference words
 * per container: wav 27 errors (WER 38.0 %), mp3 24 (33.8 %), ogg 26 (36.6 %). The bound leaves
 * room for encoder and library differences, while a broken decode (wrong rate, channels,
 * truncation) lands far above it.
 */
const WER_BOUND = 0.45;

// Transcription does not touch the database beyond authentication; one dialect is enough for
// this CPU-heavy test (the route's behaviour is tested on every dialect in voice.test.ts).
const dialect = DIALECTS[0] ?? 'sqlite';

describe.skipIf(lacking(FFMPEG, POCKETSPHINX))(`POST /api/v1/voice/transcribe accuracy with pocketsphinx (${dialect})`, () => {
  let t: TestApp;
  let pro: TestUser;
  const temp = makeTempDir('voice-accuracy');

  beforeAll(async () => {
    t = await createTestApp(dialect);
    pro = await createUser(t, 'pro');
  });
  afterAll(async () => {
    await t?.close();
    temp.remove();
  });

  it('uses the offline engine here (pocketsphinx and its English model are installed)', () => {
    expect(t.services.voice.unavailableReason).toBeNull();
    expect(t.services.voice.engineName).toBe('pocketsphinx');
  });

  it.each(['wav', 'mp3', 'ogg'] satisfies Container[])(
    'keeps the word error rate of %s uploads under the bound',
    async (container) => {
      const clips = librivoxClips();
      expect(clips).toHaveLength(5);
      let errors = 0;
      let total = 0;
      const lines: string[] = [];
      for (const clip of clips) {
        const file = await convert(clip.path, container, temp.dir, clip.id);
        const res = await transcribe(t.app, pro.token, [audioFile(file), { name: 'language', value: 'en' }]);
        expect(res.status, res.text).toBe(200);
        expect(res.body.language).toBe('en');
        const reference = words(clip.reference);
        const clipErrors = wordErrors(reference, words(res.body.text));
        errors += clipErrors;
        total += reference.length;
        lines.push(`  ${clip.id.slice(-4)} ${clipErrors}/${reference.length}: ${res.body.text}`);
      }
      const wer = errors / total;
      console.log(`[voice accuracy] ${container}: WER ${(wer * 100).toFixed(1)} % (${errors} errors in ${total} words)\n${lines.join('\n')}`);
      expect(wer).toBeLessThan(WER_BOUND);
    },
    240_000,
  );

  it.each(['opus', 'webm', 'm4a', 'aac', 'flac'] satisfies Container[])(
    'reads %s as well',
    async (container) => {
      const clip = librivoxClips().find((c) => c.id.endsWith('-0920'))!;
      const file = await convert(clip.path, container, temp.dir, clip.id);
      const res = await transcribe(t.app, pro.token, [audioFile(file)]);
      expect(res.status, res.text).toBe(200);
      expect(res.body.duration_ms).toBeGreaterThan(5900);
      expect(res.body.duration_ms).toBeLessThan(6200);
      const reference = words(clip.reference);
      const wer = wordErrors(reference, words(res.body.text)) / reference.length;
      console.log(`[voice accuracy] ${container}, clip 0920: WER ${(wer * 100).toFixed(1)} %: ${res.body.text}`);
      expect(wer).toBeLessThan(WER_BOUND);
    },
    120_000,
  );
});
