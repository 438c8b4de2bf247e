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

/** How long the browser's push service may take to answer before the page says it is unreachable. */
const PUSH_SERVICE_WAIT_MS = 10_000;
/** A refusal this fast, from a permission never asked, was not the user's: the browser refused without asking. */
const UNASKED_MS = 300;

const UNREACHABLE =
  'The push service is unreachable: the browser could not register with it (no connection to it, or it is blocked here). Try again later, or use an ntfy topic or email below.';

/** `promise`, or a rejection saying the push service is unreachable once it took too long (issue 47 item 10: never a spinner forever). */
function withinPushWait<T>(promise: Promise<T>): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(UNREACHABLE)), PUSH_SERVICE_WAIT_MS);
    promise.then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      (error: unknown) => {
        clearTimeout(timer);
        // Chromium's "Registration failed - push service error" (an AbortError) is the same cause.
        reject(error instanceof DOMException && error.name === 'AbortError' ? new Error(UNREACHABLE) : error);
      },
    );
  });
}

async function subscribe(card: HTMLElement): Promise<void> {
  const before = Notification.permission;
  const asked = performance.now();
  const permission = await Notification.requestPermission();
  if (permission !== 'granted') {
    // A private window refuses at once, with no prompt shown: say that, not "not allowed".
    if (before === 'default' && permission === 'denied' && performance.now() - asked < UNASKED_MS) {
      throw new Error(
        'Push is not available in a private window: the browser refused without asking. Open the app in a normal window, or use an ntfy topic or email below.',
      );
    }
    throw new Error('Notifications are not allowed for this site: allow them in the browser’s site settings and try again.');
  }
  await navigator.serviceWorker.register('/sw.js');
  const registration = await withinPushWait(navigator.serviceWorker.ready);
  const subscription = await withinPushWait(
    registration.pushManager.subscribe({
      userVisibleOnly: true,
      applicationServerKey: vapidKeyBytes(card.getAttribute('data-push-key') ?? ''),
    }),
  );
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
