import { unwrap, type Api } from './transport.js';
import type { Me, MePatch, Tag, Transcription, VoiceCapture } from './types.js';

export function meApi(api: Api) {
  return {
    /** GET /me: the key's user, plan, timezone and the key's scopes. */
    get: (): Promise<Me> => unwrap(api.GET('/api/v1/me')),
    update: (patch: MePatch): Promise<Me> => unwrap(api.PATCH('/api/v1/me', { body: patch })),
    /** GET /me/email: the secret email-in address (mail to it becomes an item); null when the server has email-in off. Needs read. */
    email: (): Promise<{ address: string | null }> => unwrap(api.GET('/api/v1/me/email')),
    /** POST /me/email/rotate: a new email-in address; the old one is rejected from now on. Needs write. */
    rotateEmail: (): Promise<{ address: string | null }> => unwrap(api.POST('/api/v1/me/email/rotate')),
    /** DELETE /me/key: revokes the key this client sends; every later request with it is a 401. Needs no scope. */
    revokeKey: async (): Promise<void> => {
      await unwrap(api.DELETE('/api/v1/me/key'));
    },
  };
}

export function tagsApi(api: Api) {
  return {
    list: (): Promise<Tag[]> => unwrap(api.GET('/api/v1/tags')),
  };
}

interface VoiceOptions {
  language?: string;
  filename?: string;
  idempotencyKey?: string;
}

/** The multipart body both voice routes take: the recording and the form's other fields. */
function voiceForm(file: Blob, options: VoiceOptions, fields: Record<string, string> = {}): FormData {
  const form = new FormData();
  form.append('file', file, options.filename ?? (file instanceof File ? file.name : 'recording'));
  if (options.language) form.append('language', options.language);
  for (const [name, value] of Object.entries(fields)) form.append(name, value);
  return form;
}

const idempotency = (options: VoiceOptions) => (options.idempotencyKey ? { 'idempotency-key': options.idempotencyKey } : {});

export function voiceApi(api: Api) {
  return {
    /** Transcribes a recording (a Blob or File; at most 10 MiB and 10 minutes). Pro. */
    transcribe: (file: Blob, options: VoiceOptions = {}): Promise<Transcription> =>
      unwrap(
        api.POST('/api/v1/voice/transcribe', {
          // The generated body type describes the form's fields; the wire body is the FormData itself.
          body: voiceForm(file, options) as unknown as { file: string },
          bodySerializer: (body) => body,
          params: { header: idempotency(options) },
        }),
      ),
    /** Transcribes a recording and captures it: split into items as a brain dump (the default), or one item with `split: false`. Pro. */
    capture: (file: Blob, options: VoiceOptions & { split?: boolean } = {}): Promise<VoiceCapture> =>
      unwrap(
        api.POST('/api/v1/voice/capture', {
          body: voiceForm(file, options, options.split === undefined ? {} : { split: String(options.split) }) as unknown as { file: string },
          bodySerializer: (body) => body,
          params: { header: idempotency(options) },
        }),
      ),
  };
}

export function datesApi(api: Api) {
  return {
    /** The instant plain words ("tomorrow 5pm") name in the user's zone, by the organizer's rules; ApiError 400 when none. */
    read: (text: string): Promise<{ text: string; due_at: string; all_day: boolean }> => unwrap(api.GET('/api/v1/dates/read', { params: { query: { text } } })),
  };
}
