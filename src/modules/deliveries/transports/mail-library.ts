import nodemailer, { type Transporter } from 'nodemailer';

/* nodemailer, imported only through `import()` on the first email sent (about 5 MB; see push-library.ts). */

export type MailTransport = Transporter;

export const createMailTransport = (smtpUrl: string): MailTransport => nodemailer.createTransport(smtpUrl);
