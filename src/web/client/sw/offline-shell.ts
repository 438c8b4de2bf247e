import { shell } from './shell-manifest.js';

declare const self: ServiceWorkerGlobalScope;

/** The pages' last copies; the page script deletes this cache at sign-out. */
const PAGES = 'cin-pages';
/** The app's offline page, kept with the pages (it shows the signed-in user's navigation). */
const OFFLINE_PAGE = '/offline';
const SHELL_PREFIX = 'cin-shell-';

/** The pages kept for offline reading: the lists, the projects, and every project and item page opened. */
function keptPage(path: string): boolean {
  return /^\/(?:|upcoming|inbox|projects|projects\/[^/]+|inbox\/items\/[^/]+)$/.test(path);
}

/*
 * App shell: the hashed stylesheet and script and the icons are cached at install and served from
 * the cache; a page the user opens (Today, Upcoming, the Inbox, a project, an item: keptPage) is
 * fetched from the network first and its last copy kept, so with no network it opens as it was last
 * seen, read-only, its captures and actions waiting in the page script's outbox (decision 0085).
 * Any other page, or one never opened here, shows the app's offline page, never the browser's.
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
    if (request.mode !== 'navigate') return;
    const kept = keptPage(url.pathname);
    event.respondWith(
      fetch(request).then(
        (response) => {
          // Only a page as the signed-in user sees it (a redirect to sign in is not kept).
          if (kept && response.ok && !response.redirected) {
            const copy = response.clone();
            event.waitUntil(keepCopy(url.pathname, copy));
          }
          return response;
        },
        () => lastCopy(kept ? url.pathname : null),
      ),
    );
  });
}

/** Keeps the page's copy, and the offline page once (in the same user's cache, cleared at sign-out). */
async function keepCopy(path: string, copy: Response): Promise<void> {
  const cache = await caches.open(PAGES);
  await cache.put(path, copy);
  if (await cache.match(OFFLINE_PAGE)) return;
  const offline = await fetch(OFFLINE_PAGE, { credentials: 'same-origin' }).catch(() => null);
  if (offline?.ok && !offline.redirected) await cache.put(OFFLINE_PAGE, offline);
}

/** The page's last copy, else the app's offline page, else a plain answer that says why there is none. */
async function lastCopy(path: string | null): Promise<Response> {
  const cache = await caches.open(PAGES);
  const hit = (path === null ? undefined : await cache.match(path)) ?? (await cache.match(OFFLINE_PAGE));
  return (
    hit ??
    new Response('You are offline, and this page was not opened on this device before.', {
      status: 503,
      headers: { 'content-type': 'text/plain; charset=utf-8' },
    })
  );
}
