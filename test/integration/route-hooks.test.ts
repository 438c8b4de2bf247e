import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/test-app.js';

/**
 * Each API route's own hooks, as the route markers attach them: `etag: 'item'` (setEtag, and
 * notModified on GET) and `idempotent: true` (readKey, claimKey, keepAnswer, releaseUnanswered).
 * Hooks every request runs (auth, scopes, limits, logging) are anonymous and left out: this list is
 * what a route file's markers add, so a marker that stops working, or a hook attached from afar,
 * shows here.
 */
function routeHooks(printed: string): Record<string, string[]> {
  const routes: Record<string, string[]> = {};
  const path: string[] = [];
  let current: string | undefined;
  for (const line of printed.split('\n')) {
    // A node: its depth is its indent; a line without the branch is the same node's next method.
    const branch = /^([│ ]*)[├└]── (\S+?)(?: \(([A-Z, ]+)\))?$/.exec(line);
    const node = branch ?? /^([│ ]*)(\S+?) \(([A-Z, ]+)\)$/.exec(line);
    if (node) {
      // A next-method line is indented one step deeper than its node.
      const depth = node[1]!.length / 4 - (branch ? 0 : 1);
      path.length = depth;
      path[depth] = node[2]!;
      const url = `/${path.join('')}`.replace('//', '/');
      current = node[3] && node[3] !== 'HEAD' && url.startsWith('/api/v1/') ? `${node[3]} ${url}` : undefined;
      if (current) routes[current] = [];
      continue;
    }
    const hooks = /• \((\w+)\) (\[.*\])/.exec(line);
    if (!current || !hooks) continue;
    const named = (JSON.parse(hooks[2]!) as string[]).filter((name) => name !== 'anonymous()');
    routes[current]!.push(...named.map((name) => `${hooks[1]}:${name.replace('()', '')}`));
  }
  return Object.fromEntries(Object.entries(routes).map(([route, hooks]) => [route, hooks.sort()]));
}

const IDEMPOTENT = ['onResponse:releaseUnanswered', 'onSend:keepAnswer', 'preHandler:claimKey', 'preParsing:readKey'];
const ETAG = ['preSerialization:setEtag'];
const ETAG_GET = ['onSend:notModified', 'preSerialization:setEtag'];

describe('route hooks', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp('sqlite');
    await t.app.ready();
  });
  afterAll(async () => t?.close());

  it('attaches to each API route exactly the hooks its markers ask for', () => {
    const hooks = routeHooks(t.app.printRoutes({ includeHooks: true, commonPrefix: false }));
    const withHooks = Object.fromEntries(Object.entries(hooks).filter(([, list]) => list.length > 0));
    expect(withHooks).toEqual({
      'POST /api/v1/capture': [...ETAG, ...IDEMPOTENT].sort(),
      'GET /api/v1/items/:id': ETAG_GET,
      'PATCH /api/v1/items/:id': ETAG,
      'POST /api/v1/items/:id/toggle': [...ETAG, ...IDEMPOTENT].sort(),
      'POST /api/v1/items/:id/archive': [...ETAG, ...IDEMPOTENT].sort(),
      'POST /api/v1/items/:id/unarchive': [...ETAG, ...IDEMPOTENT].sort(),
      'POST /api/v1/items/:id/organize': [...ETAG, ...IDEMPOTENT].sort(),
      'POST /api/v1/items/bulk': IDEMPOTENT,
      'POST /api/v1/projects': IDEMPOTENT,
      // The upload's own hooks (voice.routes.ts): size limits and the temp directory's clean-up.
      'POST /api/v1/voice/transcribe': [...IDEMPOTENT, 'onRequest:onRequest', 'onSend:onSend', 'preValidation:preValidation'].sort(),
      'POST /api/v1/voice/capture': [...IDEMPOTENT, 'onRequest:onRequest', 'onSend:onSend', 'preValidation:preValidation'].sort(),
      'POST /api/v1/capture/batch': IDEMPOTENT,
      'POST /api/v1/filters': IDEMPOTENT,
      'POST /api/v1/feeds': IDEMPOTENT,
      // The upload receives its file before the key is claimed, and drops it when a replay answers (attachments.routes.ts).
      'POST /api/v1/items/:id/attachments': [...IDEMPOTENT, 'onSend:onSend', 'preValidation:preValidation'].sort(),
      'POST /api/v1/webhooks': IDEMPOTENT,
      'POST /api/v1/webhooks/:id/deliveries/:delivery_id/redeliver': IDEMPOTENT,
      'POST /api/v1/import': IDEMPOTENT,
      'POST /api/v1/items/:id/snooze': [...ETAG, ...IDEMPOTENT].sort(),
      'POST /api/v1/channels': IDEMPOTENT,
      'POST /api/v1/channels/:id/test': IDEMPOTENT,
    });
  });
});
