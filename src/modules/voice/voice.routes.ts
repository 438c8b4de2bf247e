import { createReadStream } from 'node:fs';
import { join } from 'node:path';
import multipart from '@fastify/multipart';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Services } from '../../container.js';
import type { VoiceService } from './voice.service.js';
import { errorResponses, ref } from '../../schemas/common.js';
import { RequestWorkspace } from './request-workspace.js';
import { checkFormHeaders, FORM_LIMITS, receiveAudioForm } from './upload-receiver.js';
import {
  TranscribeForm,
  TranscriptionSchema,
  VoiceCaptureForm,
  VoiceCaptureSchema,
  type TranscribeFormBody,
  type VoiceCaptureFormBody,
} from './voice.schemas.js';
import { AppError } from '../../errors.js';
import { authUser } from '../../plugins/auth.js';
import { grants } from '../keys/scopes.js';

declare module 'fastify' {
  interface FastifyRequest {
    voiceWorkspace: RequestWorkspace | null;
    /** Where the received file is, once the form has been read. */
    voiceUpload: { audioPath: string; workDir: string } | null;
  }
}

/** Error answers whose shared description says too little (or speaks of JSON bodies) here. */
const described = (status: 413 | 415 | 422 | 503, description: string) => ({ [status]: { ...errorResponses(status)[status], description } });

/**
 * The hooks of a route that takes an audio upload (transcribe, voice capture): a workspace per
 * request, the form streamed to disk with the request's faults checked first, the files gone
 * before the answer leaves. `body` makes the validated body from the form's text fields.
 */
function audioUpload(voice: VoiceService, body: (fields: Record<string, string>) => Record<string, unknown>) {
  return {
    // Runs after authentication, the rate limit and the Pro gate of the enclosing scope.
    onRequest: async (request: FastifyRequest, reply: FastifyReply) => {
      const workspace = new RequestWorkspace(voice.tempRoot);
      request.voiceWorkspace = workspace;
      // 'close' comes after a finished response too; without 'finish' first, the client left.
      reply.raw.on('close', () => {
        if (!reply.raw.writableFinished) workspace.abort();
        void workspace.close();
      });
    },
    preValidation: async (request: FastifyRequest) => {
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
      request.body = { ...(form.file ? { file: form.file.filename } : {}), ...body(form.fields) };
    },
    // Before the answer goes out, so a client that has it can rely on the files being gone.
    onSend: async (request: FastifyRequest) => {
      await request.voiceWorkspace?.close();
    },
  };
}

export const voiceRoutes: FastifyPluginAsyncTypebox<Pick<Services, 'voice' | 'capture' | 'batchCapture' | 'attachments'>> = async (
  app,
  { voice, capture, batchCapture, attachments },
) => {
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
      ...audioUpload(voice, (fields) => ({ ...(fields.language ? { language: fields.language } : {}) })),
    },
    async (request) =>
      voice.transcribe({ ...request.voiceUpload!, language: (request.body as TranscribeFormBody).language, signal: request.voiceWorkspace!.signal }),
  );

  app.post(
    '/voice/capture',
    {
      config: { scope: 'capture', pro: true, idempotent: true },
      schema: {
        tags: ['voice'],
        operationId: 'captureVoice',
        summary: 'Capture a recording as items (Pro)',
        description:
          'Takes the upload POST /voice/transcribe takes, transcribes it and captures the transcript: split into items as POST /capture/batch ' +
          'splits a text (`split`, default true), or as one item read with quick add (`split=false`). Answers 201 `{ transcript, items }`. ' +
          'A recording with no speech is 422 and captures nothing. `keep_audio=true` attaches the recording to every item captured (stored once); when ' +
          'that would pass the storage quota the items are captured without it and the answer says `audio_kept: false`.',
        body: { content: { 'multipart/form-data': { schema: VoiceCaptureForm } } },
        response: {
          201: { ...VoiceCaptureSchema, description: 'the transcription and the new items' },
          ...errorResponses(400, 401, 402, 429),
          ...described(413, 'the file is over 10 MiB or the audio over 10 minutes (payload_too_large)'),
          ...described(415, 'not multipart/form-data, or the file is not audio that can be read (unsupported_media_type)'),
          ...described(422, 'the engine failed on the audio or heard no speech (transcription_failed)'),
          ...described(503, 'no speech engine is available, or every transcription slot stayed busy; then with Retry-After (transcription_unavailable)'),
        },
      },
      ...audioUpload(voice, (fields) => ({
        ...(fields.language ? { language: fields.language } : {}),
        ...formFlag('split', fields.split),
        ...formFlag('keep_audio', fields.keep_audio),
      })),
    },
    async (request, reply) => {
      const body = request.body as VoiceCaptureFormBody;
      const transcript = await voice.transcribe({ ...request.voiceUpload!, language: body.language, signal: request.voiceWorkspace!.signal });
      if (transcript.text.trim() === '') throw new AppError('transcription_failed', 'no speech was recognised in the recording: nothing was captured');
      const user = authUser(request);
      const items =
        body.split === false
          ? [(await capture.capture(user, { text: transcript.text, parse: true })).item]
          : await batchCapture.captureBatch(user, { text: transcript.text });
      if (body.keep_audio) {
        const adder = { user, canWrite: request.keyScopes === null || grants(request.keyScopes, 'write') };
        const kept = [];
        try {
          for (const item of items) {
            const source = createReadStream(request.voiceUpload!.audioPath);
            kept.push((await attachments.add(adder, item.id, { source, filename: body.file })).item);
          }
        } catch (error) {
          // The items are stored already, and what was said matters more than the recording: a full
          // storage keeps the capture and answers that the audio was not kept (decision 0097).
          if (!(error instanceof AppError) || error.code !== 'storage_quota_exceeded') throw error;
          const rest = items.slice(kept.length);
          return reply.status(201).send({ transcript, items: [...kept, ...rest], audio_kept: false, audio_problem: error.message });
        }
        return reply.status(201).send({ transcript, items: kept, audio_kept: true });
      }
      return reply.status(201).send({ transcript, items });
    },
  );
};

const FLAG_WORDS = new Map([
  ['true', true],
  ['1', true],
  ['on', true],
  ['false', false],
  ['0', false],
  ['off', false],
]);

/** A form's yes/no field as the schema takes it: true/false (1/0, on/off as HTML sends them); anything else is left for the schema to refuse. */
function formFlag(name: string, value: string | undefined): Record<string, boolean | string> {
  if (value === undefined || value === '') return {};
  return { [name]: FLAG_WORDS.get(value.toLowerCase()) ?? value };
}
