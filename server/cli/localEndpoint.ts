/**
 * `create-admin` while an embedded server runs (docs/decisions/032-local-admin.md). PGlite is one process
 * at a time, so the command cannot open the data folder the server holds: it asks the server instead. The
 * server, once listening, writes DATA_DIR/local-admin.json (mode 0600, in the 0700 folder) with its address
 * and a fresh random key; its route (./localAdmin.ts) answers only a direct loopback connection carrying
 * that key. Whoever can read the file can read the database itself: the same trust.
 */
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import type { Config } from "../config";

export const LOCAL_ADMIN_FILE = "local-admin.json";
export const LOCAL_ADMIN_HEADER = "x-sia-local-key";
export const LOCAL_ADMIN_PATH = "/api/v1/local/create_admin";

export interface LocalAdminEndpoint {
  url: string;
  key: string;
  pid: number;
}

const endpointFile = (config: Pick<Config, "dataDir">) => path.join(config.dataDir, LOCAL_ADMIN_FILE);

/** Written by the server once it listens (a new key each start); removed when it stops. */
export function writeLocalAdminEndpoint(config: Pick<Config, "dataDir">, url: string): () => void {
  const file = endpointFile(config);
  const endpoint: LocalAdminEndpoint = { url, key: randomBytes(32).toString("base64url"), pid: process.pid };
  fs.mkdirSync(config.dataDir, { recursive: true, mode: 0o700 });
  fs.rmSync(file, { force: true });
  fs.writeFileSync(file, JSON.stringify(endpoint), { flag: "wx", mode: 0o600 });
  return () => {
    // Only our own: a server started after us may have written its own.
    if (readLocalAdminEndpoint(config)?.key === endpoint.key) fs.rmSync(file, { force: true });
  };
}

export function readLocalAdminEndpoint(config: Pick<Config, "dataDir">): LocalAdminEndpoint | null {
  try {
    const parsed = JSON.parse(fs.readFileSync(endpointFile(config), "utf8")) as Partial<LocalAdminEndpoint>;
    return typeof parsed.url === "string" && typeof parsed.key === "string"
      ? { url: parsed.url, key: parsed.key, pid: Number(parsed.pid) }
      : null;
  } catch {
    return null;
  }
}

interface AdminRequest {
  email: string;
  password: string;
  name?: string;
}

/** What the running server answered: the result, or the reason (Spanish) it gave or it could not be reached. */
export interface AdminDone {
  userId: number;
  employeeId: number;
  email: string;
  createdUser: boolean;
  createdEmployee: boolean;
}
export type ServerAnswer = { ok: true; result: AdminDone } | { ok: false; reason: string };

/**
 * One call to the running server's local endpoint (loopback, the key the server wrote): its answer's
 * status and JSON body, or why it could not be reached. Null: no server wrote its endpoint.
 */
async function postToRunningServer(
  config: Pick<Config, "dataDir">,
  path: string,
  timeoutMs: number,
  body?: unknown,
): Promise<
  { reached: true; ok: boolean; status: number; body: Record<string, unknown> } | { reached: false; reason: string } | null
> {
  const endpoint = readLocalAdminEndpoint(config);
  if (!endpoint) return null;
  let response: Response;
  try {
    response = await fetch(new URL(path, endpoint.url), {
      method: "POST",
      headers: {
        [LOCAL_ADMIN_HEADER]: endpoint.key,
        ...(body === undefined ? {} : { "content-type": "application/json" }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: AbortSignal.timeout(timeoutMs),
    });
  } catch (error) {
    return { reached: false, reason: `No se pudo contactar al servidor SIA en ${endpoint.url}: ${(error as Error).message}` };
  }
  const answer = (await response.json().catch(() => ({}))) as Record<string, unknown>;
  return { reached: true, ok: response.ok, status: response.status, body: answer };
}

export async function askRunningServer(config: Pick<Config, "dataDir">, input: AdminRequest): Promise<ServerAnswer | null> {
  const answer = await postToRunningServer(config, LOCAL_ADMIN_PATH, 30_000, input);
  if (!answer) return null;
  if (!answer.reached) return { ok: false, reason: answer.reason };
  if (answer.ok) return { ok: true, result: answer.body as unknown as AdminDone };
  const errors = (answer.body.errors ?? {}) as Record<string, unknown>;
  const reasons = Object.values(errors).flat().map(String);
  return { ok: false, reason: reasons.join(" ") || String(answer.body.error ?? `El servidor respondió ${answer.status}`) };
}

export const LOCAL_BACKUP_PATH = "/api/v1/local/backup";

export type BackupAnswer = { ok: true; file: string } | { ok: false; reason: string };

/**
 * `npm run backup` while an embedded server holds the data folder: the server writes the archive in
 * BACKUP_DIR (the same machine and folder) and answers its path. Null: no server wrote its endpoint.
 */
export async function askServerBackup(config: Pick<Config, "dataDir">): Promise<BackupAnswer | null> {
  // A large drive takes its time to pack.
  const answer = await postToRunningServer(config, LOCAL_BACKUP_PATH, 30 * 60_000);
  if (!answer) return null;
  if (!answer.reached) return { ok: false, reason: answer.reason };
  if (answer.ok && typeof answer.body.file === "string") return { ok: true, file: answer.body.file };
  return { ok: false, reason: String(answer.body.error ?? `El servidor respondió ${answer.status}`) };
}
