import { pair, type Scope } from '@capture-inbox/sdk';
import { UsageError, type Command } from '../command.js';
import { openBrowser } from '../open-browser.js';

const SCOPES: readonly Scope[] = ['read', 'capture', 'write', 'webhooks'];
/** A device key's usual need: a calendar app's app password reads and writes (contract "Calendar apps"). */
const DEFAULT_SCOPES: readonly Scope[] = ['read', 'write'];

export const keys: Command = {
  name: 'keys',
  summary: 'make a key for another device or app (e.g. a CalDAV app password)',
  usage: 'cin keys add --label L [--scopes read,write] [--expires DAYS] [--no-browser]',
  manual: `Makes a new API key for a device or an app, e.g. the app password of a calendar app (CalDAV
signs in with any user name and a key holding read and write). A key is only ever made with your
approval: cin prints a link (and opens it when there is a display), you approve in the browser
where you are signed in, and cin prints the new key ONCE on stdout. It is not saved anywhere: copy
it into the app now. cin's own login is not changed.

  --label L         the key's name in your settings, e.g. "Phone calendar" (required)
  --scopes a,b      what it may do: read, capture, write, webhooks (default: read,write); you can
                    untick any on the approval page
  --expires DAYS    the key stops working DAYS whole days after approval (1 to 3650; default:
                    never); the approval page says so
  --no-browser      only print the link

With --json: { token, key_id, scopes, expires_at }. Revoke a key in the web app's Developer
settings when the device is gone, expiring or not.

Example:
  cin keys add --label "Phone calendar" --scopes read,write`,
  subcommands: ['add'],
  options: { label: { type: 'string' }, scopes: { type: 'string' }, 'no-browser': { type: 'boolean' }, expires: { type: 'string' } },
  async run(ctx) {
    const [action, ...rest] = ctx.positionals;
    if (action !== 'add' || rest.length > 0) throw new UsageError('cin keys add --label L [--scopes read,write]');
    const expires = ctx.string('expires');
    const expiresInDays = expires === undefined ? undefined : Number(expires);
    if (expiresInDays !== undefined && !(/^[1-9][0-9]{0,3}$/.test(expires!) && expiresInDays <= 3650))
      throw new UsageError('--expires takes a whole number of days from 1 to 3650');
    const label = ctx.string('label')?.trim();
    if (!label) throw new UsageError('give the key a name: --label "Phone calendar"');
    const scopes = (ctx.string('scopes') ?? DEFAULT_SCOPES.join(','))
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean);
    if (scopes.length === 0 || scopes.some((s) => !SCOPES.includes(s as Scope)))
      throw new UsageError(`--scopes takes a comma-separated list of ${SCOPES.join(', ')}`);
    const server = await ctx.server();
    if (!server) throw new UsageError('which server? give --server URL (or run cin login first)');

    const pairing = await pair({
      baseUrl: server,
      label,
      signal: ctx.io.signal,
      scopes: scopes as Scope[],
      ...(expiresInDays === undefined ? {} : { expiresInDays }),
    });
    ctx.note(`To make the key "${label}" on ${server}, open this link and approve:\n\n  ${pairing.url}\n`);
    if (!ctx.flag('no-browser') && openBrowser(pairing.url, ctx.io.env)) ctx.note('(opened in your browser)');
    ctx.note('Waiting for approval… (Ctrl-C to stop)');
    const key = await pairing.result;
    if (ctx.json) ctx.printJson({ token: key.token, key_id: key.key_id, scopes: key.scopes, expires_at: key.expires_at });
    else {
      ctx.print(key.token);
      const until = key.expires_at ? `; works until ${key.expires_at}` : '';
      ctx.note(`Key "${label}" (${key.key_id}; ${key.scopes.join(', ')}${until}): shown once, copy it now.`);
    }
    return 0;
  },
};
