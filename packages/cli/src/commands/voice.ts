import { basename } from 'node:path';
import { UsageError, type Command } from '../command.js';
import { printItem } from './item-command.js';
import { readInput } from './read-file.js';

export const voice: Command = {
  name: 'voice',
  summary: 'transcribe a recording; --add captures the text',
  usage: 'cin voice FILE [--add]',
  manual: `Sends the recording (wav, mp3, ogg/opus, webm, m4a, flac…; at most 10 MiB and 10 minutes) to
the server's transcription and prints the text. Pro.

  --add             capture the text as a new item and print the item

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
    const item = await inbox.items.capture({ text: transcription.text });
    if (ctx.json) ctx.printJson({ transcription, item });
    else await printItem(ctx, inbox, item, 'added');
    return 0;
  },
};
