import { clickTarget, notificationOf, readPayload } from './notification.js';

declare const self: ServiceWorkerGlobalScope;

/** Web push: a reminder shows as a notification, and a click opens the item's page in this app. */
export function installPushNotifications(): void {
  self.addEventListener('push', (event) => {
    const { title, options } = notificationOf(readPayload(event.data ? event.data.text() : null));
    event.waitUntil(self.registration.showNotification(title, options));
  });

  self.addEventListener('notificationclick', (event) => {
    event.notification.close();
    const data = event.notification.data as { url?: string } | null;
    const target = clickTarget(data?.url, self.location.origin);
    event.waitUntil(
      self.clients.matchAll({ type: 'window', includeUncontrolled: true }).then((windows) => {
        // A window already on the item is brought forward; another page (perhaps with a draft) is left as it is.
        const open = windows.find((client) => client.url === target);
        return open ? open.focus() : self.clients.openWindow(target);
      }),
    );
  });
}
