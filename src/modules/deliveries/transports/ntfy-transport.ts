import type { DeliveryTransport } from './delivery-transport.js';
import type { ChannelTransport } from './target-transport.js';

interface NtfySecrets {
  token?: string;
}

/** RFC 2047 for a header value that is not plain ASCII (ntfy reads it; HTTP headers are Latin-1 at best). */
const headerText = (text: string): string => (/^[\x20-\x7e]*$/.test(text) ? text : `=?UTF-8?B?${Buffer.from(text, 'utf8').toString('base64')}?=`);

/** ntfy: a plain-text POST to the topic URL, through the delivery transport (destination rules hold). */
export function createNtfyTransport(deps: { http: DeliveryTransport }): ChannelTransport {
  return {
    send(target, { deliveryId, content }, stop) {
      const { token } = JSON.parse(target.secret) as NtfySecrets;
      const headers: Record<string, string> = {
        'Content-Type': 'text/plain; charset=utf-8',
        Title: headerText(content.title),
        Click: content.link,
        Tags: 'alarm_clock',
        'X-Service-Delivery': deliveryId,
        ...(token ? { Authorization: `Bearer ${token}` } : {}),
      };
      return deps.http.send({ url: target.url, headers, body: `${content.title}\n${content.line}` }, stop);
    },
  };
}
