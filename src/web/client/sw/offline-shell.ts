import { shell } from './shell-manifest.js';

declare const self: ServiceWorkerGlobalScope;

/** The list pages' last copies; the page script deletes this cache at sign-out. */
const PAGES = 'cin-pages';
const LIST_PAGES = ['/', '/upcoming', '/inbox'];
const SHELL_PREFIX = 'cin-shell-';

/*
 * App shell: the hashed stylesheet and script and the icons are cached at install and served from
 * the cache; a list page (Today, Upcoming, Inbox) is fetched from the network first and its last
 * copy kept, so with no network the page opens as it was last seen and its capture box queues
 * captures (the page script's offline outbox) until the network is back.
 */
export function installOfflineShell(): void {
  self.addEventListener('install', (event) => {
    event.waitUntil(
      caches
        .open(shell.cache)
        .then((cache) => cache.addAll(shell.assets))
        .then(() => self.skipWaiting()),
    );
  });

  self.addEventListener('activate', (event) => {
    // Older shells (other hashes) go; the pages' copies stay.
    event.waitUntil(
      caches
        .keys()
        .then((names) => Promise.all(names.filter((name) => name.startsWith(SHELL_PREFIX) && name !== shell.cache).map((name) => caches.delete(name))))
        .then(() => self.clients.claim()),
    );
  });

  self.addEventListener('fetch', (event) => {
    const request = event.request;
    if (request.method !== 'GET') return;
    const url = new URL(request.url);
    if (url.origin !== self.location.origin) return;
    if (shell.assets.includes(url.pathname)) {
      event.respondWith(caches.match(request).then((hit) => hit ?? fetch(request)));
      return;
    }
    if (request.mode !== 'navigate' || !LIST_PAGES.includes(url.pathname)) return;
    event.respondWith(
      fetch(request).then(
        (response) => {
          // Only a page as the signed-in user sees it (a redirect to sign in is not kept).
          if (response.ok && !response.redirected) {
            const copy = response.clone();
            void caches.open(PAGES).then((cache) => cache.put(url.pathname, copy));
          }
          return response;
        },
        () => lastCopy(url.pathname),
      ),
    );
  });
}

/** The page's last copy, else the Inbox's or Today's, else a plain answer that says why there is none. */
async function lastCopy(path: string): Promise<Response> {
  const cache = await caches.open(PAGES);
  const hit = (await cache.match(path)) ?? (await cache.match('/inbox')) ?? (await cache.match('/'));
  return (
    hit ??
    new Response('You are offline, and this page was not opened on this device before.', {
      status: 503,
      headers: { 'content-type': 'text/plain; charset=utf-8' },
    })
  );
}
