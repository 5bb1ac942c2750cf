/**
 * The mail port: SIA sends e-mail through it and nothing else. Two adapters share one message builder
 * (nodemailer's): SMTP when SMTP_URL is set, otherwise the outbox, a folder of RFC 822 .eml files under
 * DATA_DIR/outbox that administrators read in the app.
 */
import type { Integration } from "../integration";

export interface MailAttachment {
  filename: string;
  content: string | Buffer;
  contentType?: string;
}

export interface MailMessage {
  to: string | string[];
  subject: string;
  text: string;
  html?: string;
  attachments?: MailAttachment[];
}

export interface SentMail {
  messageId: string;
  /** The outbox entry (file name without .eml) when the local adapter wrote it. */
  outboxId?: string;
}

export interface MailPort extends Integration {
  readonly kind: "smtp" | "outbox";
  send(message: MailMessage): Promise<SentMail>;
}
