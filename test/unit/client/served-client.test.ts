import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { SCRIPT, STYLESHEET } from '../../../src/web/assets.js';
import { SERVICE_WORKER } from '../../../src/web/service-worker.js';

/*
 * The browser code as the server serves it (bundled from src/web/client by esbuild, decision
 * 0068): classic scripts, ASCII only, and a service worker that knows this release's shell.
 */
describe('the served browser code', () => {
  it('serves the page script under a content-hashed URL, as one classic script', () => {
    expect(SCRIPT.path).toMatch(/^\/assets\/app\.[0-9a-f]{12}\.js$/);
    expect(SCRIPT.type).toBe('text/javascript; charset=utf-8');
    // No module syntax: a plain <script src> (and a classic service worker) runs it.
    expect(SCRIPT.body).not.toMatch(/^\s*(import|export)\s/m);
    expect(SCRIPT.body).toContain('data-offline-queue');
  });

  it('writes both scripts in ASCII, whatever characters their messages hold', () => {
    for (const text of [SCRIPT.body, SERVICE_WORKER]) expect(/[\u0080-\uffff]/.exec(text)).toBeNull();
  });

  it('gives the service worker this release’s shell, whose cache name changes with the hashed files', () => {
    const listeners = new Map<string, unknown>();
    const context = {
      self: {
        addEventListener: (type: string, listener: unknown) => listeners.set(type, listener),
        location: { origin: 'http://127.0.0.1' },
      },
    };
    runInNewContext(SERVICE_WORKER, context);
    const shell = (context as unknown as { CIN_SHELL: { cache: string; assets: string[] } }).CIN_SHELL;
    expect(shell.assets).toEqual([STYLESHEET.path, SCRIPT.path, '/icons/icon-192.png', '/manifest.webmanifest']);
    expect(shell.cache).toBe(`cin-shell-${STYLESHEET.path.slice(-16, -4)}${SCRIPT.path.slice(-15, -3)}`);
    expect([...listeners.keys()].sort()).toEqual(['activate', 'fetch', 'install', 'notificationclick', 'push']);
  });
});
