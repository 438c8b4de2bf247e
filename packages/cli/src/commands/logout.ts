import { ApiError, createClient, NetworkError } from '@capture-inbox/sdk';
import { UsageError, type Command } from '../command.js';
import { forgetLogin, type SavedLogin } from '../config-file.js';

/** What became of the key on the server. */
type Revocation = 'revoked' | 'already_invalid' | 'unreachable' | 'refused';

/** DELETE /me/key with the saved key itself: any key may end itself, whatever its scopes. */
async function revoke(saved: SavedLogin): Promise<{ outcome: Revocation; reason?: string }> {
  try {
    await createClient({ baseUrl: saved.server, token: saved.token, headers: { 'user-agent': 'cin (@capture-inbox/cli)' } }).me.revokeKey();
    return { outcome: 'revoked' };
  } catch (error) {
    if (error instanceof ApiError && error.status === 401) return { outcome: 'already_invalid' };
    if (error instanceof NetworkError) return { outcome: 'unreachable', reason: error.message };
    if (error instanceof ApiError) return { outcome: 'refused', reason: `${error.error}: ${error.message}` };
    throw error;
  }
}

export const logout: Command = {
  name: 'logout',
  summary: 'revoke the saved key on the server and forget it',
  usage: 'cin logout',
  manual: `Revokes the saved key on its server (it stops working at once, for anyone who has a copy)
and deletes the saved login (server, key and key id) from this machine: the default server's, or
with --server that server's. Logins to other servers stay; when the default goes, the server
logged in to before it becomes the default. When the server cannot be reached the login is still
forgotten here, and cin says that the key stays valid until you revoke it under Settings →
Developer in the web app. CAPTURE_INBOX_TOKEN is never revoked: it is not
cin's to end.

Example:
  cin logout`,
  options: {},
  async run(ctx) {
    if (ctx.positionals.length > 0) throw new UsageError('cin logout takes no arguments');
    const server = ctx.namedServer();
    const saved = await ctx.savedLogin().catch(() => undefined);
    const revocation = saved ? await revoke(saved) : undefined;
    // Only this server's login is forgotten; the others stay saved.
    const { forgot: removed, nowDefault } = await forgetLogin(ctx.configPath, saved?.server ?? server);
    if (ctx.json) {
      ctx.printJson({
        logged_out: removed,
        ...(saved
          ? { server: saved.server, key_id: saved.key_id, revoked: revocation?.outcome === 'revoked' || revocation?.outcome === 'already_invalid' }
          : {}),
        ...(revocation && revocation.outcome !== 'revoked' ? { revocation: revocation.outcome } : {}),
        ...(nowDefault ? { default_server: nowDefault } : {}),
      });
      return 0;
    }
    if (!saved || !revocation) {
      ctx.print(removed ? 'Forgot a saved login that could not be read.' : 'No saved login to forget.');
      return 0;
    }
    const forgot = `Forgot the key ${saved.key_id} for ${saved.server}`;
    if (revocation.outcome === 'revoked') ctx.print(`Revoked the key ${saved.key_id} on ${saved.server} and forgot it.`);
    else if (revocation.outcome === 'already_invalid') ctx.print(`${forgot} (the server no longer knew it: it was revoked already).`);
    else {
      ctx.print(`${forgot}.`);
      const why =
        revocation.outcome === 'unreachable'
          ? `the server could not be reached (${revocation.reason ?? ''})`
          : `the server refused (${revocation.reason ?? ''})`;
      ctx.note(`warning: ${why}; the key stays valid until you revoke it in the web app (Settings → Developer).`);
    }
    if (nowDefault) ctx.note(`cin now uses ${nowDefault}, logged in to before.`);
    return 0;
  },
};
