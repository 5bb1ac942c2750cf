import path from "node:path";
import type { Config } from "../../config";
import { OutboxMail, SmtpMail } from "./nodemailer";
import type { MailPort } from "./port";

export { OutboxMail, SmtpMail } from "./nodemailer";
export { listOutbox, readOutbox, readOutboxRaw } from "./outbox";
export * from "./port";

export const outboxDir = (config: Pick<Config, "dataDir">) => path.join(config.dataDir, "outbox");

export function createMail(config: Config): MailPort {
  return config.SMTP_URL ? new SmtpMail(config.SMTP_URL, config.MAIL_FROM) : new OutboxMail(outboxDir(config), config.MAIL_FROM);
}
