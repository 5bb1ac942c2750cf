/**
 * Every environment variable SIA reads, validated once, each with its description: `npm run env-example` writes
 * .env.example from them, and tests/unit/envExample.test.ts checks README's table lists the same ones.
 */
import fs from "node:fs";
import path from "node:path";
import { z } from "zod";
import { backupMessages } from "../src/core/messages";
import { DEFAULT_PUSH_HOSTS, pushHostEntryProblem } from "./ports/push/endpoint";

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

const optionalString = z
  .string()
  .optional()
  .transform((v) => (v?.trim() ? v.trim() : undefined));
const optionalUrl = optionalString.refine(
  (v) => v === undefined || /^https?:\/\/[^\s]+$/.test(v),
  "debe ser una URL http:// o https://",
);

/** Each adapter's companions: missing ones stop the start with a Spanish message. */
const REQUIRED_WITH = {
  DOCUMENTS_ADAPTER: { google: ["GOOGLE_DRIVE_ROOT_ID", "GOOGLE_SERVICE_ACCOUNT_KEY_FILE"] },
  CALENDAR_ADAPTER: { google: ["GOOGLE_CLIENT_ID", "GOOGLE_CLIENT_SECRET"] },
} as const;

/** The demo accounts' password when SIA_DEMO_PASSWORD is unset: public (README), so never in production. */
export const PUBLIC_DEMO_PASSWORD = "sia-demo";

/** BACKUP_KEEP's one refusal, whatever is wrong with it (not a number, a fraction, out of range). */
const BACKUP_KEEP_RANGE = "debe ser un número entero entre 1 y 3650";

