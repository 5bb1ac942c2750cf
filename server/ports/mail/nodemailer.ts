/** Both adapters hand the same nodemailer options to a transport: SMTP, or a stream kept as an .eml file. */
import { randomBytes } from "node:crypto";
import { constants as fsConstants } from "node:fs";
import fs from "node:fs/promises";
import path from "node:path";
import type { Transporter } from "nodemailer";
import type Mail from "nodemailer/lib/mailer";
import type { MailMessage, MailPort, SentMail } from "./port";

/** nodemailer is loaded when the first message is sent (or checked), not at start. */
async function createTransport(options: Parameters<typeof import("nodemailer").createTransport>[0]): Promise<Transporter> {
  const nodemailer = (await import("nodemailer")).default;
  return nodemailer.createTransport(options);
}

/** The one message builder: what both transports receive. */
export function composeMail(message: MailMessage, from: string): Mail.Options {
  return {
    from,
    to: message.to,
    subject: message.subject,
    text: message.text,
    html: message.html,
    attachments: message.attachments?.map((a) => ({ filename: a.filename, content: a.content, contentType: a.contentType })),
  };
}

export class SmtpMail implements MailPort {
  readonly kind = "smtp" as const;
  private transport?: Promise<Transporter>;

  constructor(
    private readonly url: string,
    private readonly from: string,
  ) {}

  private connection(): Promise<Transporter> {
    this.transport ??= createTransport(this.url);
    return this.transport;
  }

  async send(message: MailMessage): Promise<SentMail> {
    const info = await (await this.connection()).sendMail(composeMail(message, this.from));
    return { messageId: info.messageId };
  }

  /** Connects and authenticates with the SMTP server without sending anything. */
  async check(): Promise<void> {
    try {
      await (await this.connection()).verify();
    } catch (error) {
      throw new Error(`El servidor SMTP no respondió: ${(error as Error).message}`);
    }
  }

  close() {
    void this.transport?.then((transport) => transport.close());
  }
}

/** Outbox entries are named by the UTC instant they were written, so names sort by date. */
export const OUTBOX_ID = /^\d{8}T\d{9}Z-[0-9a-f]{8}$/;
const outboxId = (now: Date) => `${now.toISOString().replace(/[-:.]/g, "")}-${randomBytes(4).toString("hex")}`;

export class OutboxMail implements MailPort {
  readonly kind = "outbox" as const;
  private transport?: Promise<Transporter>;

  constructor(
    readonly dir: string,
    private readonly from: string,
  ) {}

  async send(message: MailMessage): Promise<SentMail> {
    this.transport ??= createTransport({ streamTransport: true, buffer: true, newline: "windows" });
    const info = await (await this.transport).sendMail(composeMail(message, this.from));
    await fs.mkdir(this.dir, { recursive: true });
    const id = outboxId(new Date());
    const file = path.join(this.dir, `${id}.eml`);
    // Written under a temporary name first: a reader never lists a half-written message.
    await fs.writeFile(`${file}.tmp`, info.message as Buffer);
    await fs.rename(`${file}.tmp`, file);
    return { messageId: info.messageId, outboxId: id };
  }

  /** The outbox folder can be written. */
  async check(): Promise<void> {
    try {
      await fs.mkdir(this.dir, { recursive: true });
      await fs.access(this.dir, fsConstants.W_OK);
    } catch {
      throw new Error(`No se puede escribir en la bandeja de salida (${this.dir})`);
    }
  }
}
