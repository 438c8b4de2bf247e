import { Type, type Static } from 'typebox';
import { Nullable, ref } from '../../schemas/common.js';
import { ItemSchema } from '../../schemas/item.js';
import { LANGUAGE_TAG_PATTERN } from './language.js';

/**
 * The multipart form. The file's bytes are streamed to disk while the form is read, so what this
 * schema validates is the form as received: `file` holds the part's file name, present exactly
 * when a file part named `file` arrived.
 */
export const TranscribeForm = Type.Object({
  file: Type.String({
    format: 'binary',
    description: 'the audio: wav, mp3, ogg/opus, webm, m4a/aac, flac or another common container; at most 10 MiB (10,485,760 bytes) and 10 minutes',
  }),
  language: Type.Optional(
    Type.String({
      maxLength: 64,
      pattern: LANGUAGE_TAG_PATTERN,
      description: 'BCP-47 tag of the spoken language (en, en-US, de, …); when absent the engine decides',
    }),
  ),
});
export type TranscribeFormBody = Static<typeof TranscribeForm>;

export const TranscriptionSchema = Type.Object(
  {
    text: Type.String({ description: 'what was said; empty when no speech was recognised' }),
    language: Nullable(Type.String({ description: 'BCP-47 tag: the one asked for, else what the engine reports; null when unknown' })),
    duration_ms: Type.Integer({ minimum: 0, description: 'length of the audio in milliseconds' }),
  },
  { $id: 'Transcription', title: 'Transcription', description: 'the transcription' },
);

const FormFlag = (description: string) => Type.Optional(Type.Boolean({ description: `${description} (true or false)` }));

/** Voice capture's form: transcribe's plus what to do with the transcript. */
export const VoiceCaptureForm = Type.Object({
  ...TranscribeForm.properties,
  split: FormFlag('split the transcript into items as a brain dump does (default true); false captures it as one item, read with quick add'),
  keep_audio: FormFlag('keep the recording as an attachment of every item captured (default false; stored once, counted against the storage quota)'),
});
export type VoiceCaptureFormBody = Static<typeof VoiceCaptureForm>;

export const VoiceCaptureSchema = Type.Object({
  transcript: ref(TranscriptionSchema),
  items: Type.Array(ref(ItemSchema), { description: 'the new items, in the order spoken' }),
  audio_kept: Type.Optional(
    Type.Boolean({
      description:
        'with keep_audio=true only: whether the recording was attached. false when it would pass the storage quota: the items are captured all the same, without it (see audio_problem)',
    }),
  ),
  audio_problem: Type.Optional(Type.String({ description: 'why the recording was not kept, in words (with audio_kept false)' })),
});
