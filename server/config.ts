/** Every environment variable SIA reads, validated once. README's table lists the same ones. */
import path from "node:path";
import { z } from "zod";

const bool = (fallback: boolean) =>
  z
    .string()
    .optional()
    .transform((v) => (v === undefined || v === "" ? fallback : !["0", "false", "no", "off"].includes(v.toLowerCase())));

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
  UPLOAD_LIMIT_BYTES: z.coerce.number().int().positive().default(10 * 1_048_576),
  SECRET_KEY: z.string().min(32).optional(),
  /** Where the drive lives: `local` (folders under DATA_DIR/drive); Google Drive comes with the integrations issue. */
  DOCUMENTS_ADAPTER: z.enum(["local"]).default("local"),
  /** Where quotation events go: `local` (stored with the quotation, offered as an .ics invitation). */
  CALENDAR_ADAPTER: z.enum(["local"]).default("local"),
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
