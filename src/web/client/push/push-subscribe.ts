import { vapidKeyBytes } from './vapid-key.js';

/*
 * Web push for this browser (Notifications page): the service worker subscribes with the
 * server's VAPID key and the subscription is sent to be stored as a webpush channel. Without
 * the Push API (or outside a secure context) the page says what to use instead.
 */
export function installPushSubscribe(): void {
  const card = document.getElementById('push');
  const state = document.getElementById('push-state');
  const button = document.getElementById('push-on') as HTMLButtonElement | null;
  if (!card || !state || !button) return;
  const say = (text: string): void => {
    state.textContent = text;
  };
  if (!window.isSecureContext || !navigator.serviceWorker || !window.PushManager || !window.Notification) {
    say(
      window.isSecureContext
        ? 'This browser has no web push here. On an iPhone or iPad, add this app to the Home Screen and open it from there; elsewhere use an ntfy topic or email below.'
        : 'Web push needs this page over HTTPS. Use an ntfy topic or email below, or open the app at its https:// address.',
    );
    return;
  }
  say(
    Notification.permission === 'denied'
      ? 'Notifications are blocked for this site: allow them in the browser’s site settings, then turn push on.'
      : 'Push is off for this browser.',
  );
  button.hidden = false;
  navigator.serviceWorker
    .register('/sw.js')
    .then((registration) => registration.pushManager.getSubscription())
    .then(
      (subscription) => {
        if (!subscription) return;
        say('This browser is subscribed. Turn push on again if it stopped arriving.');
        button.textContent = 'Subscribe this browser again';
      },
      () => undefined /* the button still tries */,
    );
  button.addEventListener('click', () => {
    button.disabled = true;
    say('Turning push on…');
    subscribe(card).catch((error: unknown) => {
      button.disabled = false;
      const message = error instanceof Error && error.message ? error.message : 'The browser’s push service did not answer.';
      say(`Push could not be turned on. ${message}`);
    });
  });
}

async function subscribe(card: HTMLElement): Promise<void> {
  const permission = await Notification.requestPermission();
  if (permission !== 'granted') throw new Error('Notifications are not allowed for this site: allow them in the browser’s site settings and try again.');
  await navigator.serviceWorker.register('/sw.js');
  const registration = await navigator.serviceWorker.ready;
  const subscription = await registration.pushManager.subscribe({
    userVisibleOnly: true,
    applicationServerKey: vapidKeyBytes(card.getAttribute('data-push-key') ?? ''),
  });
  const res = await fetch('/account/notifications/push', {
    method: 'POST',
    credentials: 'same-origin',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ _csrf: card.getAttribute('data-csrf'), subscription: subscription.toJSON() }),
  });
  if (res.ok) {
    window.location.assign('/account/notifications?done=push');
    return;
  }
  let message: string;
  try {
    message = ((await res.json()) as { message?: string }).message ?? '';
  } catch {
    throw new Error(`The server refused the subscription (HTTP ${res.status}).`);
  }
  throw new Error(message);
}
