import webpush from 'web-push';

/*
 * web-push, imported only through `import()` (web-push-transport.ts, vapid-keys.ts): it costs
 * about 12 MB of memory once loaded, and a server sends its first push long after start, if ever.
 * A module of our own is what is imported lazily: `import()` of the CommonJS package itself would
 * give the bundle a default-only namespace.
 */

export const pushRequestDetails = webpush.generateRequestDetails.bind(webpush);

export const newVapidKeys = (): { publicKey: string; privateKey: string } => webpush.generateVAPIDKeys();
