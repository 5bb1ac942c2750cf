/** Every environment variable SIA reads, validated once. README's table lists the same ones. */
import path from "node:path";
import { z } from "zod";
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

const schema = z
  .object({
    NODE_ENV: z.enum(["development", "production", "test"]).default("development"),
    HOST: z.string().default("127.0.0.1"),
    PORT: z.coerce.number().int().min(0).max(65535).default(3000),
    DATABASE_URL: z.string().url().optional(),
    DATA_DIR: z.string().default("./data"),
    /** Unset: on outside production on the embedded database; off in production and on PostgreSQL (there only when asked for explicitly). */
    SIA_DEMO: z
      .string()
      .optional()
      .transform((v) => (v === undefined || v === "" ? undefined : !["0", "false", "no", "off"].includes(v.toLowerCase()))),
    /** Unset: the public PUBLIC_DEMO_PASSWORD, refused in production. */
    SIA_DEMO_PASSWORD: z.string().min(6).optional(),
    PUBLIC_URL: z.string().url().optional(),
    /**
     * How many reverse proxies stand in front of SIA, each appending the address it saw to
     * X-Forwarded-For: the client's address is the one the outermost of them wrote, and anything a client
     * writes before it is ignored. Unset: 1 when PUBLIC_URL is set (SIA behind one proxy), else 0 (the
     * socket's address; X-Forwarded-For ignored).
     */
    TRUST_PROXY_HOPS: z.coerce.number().int().min(0).max(10).optional(),
    SESSION_IDLE_DAYS: z.coerce.number().positive().default(30),
    /** Sessions each server process keeps in memory (server/auth/sessionCache.ts); 0: every request reads the database. */
    SESSION_CACHE_SIZE: z.coerce.number().int().min(0).max(1_000_000).default(10_000),
    /**
     * Server processes (server/cluster.ts). Unset: one per core but one on PostgreSQL, one on the embedded
     * database, which only one process may open.
     */
    WEB_CONCURRENCY: z.coerce.number().int().min(1).max(64).optional(),
    LOGIN_MAX_FAILURES: z.coerce.number().int().positive().default(10),
    LOGIN_WINDOW_MINUTES: z.coerce.number().positive().default(15),
    /** Failed sign-ins from one address (any e-mail) in the window before it is refused; unset: 5 × LOGIN_MAX_FAILURES. */
    LOGIN_MAX_FAILURES_PER_ADDRESS: z.coerce.number().int().positive().optional(),
    /** First lock of an e-mail once it reaches LOGIN_MAX_FAILURES; each further failure doubles it, up to the window. */
    LOGIN_LOCK_SECONDS: z.coerce.number().positive().default(30),
    BODY_LIMIT_BYTES: z.coerce.number().int().positive().default(1_048_576),
    UPLOAD_LIMIT_BYTES: z.coerce
      .number()
      .int()
      .positive()
      .default(10 * 1_048_576),
    // --- a download's fair share (server/http/downloads.ts; README «Descargas») ---
    /** CSV downloads one user may have running at once (two tabs); the next is refused with 429 until one ends. */
    DOWNLOADS_PER_USER: z.coerce.number().int().min(1).max(10).default(2),
    /** CSV downloads running at once, everyone together: each may hold a database connection, the pool has 10. */
    DOWNLOADS_TOTAL: z.coerce.number().int().min(1).max(100).default(4),
    /** Seconds a download may wait for a reader that takes nothing before it is ended. */
    DOWNLOAD_STALL_SECONDS: z.coerce.number().positive().max(600).default(10),
    SECRET_KEY: z.string().min(32).optional(),
    // --- fair share of the server per user (README, «Reparto justo del servidor») ---
    /** Requests of one session, and of one user, being served at once (a browser opens 6 connections per site). */
    REQUESTS_IN_FLIGHT_PER_USER: z.coerce.number().int().positive().default(6),
    /** Requests of one session or user waiting for one of those places; past them a 429 with Retry-After. */
    REQUESTS_QUEUED_PER_USER: z.coerce.number().int().min(0).default(64),
    /**
     * Requests of one address that carry no session found valid lately (sign-ins, made-up tokens) served at
     * once: each costs a lookup before anyone knows whose it is.
     */
    REQUESTS_IN_FLIGHT_PER_ADDRESS: z.coerce.number().int().positive().default(4),
    /** Such requests of one address waiting for a place (a whole office behind one router signing in at nine). */
    REQUESTS_QUEUED_PER_ADDRESS: z.coerce.number().int().min(0).default(256),
    /**
     * Time for a request to arrive whole, in ms: a 10 MB upload over a slow 1 Mbit/s line takes 80 s; a body
     * sent a byte at a time (to hold a connection) is ended past it with a Spanish 408.
     */
    REQUEST_TIMEOUT_MS: z.coerce.number().int().positive().default(120_000),
    /** Longest wait in that queue, in ms, before a 429 with Retry-After. */
    REQUEST_QUEUE_WAIT_MS: z.coerce.number().int().positive().default(10_000),
    /** Realtime streams (GET /api/v1/realtime) of one session (one per tab): a new one past it closes the oldest. */
    REALTIME_STREAMS_PER_SESSION: z.coerce.number().int().positive().default(10),
    /** Realtime streams of one user, all sessions (a laptop and a phone): a new one past it closes the oldest. */
    REALTIME_STREAMS_PER_USER: z.coerce.number().int().positive().default(20),
    /** Password hashes (Argon2id, ~19 MB and one core each) computed at once; the rest wait their turn. */
    PASSWORD_HASH_CONCURRENCY: z.coerce.number().int().positive().default(1),
    /** Hashes waiting their turn; past them, and past PASSWORD_HASH_WAIT_MS, a sign-in answers 429 with Retry-After. */
    PASSWORD_HASH_QUEUE: z.coerce.number().int().min(0).default(64),
    PASSWORD_HASH_WAIT_MS: z.coerce.number().int().positive().default(30_000),
    /** Where the drive lives: `local` (folders under DATA_DIR/drive) or `google` (a Google Drive folder). */
    DOCUMENTS_ADAPTER: z.enum(["local", "google"]).default("local"),
    /** Where quotation events go and what the week import reads: `local` (.ics) or `google` (Google Calendar). */
    CALENDAR_ADAPTER: z.enum(["local", "google"]).default("local"),
    // --- Google: DOCUMENTS_ADAPTER=google and CALENDAR_ADAPTER=google ---
    /** Id of the Google Drive folder (of a shared drive or not) that is the drive's root. */
    GOOGLE_DRIVE_ROOT_ID: optionalString,
    /** JSON key file of the service account that works in that folder. */
    GOOGLE_SERVICE_ACCOUNT_KEY_FILE: optionalString,
    /** OAuth client (type «Aplicación web») with which users connect their Google Calendar. */
    GOOGLE_CLIENT_ID: optionalString,
    GOOGLE_CLIENT_SECRET: optionalString,
    /** Base of Google's APIs (default https://www.googleapis.com/): a proxy, or the tests' local server. */
    GOOGLE_API_ROOT_URL: optionalUrl,
    /** Google's OAuth token endpoint (default https://oauth2.googleapis.com/token). */
    GOOGLE_OAUTH_TOKEN_URL: optionalUrl,
    // --- mail and scheduled jobs ---
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
    /** Folder of the nightly backups and of «Respaldar ahora» (default DATA_DIR/respaldos). */
    BACKUP_DIR: z
      .string()
      .optional()
      .transform((v) => (v ? v : undefined)),
    /** How many backup archives the nightly job keeps in BACKUP_DIR (the oldest are deleted). */
    BACKUP_KEEP: z.coerce.number().int().min(1, "debe ser al menos 1").max(3650).default(7),
    // --- Web Push ---
    /** VAPID subject the push services may contact (mailto: or https: URL). */
    PUSH_SUBJECT: z
      .string()
      .default("mailto:sia@localhost")
      .refine((v) => /^(mailto:|https:\/\/)\S+$/.test(v), "debe empezar con mailto: o https://"),
    /**
     * Hosts of the push services SIA sends to (comma-separated; `*.` matches any subdomain), HTTPS only.
     * Default: the browsers' own services. An http://host:port origin is accepted only with NODE_ENV=test.
     */
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
      ),
    /** Milliseconds a push service has to answer one push. */
    PUSH_TIMEOUT_MS: z.coerce.number().int().positive().max(60_000).default(5000),
    LOG_LEVEL: z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default("info"),
    // --- Azure DevOps, the tickets port's adapter ---
    /** Organisation URL (https://dev.azure.com/firma or an Azure DevOps Server collection); set: ticket search uses Azure DevOps. */
    AZURE_DEVOPS_ORG_URL: z
      .string()
      .optional()
      .transform((v) => (v ? v.replace(/\/+$/, "") : undefined))
      .refine((v) => v === undefined || /^https?:\/\/[^\s]+$/.test(v), "debe ser una URL http:// o https://"),
    /** Personal access token (Work Items: Read) used when the user has not saved their own azure token. */
    AZURE_DEVOPS_PAT: z
      .string()
      .optional()
      .transform((v) => (v ? v : undefined)),
    /** Team project searched when the activity has no SIA project (a SIA project's name is its team project). */
    AZURE_DEVOPS_PROJECT: z
      .string()
      .optional()
      .transform((v) => (v ? v : undefined)),
    // --- sign-in with Microsoft Entra ID / any OpenID Connect provider ---
    /** Issuer URL of the OpenID provider (e.g. https://login.microsoftonline.com/<tenant>/v2.0); unset: e-mail and password only. */
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
      ),
    /** Application (client) id SIA is registered with at the provider. */
    OIDC_CLIENT_ID: z
      .string()
      .optional()
      .transform((v) => (v?.trim() ? v.trim() : undefined)),
    /** Text of the sign-in page's button. */
    OIDC_BUTTON_LABEL: z.string().trim().min(1).default("Entrar con Microsoft"),
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

type Parsed = z.infer<typeof schema>;
export type Config = Omit<Parsed, "SIA_DEMO" | "SIA_DEMO_PASSWORD"> & {
  SIA_DEMO: boolean;
  SIA_DEMO_PASSWORD: string;
  dataDir: string;
  backupDir: string;
};

/** A configuration SIA cannot start with: its message says what to change, in Spanish. */
export class ConfigError extends Error {}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = schema.safeParse(env);
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
