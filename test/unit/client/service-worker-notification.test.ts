import { describe, expect, it } from 'vitest';
import { clickTarget, notificationOf, readPayload } from '../../../src/web/client/sw/notification.js';
import { vapidKeyBytes } from '../../../src/web/client/push/vapid-key.js';

describe('the service worker’s push notifications', () => {
  it('shows a reminder’s title and body, tagged with its item, opening its page', () => {
    const payload = readPayload(JSON.stringify({ id: 'i-1', title: 'Call Ada', body: 'Due 9:00', url: 'https://inbox.example/items/i-1' }));
    expect(notificationOf(payload)).toEqual({
      title: 'Call Ada',
      options: { body: 'Due 9:00', tag: 'i-1', icon: '/icons/icon-192.png', data: { url: 'https://inbox.example/items/i-1' } },
    });
  });

  it('shows a message that is not JSON as the body of an app notification', () => {
    expect(notificationOf(readPayload('plain words'))).toEqual({
      title: 'Capture Inbox',
      options: { body: 'plain words', tag: undefined, icon: '/icons/icon-192.png', data: { url: '/' } },
    });
    expect(readPayload(null)).toEqual({});
    expect(readPayload('42')).toEqual({});
  });

  it('opens the link’s path at the worker’s own origin (PUBLIC_URL may name another address)', () => {
    expect(clickTarget('https://inbox.example/items/i-1?from=push', 'http://127.0.0.1:3000')).toBe('http://127.0.0.1:3000/items/i-1?from=push');
    expect(clickTarget(undefined, 'http://127.0.0.1:3000')).toBe('http://127.0.0.1:3000/');
  });
});

describe('the VAPID key for PushManager.subscribe', () => {
  it('decodes base64url without padding to the key’s bytes', () => {
    const bytes = Uint8Array.from({ length: 65 }, (_, i) => (i * 37 + 250) % 256);
    const text = Buffer.from(bytes).toString('base64url');
    expect(text).not.toContain('=');
    expect([...vapidKeyBytes(text)]).toEqual([...bytes]);
  });
});
