import { SCRIPT, STYLESHEET } from './assets.js';

/*
 * The service worker, served at /sw.js so its scope is the whole app. Plain ES5-style like
 * script.ts (no build step). One section a job, each with its own listeners, so another job (web
 * push: a `push` and a `notificationclick` listener) is added as one more section beside them.
 *
 * - App shell: the hashed stylesheet and script and the icons are cached at install and served from
 *   the cache; a list page (Today, Upcoming, Inbox) is fetched from the network first and its last
 *   copy kept, so with no network the page opens as it was last seen and its capture box queues
 *   captures (script.ts) until the network is back. Signing out deletes the copies.
 * - Web push: a reminder's payload is JSON { id, title, body, url } (docs/reminders.md); it shows
 *   as a notification, and a click opens the item's page in this app.
 */
const SHELL_ASSETS = [STYLESHEET.path, SCRIPT.path, '/icons/icon-192.png', '/manifest.webmanifest'];

export const SERVICE_WORKER = `
var SHELL = 'cin-shell-${STYLESHEET.path.slice(-16, -4)}${SCRIPT.path.slice(-15, -3)}';
var PAGES = 'cin-pages';
var ASSETS = ${JSON.stringify(SHELL_ASSETS)};
var LIST_PAGES = ['/', '/upcoming', '/inbox'];

// --- App shell --------------------------------------------------------------------------------
self.addEventListener('install', function (event) {
  event.waitUntil(caches.open(SHELL).then(function (cache) { return cache.addAll(ASSETS); }).then(function () { return self.skipWaiting(); }));
});

self.addEventListener('activate', function (event) {
  // Older shells (other hashes) go; the pages' copies stay.
  event.waitUntil(caches.keys().then(function (names) {
    return Promise.all(names.filter(function (n) { return n.indexOf('cin-shell-') === 0 && n !== SHELL; }).map(function (n) { return caches.delete(n); }));
  }).then(function () { return self.clients.claim(); }));
});

self.addEventListener('fetch', function (event) {
  var request = event.request;
  if (request.method !== 'GET') return;
  var url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  if (ASSETS.indexOf(url.pathname) >= 0) {
    event.respondWith(caches.match(request).then(function (hit) { return hit || fetch(request); }));
    return;
  }
  if (request.mode !== 'navigate' || LIST_PAGES.indexOf(url.pathname) < 0) return;
  event.respondWith(fetch(request).then(function (response) {
    // Only a page as the signed-in user sees it (a redirect to sign in is not kept).
    if (response.ok && !response.redirected) {
      var copy = response.clone();
      caches.open(PAGES).then(function (cache) { return cache.put(url.pathname, copy); });
    }
    return response;
  }, function () {
    return caches.open(PAGES).then(function (cache) {
      return cache.match(url.pathname).then(function (hit) { return hit || cache.match('/inbox'); }).then(function (hit) { return hit || cache.match('/'); });
    }).then(function (hit) {
      return hit || new Response('You are offline, and this page was not opened on this device before.', { status: 503, headers: { 'content-type': 'text/plain; charset=utf-8' } });
    });
  }));
});

// --- Web push ---------------------------------------------------------------------------------
self.addEventListener('push', function (event) {
  var data = {};
  try { data = event.data ? event.data.json() : {}; } catch (e) { data = { body: event.data ? event.data.text() : '' }; }
  event.waitUntil(self.registration.showNotification(data.title || 'Capture Inbox', {
    body: data.body || '',
    tag: data.id || undefined,
    icon: '/icons/icon-192.png',
    data: { url: data.url || '/' },
  }));
});

self.addEventListener('notificationclick', function (event) {
  event.notification.close();
  // The link names PUBLIC_URL; when that is another address of this server, its path opens here.
  var link = new URL((event.notification.data && event.notification.data.url) || '/', self.location.origin);
  var target = self.location.origin + link.pathname + link.search;
  event.waitUntil(self.clients.matchAll({ type: 'window', includeUncontrolled: true }).then(function (windows) {
    // A window already on the item is brought forward; another page (perhaps with a draft) is left as it is.
    for (var i = 0; i < windows.length; i += 1) {
      if (windows[i].url === target && 'focus' in windows[i]) return windows[i].focus();
    }
    return self.clients.openWindow(target);
  }));
});
`;
