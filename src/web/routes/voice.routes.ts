import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { FastifyPluginAsync } from 'fastify';
import type { Services } from '../../container.js';
import { AppError } from '../../errors.js';
import { RequestWorkspace } from '../../modules/voice/request-workspace.js';
import { MAX_AUDIO_BYTES } from '../../modules/voice/upload-receiver.js';
import { actingUser, overLimit } from '../acting.js';
import { installUploadParser, type UploadBody } from '../upload-form.js';

/** What the capture box's script shows: the text to review, or why there is none. */
type VoiceAnswer = { text: string } | { error: string };

/**
 * Voice capture from the browser: the recording (MediaRecorder) arrives as a form with the CSRF
 * token, the same voice service as POST /api/v1/voice/transcribe turns it into text, and the text
 * goes back to the page, which puts it in the capture box for review. Nothing is saved here.
 */
export const webVoiceRoutes: FastifyPluginAsync<Pick<Services, 'limits' | 'voice'>> = async (app, { limits, voice }) => {
  installUploadParser(app, MAX_AUDIO_BYTES);

  app.post('/inbox/voice', async (request, reply) => {
    const user = actingUser(request);
    const answer = (status: number, body: VoiceAnswer) => reply.status(status).type('application/json; charset=utf-8').send(body);
    if (!user) return answer(401, { error: 'Sign in again to record.' });
    if (user.plan !== 'pro') return answer(402, { error: 'Voice capture is part of the Pro plan.' });
    if (voice.engineName === null)
      // The reason names packages for the administrator (it is logged at start-up); a user is told what to do.
      return answer(503, { error: 'Voice capture is not available on this server yet: type instead, or ask its administrator to turn it on.' });
    const limited = await overLimit(limits, user, reply);
    if (limited) return answer(429, { error: limited });
    const body = request.body as UploadBody | undefined;
    if (!Buffer.isBuffer(body?.file) || body.file.length === 0) return answer(400, { error: 'The recording was empty.' });
    const workspace = new RequestWorkspace(voice.tempRoot);
    reply.raw.on('close', () => {
      if (!reply.raw.writableFinished) workspace.abort();
    });
    try {
      const workDir = await workspace.directory();
      const audioPath = join(workDir, 'upload');
      await writeFile(audioPath, body.file);
      const result = await voice.transcribe({ audioPath, workDir, language: undefined, signal: workspace.signal });
      return answer(200, { text: result.text });
    } catch (error) {
      if (error instanceof AppError && error.statusCode < 500)
        return answer(error.statusCode, { error: `The recording could not be transcribed: ${error.message}.` });
      if (error instanceof AppError) return answer(error.statusCode, { error: `Transcription is unavailable right now: ${error.message}.` });
      throw error;
    } finally {
      await workspace.close();
    }
  });
};