export const configSchema = z
  .object({
    NODE_ENV: z
      .enum(["development", "production", "test"])
      .default("development")
      .describe(
        "`production` on a real server (the demo firm only when asked for, never with the public password); `test` only for the test suites.",
      ),
    HOST: z.string().default("127.0.0.1").describe("Address the server listens on."),
    PORT: z.coerce.number().int().min(0).max(65535).default(3000).describe("Port the server listens on."),
    DATABASE_URL: z
      .string()
      .url()
      .optional()
      .describe(
        "PostgreSQL connection string (postgres://user:pass@host:5432/sia); unset: the embedded PGlite database in DATA_DIR.",
      ),
    DATA_DIR: z
      .string()
      .default("./data")
      .describe("Folder of the embedded database and the local files (created when missing)."),
    SIA_DEMO: z
      .string()
      .optional()
      .transform((v) => (v === undefined || v === "" ? undefined : !["0", "false", "no", "off"].includes(v.toLowerCase())))
      .describe(
        "Loads the demo firm on an empty database (0: start empty). Unset: loaded on the embedded database outside production; not loaded in production nor on PostgreSQL (there only with SIA_DEMO=1).",
      ),
    SIA_DEMO_PASSWORD: z
      .string()
      .min(6)
      .optional()
      .describe(`Password of the three demo accounts; unset: the public ${PUBLIC_DEMO_PASSWORD}, refused in production.`),
    PUBLIC_URL: z
      .string()
      .url()
      .optional()
      .describe("The address users reach (e.g. https://sia.firma.mx): the allowed Origin, secure cookies and HSTS."),
    TRUST_PROXY_HOPS: z.coerce
      .number()
      .int()
      .min(0)
      .max(10)
      .optional()
      .describe(
        "How many reverse proxies stand in front of SIA, each appending the address it saw to X-Forwarded-For: the client's address is the one the outermost of them wrote, and anything a client writes before it is ignored. Unset: 1 when PUBLIC_URL is set (SIA behind one proxy), else 0 (the socket's address; X-Forwarded-For ignored).",
      ),
    SESSION_IDLE_DAYS: z.coerce.number().positive().default(30).describe("Days a session may go unused before it ends."),
    SESSION_CACHE_SIZE: z.coerce
      .number()
      .int()
      .min(0)
      .max(1_000_000)
      .default(10_000)
      .describe(
        "Sessions each server process keeps in memory (server/auth/sessionCache.ts); 0: every request reads the database.",
      ),
    WEB_CONCURRENCY: z.coerce
      .number()
      .int()
      .min(1)
      .max(64)
      .optional()
      .describe(
        "Server processes (server/cluster.ts). Unset: on PostgreSQL, the number of cores minus one (one left for the database), at least one; on the embedded database one, since only one process may open it.",
      ),
    LOGIN_MAX_FAILURES: z.coerce
      .number()
      .int()
      .positive()
      .default(10)
      .describe("Failed sign-ins of one e-mail within LOGIN_WINDOW_MINUTES before it is paused (429)."),
    LOGIN_WINDOW_MINUTES: z.coerce.number().positive().default(15).describe("Minutes over which those failures are counted."),
    LOGIN_MAX_FAILURES_PER_ADDRESS: z.coerce
      .number()
      .int()
      .positive()
      .optional()
      .describe(
        "Failed sign-ins from one address (any e-mail) in the window before it is refused; unset: 5 × LOGIN_MAX_FAILURES.",
      ),
    LOGIN_LOCK_SECONDS: z.coerce
      .number()
      .positive()
      .default(30)
      .describe("First lock of an e-mail once it reaches LOGIN_MAX_FAILURES; each further failure doubles it, up to the window."),
    BODY_LIMIT_BYTES: z.coerce.number().int().positive().default(1_048_576).describe("Largest JSON body, in bytes."),
    UPLOAD_LIMIT_BYTES: z.coerce
      .number()
      .int()
      .positive()
      .default(10 * 1_048_576)
      .describe("Largest uploaded file, in bytes."),
    // --- a download's fair share (server/http/downloads.ts; README «Descargas») ---
    DOWNLOADS_PER_USER: z.coerce
      .number()
      .int()
      .min(1)
      .max(10)
      .default(2)
      .describe("CSV downloads one user may have running at once (two tabs); the next is refused with 429 until one ends."),
    DOWNLOADS_TOTAL: z.coerce
      .number()
      .int()
      .min(1)
      .max(100)
      .default(4)
      .describe("CSV downloads running at once, everyone together: each may hold a database connection, the pool has 10."),
    DOWNLOAD_STALL_SECONDS: z.coerce
      .number()
      .positive()
      .max(600)
      .default(10)
      .describe("Seconds a download may wait for a reader that takes nothing before it is ended."),
    SECRET_KEY: z
      .string()
      .min(32)
      .optional()
      .describe("Key (32+ characters) that encrypts stored calendar tokens; unset: one generated once in DATA_DIR/secret.key."),
    // --- fair share of the server per user (README, «Reparto justo del servidor») ---
    REQUESTS_IN_FLIGHT_PER_USER: z.coerce
      .number()
      .int()
      .positive()
      .default(6)
      .describe("Requests of one session, and of one user, being served at once (a browser opens 6 connections per site)."),
    REQUESTS_QUEUED_PER_USER: z.coerce
      .number()
      .int()
      .min(0)
      .default(64)
      .describe("Requests of one session or user waiting for one of those places; past them a 429 with Retry-After."),
    REQUESTS_IN_FLIGHT_PER_ADDRESS: z.coerce
      .number()
      .int()
      .positive()
      .default(4)
      .describe(
        "Requests of one address that carry no session found valid lately (sign-ins, made-up tokens) served at once: each costs a lookup before anyone knows whose it is.",
      ),
    REQUESTS_QUEUED_PER_ADDRESS: z.coerce
      .number()
      .int()
      .min(0)
      .default(256)
      .describe("Such requests of one address waiting for a place (a whole office behind one router signing in at nine)."),
    REQUEST_TIMEOUT_MS: z.coerce
      .number()
      .int()
      .positive()
      .default(120_000)
      .describe(
        "Time for a request to arrive whole, in ms: a 10 MB upload over a slow 1 Mbit/s line takes 80 s; a body sent a byte at a time (to hold a connection) is ended past it with a Spanish 408.",
      ),
    REQUEST_QUEUE_WAIT_MS: z.coerce
      .number()
      .int()
      .positive()
      .default(10_000)
      .describe("Longest wait in that queue, in ms, before a 429 with Retry-After."),
    REALTIME_STREAMS_PER_SESSION: z.coerce
      .number()
      .int()
      .positive()
      .default(10)
      .describe("Realtime streams (GET /api/v1/realtime) of one session (one per tab): a new one past it closes the oldest."),
    REALTIME_STREAMS_PER_USER: z.coerce
      .number()
      .int()
      .positive()
      .default(20)
      .describe("Realtime streams of one user, all sessions (a laptop and a phone): a new one past it closes the oldest."),
    PASSWORD_HASH_CONCURRENCY: z.coerce
      .number()
      .int()
      .positive()
      .default(1)
      .describe("Password hashes (Argon2id, ~19 MB and one core each) computed at once; the rest wait their turn."),
    PASSWORD_HASH_QUEUE: z.coerce
      .number()
      .int()
      .min(0)
      .default(64)
      .describe("Hashes waiting their turn; past them, and past PASSWORD_HASH_WAIT_MS, a sign-in answers 429 with Retry-After."),
    PASSWORD_HASH_WAIT_MS: z.coerce
      .number()
      .int()
      .positive()
      .default(30_000)
      .describe("Longest wait for a hash's turn, in ms, before that 429."),
    DOCUMENTS_ADAPTER: z
      .enum(["local", "google"])
      .default("local")
      .describe("Where the drive lives: `local` (folders under DATA_DIR/drive) or `google` (a Google Drive folder)."),
    CALENDAR_ADAPTER: z
      .enum(["local", "google"])
      .default("local")
      .describe("Where quotation events go and what the week import reads: `local` (.ics) or `google` (Google Calendar)."),
    // --- Google: DOCUMENTS_ADAPTER=google and CALENDAR_ADAPTER=google ---
    GOOGLE_DRIVE_ROOT_ID: optionalString.describe(
      "Id of the Google Drive folder (of a shared drive or not) that is the drive's root.",
    ),
    GOOGLE_SERVICE_ACCOUNT_KEY_FILE: optionalString.describe("JSON key file of the service account that works in that folder."),
    GOOGLE_CLIENT_ID: optionalString.describe(
      "OAuth client (type «Aplicación web») with which users connect their Google Calendar.",
    ),
    GOOGLE_CLIENT_SECRET: optionalString.describe("That OAuth client's secret."),
    GOOGLE_API_ROOT_URL: optionalUrl.describe(
      "Base of Google's APIs (default https://www.googleapis.com/): a proxy, or the tests' local server.",
    ),
    GOOGLE_OAUTH_TOKEN_URL: optionalUrl.describe("Google's OAuth token endpoint (default https://oauth2.googleapis.com/token)."),
    // --- mail and scheduled jobs ---
    SMTP_URL: z
      .string()
      .optional()
      .transform((v) => (v ? v : undefined))
      .refine((v) => v === undefined || /^smtps?:\/\/[^\s]+$/.test(v), "debe ser una URL smtp:// o smtps://")
      .describe(
        "SMTP server (smtp://user:pass@host:587, smtps://…:465); unset: each message is written to DATA_DIR/outbox as .eml.",
      ),
    MAIL_FROM: z
      .string()
      .min(3, "debe ser una dirección de correo")
      .default("SIA <sia@localhost>")
      .describe("Sender of every message SIA sends."),
    JOBS_TIMEZONE: z
      .string()
      .default("America/Mexico_City")
      .refine(validTimeZone, "debe ser una zona horaria IANA válida, p. ej. America/Mexico_City")
      .describe("Zone of the weekly jobs' schedule (IANA name)."),
    JOBS_ENABLED: bool(true).describe(
      "False: this process does not run the scheduler (jobs still run by hand from the admin page).",
    ),
    WEEKLY_JOBS_TIME: z
      .string()
      .default("09:00")
      .refine((v) => /^([01]\d|2[0-3]):[0-5]\d$/.test(v), "debe tener el formato HH:MM (24 horas), p. ej. 09:00")
      .describe("Local time (HH:MM, 24 h) on Tuesdays at which the weekly reminder and report go out."),
    DAILY_JOBS_TIME: z
      .string()
      .default("08:00")
      .refine((v) => /^([01]\d|2[0-3]):[0-5]\d$/.test(v), "debe tener el formato HH:MM (24 horas), p. ej. 08:00")
      .describe("Local time (HH:MM, 24 h) from which the morning jobs (the projects' budget alerts) run each day."),
    BACKUP_DIR: z
      .string()
      .optional()
      .transform((v) => (v ? v : undefined))
      .describe("Folder of the nightly backups and of «Respaldar ahora»; unset: DATA_DIR/respaldos."),
    BACKUP_KEEP: z.coerce
      .number({ error: BACKUP_KEEP_RANGE })
      .int({ error: BACKUP_KEEP_RANGE })
      .min(1, { error: BACKUP_KEEP_RANGE })
      .max(3650, { error: BACKUP_KEEP_RANGE })
      .default(7)
      .describe("How many backup archives the nightly job keeps in BACKUP_DIR (the oldest are deleted)."),
    // --- Web Push ---
    PUSH_SUBJECT: z
      .string()
      .default("mailto:sia@localhost")
      .refine((v) => /^(mailto:|https:\/\/)\S+$/.test(v), "debe empezar con mailto: o https://")
      .describe("VAPID subject the push services may contact (mailto: or https: URL)."),
    PUSH_ALLOWED_HOSTS: z
      .string()
      .optional()
      .transform((v) =>
        v?.trim()
          ? v
              .split(",")
              .map((h) => h.trim().toLowerCase())
              .filter(Boolean)
          : [...DEFAULT_PUSH_HOSTS],
      )
      .describe(
        "Hosts of the push services SIA sends to (comma-separated; `*.` matches any subdomain), HTTPS only. Default: the browsers' own services. An http://host:port origin is accepted only with NODE_ENV=test.",
      ),
    PUSH_TIMEOUT_MS: z.coerce
      .number()
      .int()
      .positive()
      .max(60_000)
      .default(5000)
      .describe("Milliseconds a push service has to answer one push."),
    LOG_LEVEL: z
      .enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"])
      .default("info")
      .describe("Log level: fatal, error, warn, info, debug, trace or silent."),
    // --- Azure DevOps, the tickets port's adapter ---
    AZURE_DEVOPS_ORG_URL: z
      .string()
      .optional()
      .transform((v) => (v ? v.replace(/\/+$/, "") : undefined))
      .refine((v) => v === undefined || /^https?:\/\/[^\s]+$/.test(v), "debe ser una URL http:// o https://")
      .describe(
        "Organisation URL (https://dev.azure.com/firma or an Azure DevOps Server collection); set: ticket search uses Azure DevOps.",
      ),
    AZURE_DEVOPS_PAT: z
      .string()
      .optional()
      .transform((v) => (v ? v : undefined))
      .describe("Personal access token (Work Items: Read) used when the user has not saved their own azure token."),
    AZURE_DEVOPS_PROJECT: z
      .string()
      .optional()
      .transform((v) => (v ? v : undefined))
      .describe("Team project searched when the activity has no SIA project (a SIA project's name is its team project)."),
    // --- sign-in with Microsoft Entra ID / any OpenID Connect provider ---
    OIDC_AUTHORITY: z
      .string()
      .optional()
      .transform((v) => (v ? v.replace(/\/+$/, "") : undefined))
      .refine(
        (v) => v === undefined || /^https?:\/\/[^\s/]+/.test(v),
        "debe ser una URL http(s):// (el emisor del proveedor, p. ej. https://login.microsoftonline.com/<inquilino>/v2.0)",
      )
      // Entra's multi-tenant authorities publish no single issuer: tokens could not be checked against one.
      .refine(
        (v) => v === undefined || !/^https:\/\/login\.microsoftonline\.com\/(common|organizations|consumers)(\/|$)/i.test(v),
        "debe ser la autoridad de su inquilino (https://login.microsoftonline.com/<id del inquilino>/v2.0), no common, organizations ni consumers",
      )
      .describe(
        "Issuer URL of the OpenID provider (e.g. https://login.microsoftonline.com/<tenant>/v2.0); unset: e-mail and password only.",
      ),
    OIDC_CLIENT_ID: z
      .string()
      .optional()
      .transform((v) => (v?.trim() ? v.trim() : undefined))
      .describe("Application (client) id SIA is registered with at the provider."),
    OIDC_BUTTON_LABEL: z.string().trim().min(1).default("Entrar con Microsoft").describe("Text of the sign-in page's button."),
  })
  .superRefine((config, ctx) => {
    // PGlite is one process's database: a second process could not open it.
    if ((config.WEB_CONCURRENCY ?? 1) > 1 && !config.DATABASE_URL) {
      ctx.addIssue({
        code: "custom",
        path: ["WEB_CONCURRENCY"],
        message: "más de un proceso solo con DATABASE_URL: la base embebida la abre un solo proceso",
      });
    }
    // Demo accounts in production only when asked for, and never with the password everyone can read.
    if (
      config.NODE_ENV === "production" &&
      config.SIA_DEMO &&
      (config.SIA_DEMO_PASSWORD ?? PUBLIC_DEMO_PASSWORD) === PUBLIC_DEMO_PASSWORD
    ) {
      ctx.addIssue({
        code: "custom",
        path: ["SIA_DEMO_PASSWORD"],
        message: `con NODE_ENV=production y SIA_DEMO=1 es obligatoria y distinta de «${PUBLIC_DEMO_PASSWORD}» (la contraseña pública de demostración)`,
      });
    }
    // Both or neither: half a provider would show a button that cannot work.
    if (Boolean(config.OIDC_AUTHORITY) !== Boolean(config.OIDC_CLIENT_ID)) {
      const missing = config.OIDC_AUTHORITY ? "OIDC_CLIENT_ID" : "OIDC_AUTHORITY";
      ctx.addIssue({
        code: "custom",
        path: [missing],
        message: "es obligatoria junto con la otra (OIDC_AUTHORITY y OIDC_CLIENT_ID)",
      });
    }
    for (const entry of config.PUSH_ALLOWED_HOSTS) {
      const problem = pushHostEntryProblem(entry, config.NODE_ENV);
      if (problem) ctx.addIssue({ code: "custom", path: ["PUSH_ALLOWED_HOSTS"], message: problem });
    }
    for (const [variable, byValue] of Object.entries(REQUIRED_WITH)) {
      const value = config[variable as keyof typeof REQUIRED_WITH] as string;
      for (const companion of (byValue as Record<string, readonly string[]>)[value] ?? []) {
        if (!config[companion as keyof typeof config])
          ctx.addIssue({ code: "custom", path: [companion], message: `es obligatoria con ${variable}=${value}` });
      }
    }
  });

