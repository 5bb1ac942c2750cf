/**
 * The real server as a child process (the reliability tests): `node --import tsx server/main.ts`,
 * one process (so SIGKILL hits the server itself, not a launcher), the API only (main.ts never builds the
 * interface). Its database is a fresh PostgreSQL database when DATABASE_URL is set, an embedded PGlite
 * folder otherwise; `withDatabase` opens it from the test while no server holds it.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { inject } from "vitest";
import { createDb, type Database, openPostgres } from "../../server/db/client";
import { seedBase } from "../../server/db/seed";
import { adminUrl, withDatabase as urlWithDatabase } from "./database-url";

const ROOT = path.resolve(import.meta.dirname, "..", "..");

export interface TestStore {
  kind: "pglite" | "pg";
  dataDir: string;
  databaseUrl?: string;
  /** Opens the database (migrated, reference data loaded), runs fn, closes it. PGlite: no server may be running. */
  withDatabase<T>(fn: (database: Database) => Promise<T>): Promise<T>;
  destroy(): Promise<void>;
}

/** A fresh database for one test file: PostgreSQL (copy of the run's template) or a PGlite folder. */
export async function createStore(): Promise<TestStore> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "sia-rel-"));
  const url = process.env.DATABASE_URL;
  let databaseUrl: string | undefined;
  let name = "";
  if (url) {
    name = `sia_rel_${randomBytes(6).toString("hex")}`;
    const admin = await openPostgres(adminUrl(url), 1);
    await admin.pool?.query(`CREATE DATABASE ${name} TEMPLATE ${inject("templateDb")}`);
    await admin.close();
    databaseUrl = urlWithDatabase(url, name);
  }
  const store: TestStore = {
    kind: databaseUrl ? "pg" : "pglite",
    dataDir,
    databaseUrl,
    async withDatabase(fn) {
      const database = await createDb({ DATABASE_URL: databaseUrl, dataDir });
      try {
        await database.migrate();
        await seedBase(database.db);
        return await fn(database);
      } finally {
        await database.close();
      }
    },
    async destroy() {
      if (url && name) {
        const admin = await openPostgres(adminUrl(url), 1);
        await admin.pool?.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
        await admin.close();
      }
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
  return store;
}

export interface ServerProcess {
  url: string;
  pid: number;
  child: ChildProcess;
  /** Everything the process printed so far (stdout and stderr). */
  output(): string;
  /** Resolves when the output contains `text`; rejects if the process exits first or after `timeoutMs`. */
  waitFor(text: string, timeoutMs?: number): Promise<void>;
  /** Resolves with the exit code (or the signal's name) once the process has ended. */
  exited: Promise<number | string | null>;
  kill(signal?: NodeJS.Signals): Promise<number | string | null>;
}

/** Starts the server on `port` over the store's database and waits until it listens. */
export async function startServer(
  store: Pick<TestStore, "dataDir" | "databaseUrl">,
  port: number,
  env: Record<string, string> = {},
): Promise<ServerProcess> {
  const { DATABASE_URL: _db, SIA_TEST_PAUSE: _pause, ...inherited } = process.env;
  const child = spawn(process.execPath, ["--import", "tsx", path.join(ROOT, "server", "main.ts")], {
    cwd: ROOT,
    env: {
      ...inherited,
      NODE_ENV: "test",
      HOST: "127.0.0.1",
      PORT: String(port),
      DATA_DIR: store.dataDir,
      SIA_DEMO: "0",
      JOBS_ENABLED: "false",
      LOG_LEVEL: "error",
      // One process, so SIGKILL hits the server itself (tests/reliability/cluster.test.ts asks for more).
      WEB_CONCURRENCY: "1",
      ...(store.databaseUrl ? { DATABASE_URL: store.databaseUrl } : {}),
      ...env,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let out = "";
  const listeners = new Set<() => void>();
  const onData = (chunk: Buffer) => {
    out += chunk.toString("utf8");
    if (out.length > 200_000) out = out.slice(-100_000);
    for (const listener of listeners) listener();
  };
  child.stdout?.on("data", onData);
  child.stderr?.on("data", onData);
  const exited = new Promise<number | string | null>((resolve) => {
    child.once("exit", (code, signal) => {
      for (const listener of listeners) listener();
      resolve(signal ?? code);
    });
  });
  const server: ServerProcess = {
    url: `http://127.0.0.1:${port}`,
    pid: child.pid as number,
    child,
    output: () => out,
    exited,
    waitFor(text, timeoutMs = 120_000) {
      return new Promise((resolve, reject) => {
        const check = () => {
          if (out.includes(text)) done(() => resolve());
          else if (child.exitCode !== null || child.signalCode !== null)
            done(() => reject(new Error(`el servidor terminó antes de «${text}»:\n${out.slice(-4000)}`)));
        };
        const timer = setTimeout(
          () => done(() => reject(new Error(`sin «${text}» en ${timeoutMs} ms:\n${out.slice(-4000)}`))),
          timeoutMs,
        );
        const done = (fn: () => void) => {
          clearTimeout(timer);
          listeners.delete(check);
          fn();
        };
        listeners.add(check);
        check();
      });
    },
    async kill(signal = "SIGKILL") {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      return exited;
    },
  };
  await server.waitFor("SIA está listo en");
  return server;
}

/** A signed-in API client over real HTTP (fetch, keep-alive). */
export interface HttpClient {
  token: string;
  request(method: string, url: string, body?: unknown): Promise<{ status: number; body: any; headers: Headers }>;
}

export async function httpRequest(
  base: string,
  method: string,
  url: string,
  body?: unknown,
  token?: string,
  raw?: { body: Buffer; contentType: string },
) {
  const headers: Record<string, string> = {};
  if (token) headers.authorization = `Bearer ${token}`;
  let payload: BodyInit | undefined;
  if (raw) {
    headers["content-type"] = raw.contentType;
    payload = new Uint8Array(raw.body);
  } else if (body !== undefined) {
    headers["content-type"] = "application/json";
    payload = JSON.stringify(body);
  }
  const response = await fetch(`${base}${url}`, { method, headers, body: payload });
  const text = await response.text();
  let parsed: any = null;
  try {
    parsed = JSON.parse(text);
  } catch {
    parsed = text;
  }
  return { status: response.status, body: parsed, headers: response.headers };
}

export async function httpSignIn(base: string, email: string, password: string): Promise<HttpClient> {
  const res = await httpRequest(base, "POST", "/api/v1/sessions", { email, password });
  if (res.status !== 200) throw new Error(`inicio de sesión fallido: ${res.status} ${JSON.stringify(res.body)}`);
  const token = res.body.token as string;
  return { token, request: (method, url, body) => httpRequest(base, method, url, body, token) };
}
