import type { MailTransport } from './mail-library.js';
import type { AttemptOutcome, DeliveryTransport } from './delivery-transport.js';
import type { NotificationContent } from '../notification-content.js';
import type { ChannelKind } from '../channels.repository.js';

/*
 * One send per channel kind. Push and ntfy go through the webhooks' delivery transport, so every
 * channel URL meets the destination rules at connect (addresses pinned, private ranges refused);
 * mail goes to the operator's SMTP_URL. Each answers the webhooks' AttemptOutcome.
 */

export interface VapidKeys {
  publicKey: string;
  privateKey: string;
}

export interface PushSecrets {
  p256dh: string;
  auth: string;
}

export interface NtfySecrets {
  token?: string;
}

export interface ChannelMessage {
  kind: ChannelKind;
  url: string;
  /** The channel's public part: the email address for email. */
  target: string | null;
  secrets: string;
  /** The same on every attempt of one delivery (the event id): receivers can drop repeats. */
  deliveryId: string;
  content: NotificationContent;
}

export interface ChannelSenders {
  send(message: ChannelMessage, stop?: AbortSignal): Promise<AttemptOutcome>;
  close(): void;
}

/** RFC 2047 for a header value that is not plain ASCII (ntfy reads it; HTTP headers are Latin-1 at best). */
const headerText = (text: string): string => (/^[\x20-\x7e]*$/.test(text) ? text : `=?UTF-8?B?${Buffer.from(text, 'utf8').toString('base64')}?=`);

export function createChannelSenders(deps: {
  transport: DeliveryTransport;
  vapid: () => Promise<VapidKeys>;
  /** VAPID `sub`: a mailto: or https: URL where the push service can reach the operator. */
  vapidSubject: string;
  smtpUrl: string | undefined;
  smtpFrom: string;
}): ChannelSenders {
  let mailer: MailTransport | undefined;

  async function sendPush(m: ChannelMessage, stop?: AbortSignal): Promise<AttemptOutcome> {
    const keys = JSON.parse(m.secrets) as PushSecrets;
    const vapid = await deps.vapid();
    const payload = JSON.stringify({ id: m.deliveryId, title: m.content.title, body: m.content.line, url: m.content.link });
    const { pushRequestDetails } = await import('./push-library.js');
    const details = pushRequestDetails({ endpoint: m.url, keys }, payload, {
      vapidDetails: { subject: deps.vapidSubject, publicKey: vapid.publicKey, privateKey: vapid.privateKey },
      contentEncoding: 'aes128gcm',
      TTL: 24 * 3600,
      urgency: 'high',
      // A retried delivery replaces the earlier message still queued at the push service.
      topic: m.deliveryId.replace(/-/g, ''),
    });
    const headers = Object.fromEntries(Object.entries(details.headers).map(([k, v]) => [k, String(v)]));
    return deps.transport.send({ url: details.endpoint, headers, body: details.body ?? Buffer.alloc(0) }, stop);
  }

  async function sendNtfy(m: ChannelMessage, stop?: AbortSignal): Promise<AttemptOutcome> {
    const { token } = JSON.parse(m.secrets) as NtfySecrets;
    const headers: Record<string, string> = {
      'Content-Type': 'text/plain; charset=utf-8',
      Title: headerText(m.content.title),
      Click: m.content.link,
      Tags: 'alarm_clock',
      'X-Service-Delivery': m.deliveryId,
      ...(token ? { Authorization: `Bearer ${token}` } : {}),
    };
    return deps.transport.send({ url: m.url, headers, body: `${m.content.title}\n${m.content.line}` }, stop);
  }

  async function sendMail(m: ChannelMessage): Promise<AttemptOutcome> {
    if (!deps.smtpUrl || !m.target) return { kind: 'failed', status: 0, reason: 'network_error', detail: 'SMTP_URL is not set' };
    mailer ??= (await import('./mail-library.js')).createMailTransport(deps.smtpUrl);
    try {
      await mailer.sendMail({
        from: deps.smtpFrom,
        to: m.target,
        subject: `Reminder: ${m.content.title}`,
        text: `${m.content.title}\n${m.content.line}\n\n${m.content.link}\n`,
        // The same Message-ID on every attempt: a mailbox shows a redelivered reminder once.
        messageId: `<${m.deliveryId}@capture-inbox>`,
      });
      return { kind: 'succeeded', status: 250 };
    } catch (error) {
      const code = (error as { responseCode?: number }).responseCode;
      return { kind: 'failed', status: code ?? 0, reason: code ? 'http_status' : 'network_error', detail: (error as Error).message };
    }
  }

  return {
    send(m, stop) {
      if (m.kind === 'webpush') return sendPush(m, stop);
      if (m.kind === 'ntfy') return sendNtfy(m, stop);
      return sendMail(m);
    },
    close() {
      mailer?.close();
    },
  };
}
