import type { AttemptOutcome } from './delivery-transport.js';
import type { MailTransport } from './mail-library.js';
import type { ChannelTransport } from './target-transport.js';

/** Email: to the operator's SMTP_URL, nodemailer loaded at the first mail. */
export function createEmailTransport(deps: { smtpUrl: string | undefined; smtpFrom: string }): ChannelTransport & { close(): void } {
  let mailer: MailTransport | undefined;
  return {
    async send(target, { deliveryId, content }): Promise<AttemptOutcome> {
      if (!deps.smtpUrl || !target.target) return { kind: 'failed', status: 0, reason: 'network_error', detail: 'SMTP_URL is not set' };
      mailer ??= (await import('./mail-library.js')).createMailTransport(deps.smtpUrl);
      try {
        await mailer.sendMail({
          from: deps.smtpFrom,
          to: target.target,
          subject: `Reminder: ${content.title}`,
          text: `${content.title}\n${content.line}\n\n${content.link}\n`,
          // The same Message-ID on every attempt: a mailbox shows a redelivered reminder once.
          messageId: `<${deliveryId}@capture-inbox>`,
        });
        return { kind: 'succeeded', status: 250 };
      } catch (error) {
        const code = (error as { responseCode?: number }).responseCode;
        return { kind: 'failed', status: code ?? 0, reason: code ? 'http_status' : 'network_error', detail: (error as Error).message };
      }
    },
    close() {
      mailer?.close();
    },
  };
}
