import { SMTPServer } from 'smtp-server';
import { waitFor } from './wait.js';

export interface ReceivedMail {
  from: string;
  to: string[];
  /** The message as sent (headers and body). */
  raw: string;
}

/** A real SMTP server on 127.0.0.1 (ephemeral port, no TLS, any login) that keeps what it receives. */
export class SmtpSink {
  readonly mails: ReceivedMail[] = [];
  private server: SMTPServer | undefined;
  port = 0;

  async start(): Promise<this> {
    const server = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS'],
      logger: false,
      onData: (stream, session, callback) => {
        const chunks: Buffer[] = [];
        stream.on('data', (c: Buffer) => chunks.push(c));
        stream.on('end', () => {
          this.mails.push({
            from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
            to: session.envelope.rcptTo.map((r) => r.address),
            raw: Buffer.concat(chunks).toString('utf8'),
          });
          callback();
        });
      },
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const address = server.server.address();
    if (address && typeof address === 'object') this.port = address.port;
    this.server = server;
    return this;
  }

  get url(): string {
    return `smtp://127.0.0.1:${this.port}`;
  }

  async waitFor(count: number, timeoutMs = 15_000): Promise<void> {
    await waitFor(() => this.mails.length >= count, { timeoutMs, intervalMs: 10, what: () => `${count} mails; got ${this.mails.length}` });
  }

  async close(): Promise<void> {
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }
}
