/** The service worker's cache of list pages (src/web/client/sw/shell-cache.ts). */
const PAGES_CACHE = 'cin-pages';

/*
 * The service worker (sw.js) keeps the app shell and the last list pages for offline use; signing
 * out deletes those copies, and so does the sign-in page (someone else may sign in here).
 */
export function installOfflinePages(): void {
  if (navigator.serviceWorker && window.isSecureContext) navigator.serviceWorker.register('/sw.js').catch(() => undefined /* online-only then */);
  document.querySelectorAll('form[action="/logout"]').forEach((form) => {
    form.addEventListener('submit', () => {
      if (window.caches) void caches.delete(PAGES_CACHE);
    });
  });
  if (window.caches && document.querySelector('form[action="/login"]')) void caches.delete(PAGES_CACHE);
}
