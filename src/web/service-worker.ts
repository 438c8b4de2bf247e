import { SCRIPT, STYLESHEET } from './assets.js';
import { CLIENT } from './client-bundle.js';

/*
 * The service worker as served at /sw.js (so its scope is the whole app): the worker bundled from
 * src/web/client/sw, after the one thing it learns from the server, this release's shell (the
 * hashed stylesheet and script). Its cache name changes with them, so a release replaces the
 * cached shell; the bytes of sw.js change too, which is what makes the browser install the new worker.
 */
// The worker reads it as its ShellManifest (src/web/client/sw/shell-manifest.ts).
const SHELL = {
  cache: `cin-shell-${STYLESHEET.path.slice(-16, -4)}${SCRIPT.path.slice(-15, -3)}`,
  assets: [STYLESHEET.path, SCRIPT.path, '/icons/icon-192.png', '/manifest.webmanifest'],
};

export const SERVICE_WORKER = `var CIN_SHELL = ${JSON.stringify(SHELL)};\n${CLIENT.serviceWorker}`;
