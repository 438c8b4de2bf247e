import { writeFile } from 'node:fs/promises';
import { basename } from 'node:path';
import { UsageError, type Command } from '../command.js';
import { resolveItemId } from '../resolve.js';

const sizeText = (bytes: number): string =>
  bytes < 1024 ? `${bytes} B` : bytes < 1024 * 1024 ? `${(bytes / 1024).toFixed(1)} KB` : `${(bytes / (1024 * 1024)).toFixed(1)} MB`;

export const attach: Command = {
  name: 'attach',
  summary: 'attach a file to an item',
  usage: 'cin attach ID FILE',
  manual: `Uploads FILE (streamed from disk) as an attachment of the item and prints the attachment's id.
At most 5 MiB a file on Free, 25 MiB on Pro; the server reads the type from the bytes.

Example:
  cin attach 0190f5e2 receipt.pdf`,
  options: {},
  async run(ctx) {
    if (ctx.positionals.length !== 2) throw new UsageError('an item ID and a FILE are required');
    const [given, path] = ctx.positionals as [string, string];
    const inbox = await ctx.client();
    const id = await resolveItemId(inbox, given);
    const attachment = await inbox.attachments.upload(id, { path }, { filename: basename(path) });
    if (ctx.json) ctx.printJson(attachment);
    else ctx.print(`${attachment.id}  ${attachment.filename}  ${sizeText(attachment.size)}  ${attachment.content_type}`);
    return 0;
  },
};

export const getAttachment: Command = {
  name: 'get-attachment',
  summary: "download an attachment's file",
  usage: 'cin get-attachment ID [-o FILE]',
  manual: `Downloads the attachment ID (as cin show --json lists them) to FILE, or to stdout when -o is
not given or is -.

  -o, --output FILE   where to write the file

Example:
  cin get-attachment 0190f5e2-… -o receipt.pdf`,
  options: { output: { type: 'string', short: 'o' } },
  async run(ctx) {
    if (ctx.positionals.length !== 1) throw new UsageError('one attachment ID is required');
    const inbox = await ctx.client();
    const { blob } = await inbox.attachments.download(ctx.positionals[0]!);
    const bytes = new Uint8Array(await blob.arrayBuffer());
    const output = ctx.string('output');
    if (output === undefined || output === '-') ctx.io.stdout.write(bytes);
    else await writeFile(output, bytes);
    return 0;
  },
};
