import { basename } from 'node:path';
import { planCapture, printCaptured } from '../capture-flow.js';
import { CliError, UsageError, type Command } from '../command.js';
import { readInput } from './read-file.js';

export const voice: Command = {
  name: 'voice',
  summary: 'transcribe a recording; --add captures the text',
  usage: 'cin voice FILE [--add]',
  manual: `Sends the recording (wav, mp3, ogg/opus, webm, m4a, flac…; at most 10 MiB and 10 minutes) to
the server's transcription and prints the text. Pro.

  --add             capture the text as a new item and print the item; when no speech was heard,
                    nothing is captured and cin exits 1 (error nothing_heard)

Example:
  cin voice memo.m4a --add`,
  options: { add: { type: 'boolean' } },
  async run(ctx) {
    if (ctx.positionals.length !== 1) throw new UsageError('one FILE is required');
    const path = ctx.positionals[0]!;
    const bytes = await readInput(ctx, path);
    const inbox = await ctx.client();
    const transcription = await inbox.voice.transcribe(new Blob([new Uint8Array(bytes)]), { filename: path === '-' ? 'recording' : basename(path) });
    if (!ctx.flag('add')) {
      if (ctx.json) ctx.printJson(transcription);
      else ctx.print(transcription.text);
      return 0;
    }
    // Silence transcribes to "": say that plainly rather than the validator's "fewer than 1 characters".
    if (transcription.text.trim() === '')
      throw new CliError('nothing_heard', `no speech was heard in ${path === '-' ? 'the recording' : path}; nothing was captured`);
    const plan = await planCapture(ctx, inbox, { tags: [] });
    const item = await inbox.items.capture({ text: transcription.text });
    if (ctx.json) ctx.printJson({ transcription, item });
    else printCaptured(ctx, item, plan);
    return 0;
  },
};
