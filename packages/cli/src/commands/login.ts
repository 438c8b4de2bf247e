import { hostname } from 'node:os';
import { createClient, pair, type Scope } from '@capture-inbox/sdk';
import { UsageError, type Command } from '../command.js';
import { saveLogin } from '../config-file.js';
import { openBrowser } from '../open-browser.js';

const SCOPES: readonly Scope[] = ['read', 'capture', 'write', 'webhooks'];
/** What a day at the terminal needs; webhooks are for programs and asked for by name. */
const DEFAULT_SCOPES: readonly Scope[] = ['read', 'capture', 'write'];

export const login: Command = {
  name: 'login',
  summary: 'connect cin to your inbox (approve in the browser)',
  usage: 'cin login [--server URL] [--label L] [--scopes a,b] [--no-browser]',
  manual: `Asks the server for a key through the browser: cin prints a link (and opens it when there is a
display), you approve in the browser where you are signed in, and cin saves the server, the key
and its id to $XDG_CONFIG_HOME/capture-inbox/config.json (default ~/.config/...), readable by you
only (mode 0600). Nothing is saved unless you approve. The link works for 10 minutes.

Each server keeps its own key: a login to another server saves its key beside the others and
makes it the default; --server picks a server logged in to before, with its own key.

  --server URL      the server (default: CAPTURE_INBOX_URL, else the last one logged in to)
  --label L         the key's name in your settings (default: "cin on <this host>")
  --scopes a,b      what the key may do: read, capture, write, webhooks (default: read,capture,write,
                    all cin's commands need); you can untick any of them on the approval page
  --no-browser      only print the link (for another device, or ssh)

Denied: exit 1 with "error access_denied: ...". Expired: exit 1 with "error expired: ...".
Ctrl-C stops waiting; nothing is saved.

Example:
  cin login --server https://inbox.example.com --scopes read,capture`,
  options: {
    label: { type: 'string' },
    scopes: { type: 'string' },
    'no-browser': { type: 'boolean' },
  },
  async run(ctx) {
    if (ctx.positionals.length > 0) throw new UsageError('cin login takes no arguments');
    const server = await ctx.server();
    if (!server) throw new UsageError('which server? give --server URL (or set CAPTURE_INBOX_URL)');
    const scopes = ctx
      .string('scopes')
      ?.split(',')
      .map((s) => s.trim())
      .filter(Boolean);
    const unknown = scopes?.filter((s) => !SCOPES.includes(s as Scope)) ?? [];
    if (scopes?.length === 0 || unknown.length > 0) throw new UsageError(`--scopes takes a comma-separated list of ${SCOPES.join(', ')}`);
    const label = ctx.string('label') ?? `cin on ${hostname()}`;

    const pairing = await pair({ baseUrl: server, label, signal: ctx.io.signal, scopes: scopes ? (scopes as Scope[]) : [...DEFAULT_SCOPES] });
    ctx.note(`To connect cin to ${server}, open this link and approve:\n\n  ${pairing.url}\n`);
    if (!ctx.flag('no-browser') && openBrowser(pairing.url, ctx.io.env)) ctx.note('(opened in your browser)');
    ctx.note('Waiting for approval… (Ctrl-C to stop)');
    const key = await pairing.result;

    await saveLogin(ctx.configPath, { server, token: key.token, key_id: key.key_id });
    const me = await createClient({ baseUrl: server, token: key.token }).me.get();
    if (ctx.json) ctx.printJson({ server, email: me.email, key_id: key.key_id, scopes: key.scopes, config: ctx.configPath });
    else ctx.print(`Logged in to ${server} as ${me.email} (key ${key.key_id}; ${key.scopes.join(', ')}).`);
    return 0;
  },
};