type Parsed = z.infer<typeof configSchema>;
export type Config = Omit<Parsed, "SIA_DEMO" | "SIA_DEMO_PASSWORD"> & {
  SIA_DEMO: boolean;
  SIA_DEMO_PASSWORD: string;
  dataDir: string;
  backupDir: string;
};

/** A configuration SIA cannot start with: its message says what to change, in Spanish. */
export class ConfigError extends Error {}

/**
 * BACKUP_DIR must be a folder the server can write, checked at start: found out only at night, a wrong one
 * left the nightly backup failing in the log and the backups' page answering errors.
 */
/**
 * The address e-mails link to: PUBLIC_URL, else the one this server listens on (a trial on one machine, where
 * a bare http://localhost would point at port 80 and nothing).
 */
export function publicAddress(config: Pick<Config, "PUBLIC_URL" | "HOST" | "PORT">): string {
  if (config.PUBLIC_URL) return config.PUBLIC_URL;
  const host = ["0.0.0.0", "::", ""].includes(config.HOST)
    ? "localhost"
    : config.HOST.includes(":")
      ? `[${config.HOST}]`
      : config.HOST;
  return `http://${host}:${config.PORT}`;
}

export function checkBackupDir(config: Pick<Config, "backupDir">) {
  const dir = config.backupDir;
  const stat = fs.statSync(dir, { throwIfNoEntry: false });
  if (stat && !stat.isDirectory()) throw new ConfigError(backupMessages.backupDirNotFolder(dir));
  try {
    // 700: the archives hold secret.key (and, made here first, DATA_DIR keeps the mode it is given elsewhere).
    fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
    fs.accessSync(dir, fs.constants.W_OK | fs.constants.X_OK);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOTDIR") throw new ConfigError(backupMessages.backupDirNotFolder(dir));
    throw new ConfigError(backupMessages.backupDirNotWritable(dir));
  }
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = configSchema.safeParse(env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join(".")}: ${i.message}`).join("\n");
    throw new ConfigError(`Configuración inválida:\n${lines}`);
  }
  const data = parsed.data;
  return {
    ...data,
    // A PostgreSQL server is a firm's own: the demo firm goes there only when asked for (SIA_DEMO=1).
    SIA_DEMO: data.SIA_DEMO ?? (data.NODE_ENV !== "production" && !data.DATABASE_URL),
    SIA_DEMO_PASSWORD: data.SIA_DEMO_PASSWORD ?? PUBLIC_DEMO_PASSWORD,
    dataDir: path.resolve(data.DATA_DIR),
    backupDir: path.resolve(data.BACKUP_DIR ?? path.join(data.DATA_DIR, "respaldos")),
  };
}
