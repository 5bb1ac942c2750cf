/** Every environment variable SIA reads, validated once. README's table lists the same ones. */
import path from "node:path";
import { z } from "zod";

const bool = (fallback: boolean) =>
  z
    .string()
    .optional()
    .transform((v) => (v === undefined || v === "" ? fallback : !["0", "false", "no", "off"].includes(v.toLowerCase())));

function validTimeZone(zone: string) {
  try {
    new Intl.DateTimeFormat("en-US", { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

const schema = z.object({
  NODE_ENV: z.enum(["development", "production", "test"]).default("development"),
  HOST: z.string().default("127.0.0.1"),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  DATABASE_URL: z.string().url().optional(),
  DATA_DIR: z.string().default("./data"),
  SIA_DEMO: bool(true),
  SIA_DEMO_PASSWORD: z.string().min(6).default("sia-demo"),
  PUBLIC_URL: z.string().url().optional(),
  SESSION_IDLE_DAYS: z.coerce.number().positive().default(30),
  LOGIN_MAX_FAILURES: z.coerce.number().int().positive().default(10),
  LOGIN_WINDOW_MINUTES: z.coerce.number().positive().default(15),
  BODY_LIMIT_BYTES: z.coerce.number().int().positive().default(1_048_576),
  UPLOAD_LIMIT_BYTES: z.coerce
    .number()
    .int()
    .positive()
    .default(10 * 1_048_576),
  SECRET_KEY: z.string().min(32).optional(),
  /** Where the drive lives: `local` (folders under DATA_DIR/drive); Google Drive comes with the integrations issue. */
  DOCUMENTS_ADAPTER: z.enum(["local"]).default("local"),
  /** Where quotation events go: `local` (stored with the quotation, offered as an .ics invitation). */
  CALENDAR_ADAPTER: z.enum(["local"]).default("local"),
  // --- mail and scheduled jobs (issue 7) ---
  /** SMTP server (smtp://user:pass@host:587, smtps://…:465); unset: each message is written to DATA_DIR/outbox as .eml. */
  SMTP_URL: z
    .string()
    .optional()
    .transform((v) => (v ? v : undefined))
    .refine((v) => v === undefined || /^smtps?:\/\/[^\s]+$/.test(v), "debe ser una URL smtp:// o smtps://"),
  /** Sender of every message SIA sends. */
  MAIL_FROM: z.string().min(3, "debe ser una dirección de correo").default("SIA <sia@localhost>"),
  /** Zone of the weekly jobs' schedule (IANA name). */
  JOBS_TIMEZONE: z
    .string()
    .default("America/Mexico_City")
    .refine(validTimeZone, "debe ser una zona horaria IANA válida, p. ej. America/Mexico_City"),
  /** False: this process does not run the scheduler (jobs still run by hand from the admin page). */
  JOBS_ENABLED: bool(true),
  /** Local time (HH:MM, 24 h) on Tuesdays at which the weekly reminder and report go out. */
  WEEKLY_JOBS_TIME: z
    .string()
    .default("09:00")
    .refine((v) => /^([01]\d|2[0-3]):[0-5]\d$/.test(v), "debe tener el formato HH:MM (24 horas), p. ej. 09:00"),
  // --- Web Push (issue 8/9) ---
  /** VAPID subject the push services may contact (mailto: or https: URL). */
  PUSH_SUBJECT: z
    .string()
    .default("mailto:sia@localhost")
    .refine((v) => /^(mailto:|https:\/\/)\S+$/.test(v), "debe empezar con mailto: o https://"),
  LOG_LEVEL: z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default("info"),
});

export type Config = z.infer<typeof schema> & { dataDir: string };

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = schema.safeParse(env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join(".")}: ${i.message}`).join("\n");
    throw new Error(`Configuración inválida:\n${lines}`);
  }
  return { ...parsed.data, dataDir: path.resolve(parsed.data.DATA_DIR) };
}
