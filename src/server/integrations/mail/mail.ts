import nodemailer from 'nodemailer';
import type { Database } from '../../db/client';
import { mailOutbox } from '../../db/schema';
import type { Logger } from '../../logger';

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
}

/** The mail port: verification and invitation emails go through it. */
export interface MailPort {
  readonly kind: 'outbox' | 'smtp';
  send(message: MailMessage): Promise<void>;
}

/** Default adapter: keeps messages in the database outbox, where a person or a test can read them. */
export function createOutboxMail(db: Database, logger: Logger): MailPort {
  return {
    kind: 'outbox',
    async send(message) {
      const [row] = await db
        .insert(mailOutbox)
        .values({ toAddress: message.to, subject: message.subject, textBody: message.text })
        .returning({ id: mailOutbox.id });
      logger.info({ mailId: row.id }, 'mail stored in outbox');
    },
  };
}

/** SMTP adapter, chosen when SMTP_URL is set (e.g. smtp://user:pass@host:587). */
export function createSmtpMail(smtpUrl: string, from: string, logger: Logger): MailPort {
  const transport = nodemailer.createTransport(smtpUrl);
  return {
    kind: 'smtp',
    async send(message) {
      const info = await transport.sendMail({ from, to: message.to, subject: message.subject, text: message.text });
      logger.info({ messageId: info.messageId }, 'mail sent over SMTP');
    },
  };
}
