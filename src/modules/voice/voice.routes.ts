import { join } from 'node:path';
import multipart from '@fastify/multipart';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Services } from '../../container.js';
import { errorResponses, ref } from '../../schemas/common.js';
import { RequestWorkspace } from './request-workspace.js';
import { checkFormHeaders, FORM_LIMITS, receiveAudioForm } from './upload-receiver.js';
import { TranscribeForm, TranscriptionSchema, type TranscribeFormBody } from './voice.schemas.js';

declare module 'fastify' {
  interface FastifyRequest {
    voiceWorkspace: RequestWorkspace | null;
    /** Where the received file is, once the form has been read. */
    voiceUpload: { audioPath: string; workDir: string } | null;
  }
}

/** Error answers whose shared description says too little (or speaks of JSON bodies) here. */
const described = (status: 413 | 415 | 422 | 503, description: string) => ({ [status]: { ...errorResponses(status)[status], description } });

export const voiceRoutes: FastifyPluginAsyncTypebox<Pick<Services, 'voice'>> = async (app, { voice }) => {
  // Only this scope reads multipart/form-data (and no JSON): every other route still answers a
  // non-JSON body with 415.
  app.removeAllContentTypeParsers();
  await app.register(multipart, { limits: FORM_LIMITS, throwFileSizeLimit: true });
  // Any other body is left unread here and refused with 415 after the Pro gate has had its say.
  app.addContentTypeParser('*', (_request, _payload, done) => {
    done(null, undefined);
  });
  app.decorateRequest('voiceWorkspace', null);
  app.decorateRequest('voiceUpload', null);

  app.post(
    '/voice/transcribe',
    {
      config: { scope: 'capture', pro: true, idempotent: true },
      schema: {
        tags: ['voice'],
        operationId: 'transcribeVoice',
        summary: 'Transcribe an audio file to text (Pro)',
        description:
          'Upload audio as multipart/form-data (`file`, optional `language`). The upload is streamed and refused with 413 as soon as it passes 10 MiB. ' +
          '415 when the file is not readable audio, 422 when the engine cannot transcribe it (or, offline, the language is not English), ' +
          '503 when no speech engine is available or every transcription slot stays busy.',
        body: { content: { 'multipart/form-data': { schema: TranscribeForm } } },
        response: {
          200: ref(TranscriptionSchema, 'the transcription'),
          ...errorResponses(400, 401, 402, 429),
          ...described(413, 'the file is over 10 MiB or the audio over 10 minutes (payload_too_large)'),
          ...described(415, 'not multipart/form-data, or the file is not audio that can be read (unsupported_media_type)'),
          ...described(422, 'the engine failed on the audio, or the offline engine was asked for a language other than English (transcription_failed)'),
          ...described(503, 'no speech engine is available, or every transcription slot stayed busy; then with Retry-After (transcription_unavailable)'),
        },
      },
      // Runs after authentication, the rate limit and the Pro gate of the enclosing scope.
      onRequest: async (request, reply) => {
        const workspace = new RequestWorkspace(voice.tempRoot);
        request.voiceWorkspace = workspace;
        // 'close' comes after a finished response too; without 'finish' first, the client left.
        reply.raw.on('close', () => {
          if (!reply.raw.writableFinished) workspace.abort();
          void workspace.close();
        });
      },
      preValidation: async (request) => {
        // The request's own faults first (415 for a JSON body, 413, 400), then the server's (503).
        checkFormHeaders(request);
        voice.assertAvailable();
        const workspace = request.voiceWorkspace!;
        const workDir = await workspace.directory();
        const audioPath = join(workDir, 'upload');
        const form = await receiveAudioForm(request, audioPath);
        request.voiceUpload = { audioPath, workDir };
        // The form as the schema validates it. Unknown fields are ignored, and an empty language
        // (what an HTML form sends for a blank input) is no language.
        const { language } = form.fields;
        request.body = { ...(form.file ? { file: form.file.filename } : {}), ...(language ? { language } : {}) };
      },
      // Before the answer goes out, so a client that has it can rely on the files being gone.
      onSend: async (request) => {
        await request.voiceWorkspace?.close();
      },
    },
    async (request) =>
      voice.transcribe({ ...request.voiceUpload!, language: (request.body as TranscribeFormBody).language, signal: request.voiceWorkspace!.signal }),
  );
};
