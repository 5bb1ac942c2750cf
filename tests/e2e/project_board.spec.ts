/**
 * The live board across TWO server processes over ONE PostgreSQL database: each browser talks
 * to its own server; messages and read receipts cross through LISTEN/NOTIFY; a mention notifies only the
 * mentioned user; a server that stops and comes back resumes its board stream without losing messages.
 * The spec makes its own database (dropped at the end) and starts both servers itself.
 */
import { type ChildProcess, spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { type Browser, type BrowserContext, expect, type Page, test } from "@playwright/test";
import pg from "pg";
import { hashPassword } from "../../server/auth/passwords";

const ADMIN_URL = process.env.DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";
const BASE_PORT = Number(process.env.E2E_PORT ?? 3199);
/** Two servers of this spec, clear of the suite's (E2E_PORT) and of oidc.spec's (E2E_PORT + 1 and + 2). */
const PORTS = [BASE_PORT + 11, BASE_PORT + 12];
const DB_NAME = `sia_e2e_board_${process.pid}_${Date.now().toString(36)}`;
const PASSWORD = "tablero-secreto";
const ROOT = path.resolve(import.meta.dirname, "..", "..");

const withDatabase = (url: string, name: string) => {
  const u = new URL(url);
  u.pathname = `/${name}`;
  return u.toString();
};
const DB_URL = withDatabase(ADMIN_URL, DB_NAME);

interface Server {
  port: number;
  process: ChildProcess;
  dataDir: string;
  log: string[];
}

async function healthy(port: number, timeout = 120_000) {
  const started = Date.now();
  for (;;) {
    try {
      const response = await fetch(`http://127.0.0.1:${port}/healthz`);
      if (response.ok) return;
    } catch {
      // not up yet
    }
    if (Date.now() - started > timeout) throw new Error(`el servidor del puerto ${port} no respondió`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

async function startServer(port: number, dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "sia-board-"))): Promise<Server> {
  const log: string[] = [];
  const child = spawn(process.execPath, ["scripts/start.mjs"], {
    cwd: ROOT,
    detached: true,
    env: {
      ...process.env,
      DATABASE_URL: DB_URL,
      PORT: String(port),
      HOST: "127.0.0.1",
      DATA_DIR: dataDir,
      JOBS_ENABLED: "0",
      LOG_LEVEL: "warn",
      LOGIN_MAX_FAILURES: "50",
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  child.stdout?.on("data", (d) => log.push(String(d)));
  child.stderr?.on("data", (d) => log.push(String(d)));
  await healthy(port);
  return { port, process: child, dataDir, log };
}

async function stopServer(server: Server) {
  if (server.process.exitCode !== null || !server.process.pid) return;
  const exited = new Promise<void>((resolve) => server.process.once("exit", () => resolve()));
  try {
    process.kill(-server.process.pid, "SIGTERM");
  } catch {
    return;
  }
  await Promise.race([exited, new Promise((r) => setTimeout(r, 15_000))]);
  if (server.process.exitCode === null) {
    try {
      process.kill(-server.process.pid, "SIGKILL");
    } catch {
      // gone
    }
  }
}

async function admin<T>(work: (client: pg.Client) => Promise<T>, url = ADMIN_URL): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

interface Seeded {
  projectId: number;
  people: Record<"ana" | "beto" | "carla", { id: number; email: string; name: string }>;
}

/** Three operators with chat; Ana is PM and Beto responsible of one project; Carla is assigned to it. */
async function seed(): Promise<Seeded> {
  const digest = await hashPassword(PASSWORD);
  return admin(async (db) => {
    const people = {} as Seeded["people"];
    const employeeIds: Record<string, number> = {};
    for (const [key, name] of [
      ["ana", "Ana Tablero"],
      ["beto", "Beto Tablero"],
      ["carla", "Carla Tablero"],
    ] as const) {
      const email = `${key}.tablero@prueba.mx`;
      const user = await db.query(
        "insert into users (name, email, password_digest, operator_role, can_chat) values ($1, $2, $3, true, true) returning id",
        [name, email, digest],
      );
      const employee = await db.query("insert into employees (name, employee_code, user_id) values ($1, $2, $3) returning id", [
        name,
        `TB-${key}`,
        user.rows[0].id,
      ]);
      people[key] = { id: user.rows[0].id, email, name };
      employeeIds[key] = employee.rows[0].id;
    }
    const client = await db.query("insert into clients (name, client_code) values ('Cliente del tablero', '7001') returning id");
    const product = await db.query(
      "insert into products (name, product_code) values ('Producto del tablero', 'PT-1') returning id",
    );
    await db.query(
      "insert into assignments (employee_id, client_id, product_catalog_id, start_on, end_on) values ($1, $2, $3, '2026-01-01', '2030-12-31')",
      [employeeIds.carla, client.rows[0].id, product.rows[0].id],
    );
    const project = await db.query(
      "insert into projects (name, project_code, client_id, product_catalog_id, pm_id, rape_id) values ('Proyecto en vivo', 'TAB-1', $1, $2, $3, $4) returning id",
      [client.rows[0].id, product.rows[0].id, employeeIds.ana, employeeIds.beto],
    );
    return { projectId: project.rows[0].id, people };
  }, DB_URL);
}

async function signInAt(browser: Browser, port: number, email: string): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ baseURL: `http://127.0.0.1:${port}` });
  const page = await context.newPage();
  await page.goto("/sign_in");
  await page.getByLabel("Correo electrónico").fill(email);
  await page.getByLabel("Contraseña").fill(PASSWORD);
  await page.getByRole("button", { name: "Entrar" }).click();
  await expect(page).toHaveURL(/\/app\/activities$/, { timeout: 30_000 });
  return { context, page };
}

const board = (page: Page) => page.getByTestId("project-board");
const messageBodies = (page: Page) => board(page).getByTestId("board-message-body");

test.describe.configure({ mode: "serial" });

let servers: Server[] = [];
let seeded: Seeded;

test.beforeAll(async () => {
  test.setTimeout(300_000);
  await admin((db) => db.query(`CREATE DATABASE ${DB_NAME}`));
  // The first server migrates the new database; the second starts on the migrated one.
  servers.push(await startServer(PORTS[0]));
  seeded = await seed();
  servers.push(await startServer(PORTS[1]));
});

test.afterAll(async () => {
  for (const server of servers) await stopServer(server);
  for (const server of servers) fs.rmSync(server.dataDir, { recursive: true, force: true });
  servers = [];
  await admin((db) => db.query(`DROP DATABASE IF EXISTS ${DB_NAME} WITH (FORCE)`));
});

test("two browsers on two servers see each other's messages and receipts live; a mention notifies only its user", async ({
  browser,
}) => {
  test.setTimeout(240_000);
  const a = await signInAt(browser, PORTS[0], seeded.people.ana.email);
  const b = await signInAt(browser, PORTS[1], seeded.people.beto.email);
  const projectPath = `/app/projects/${seeded.projectId}`;
  await a.page.goto(projectPath);
  await b.page.goto(projectPath);
  await expect(board(a.page).getByText("Aún no hay mensajes en este tablero.")).toBeVisible({ timeout: 30_000 });
  await expect(board(b.page).getByText("Aún no hay mensajes en este tablero.")).toBeVisible({ timeout: 30_000 });

  // Ana writes, mentioning Beto through the autocomplete; the counter follows the text.
  const input = a.page.getByTestId("board-input");
  await input.fill("Hola @bet");
  await a.page.getByTestId("board-mentions").getByText("Beto Tablero").click();
  await expect(input).toHaveValue("Hola @beto.tablero ");
  await input.pressSequentially("revisa https://ejemplo.mx/plan por favor");
  const text = "Hola @beto.tablero revisa https://ejemplo.mx/plan por favor";
  await expect(board(a.page).getByTestId("board-counter")).toHaveText(`${text.length}/500`);
  await board(a.page).getByRole("button", { name: "Enviar" }).click();
  await expect(messageBodies(a.page).filter({ hasText: "revisa" })).toBeVisible();

  // Beto, on the other server, sees it without reloading; the link is a safe link.
  await expect(messageBodies(b.page).filter({ hasText: "revisa" })).toBeVisible({ timeout: 15_000 });
  const link = board(b.page).getByRole("link", { name: "https://ejemplo.mx/plan" });
  await expect(link).toHaveAttribute("rel", "noopener noreferrer");
  await expect(link).toHaveAttribute("target", "_blank");

  // Beto's open board read it: Ana sees the receipt live.
  await expect(board(a.page).getByTestId("board-seen-by")).toHaveText("Visto por Beto Tablero", { timeout: 15_000 });

  // The mention reached Beto's bell, and only Beto.
  await expect(b.page.getByTestId("bell-count")).toHaveText("1", { timeout: 15_000 });
  const bellOf = async (page: Page) =>
    (await (await page.request.get("/api/v1/notifications")).json()).notifications as Array<{ kind: string }>;
  expect((await bellOf(b.page)).map((n) => n.kind)).toEqual(["mention"]);
  expect(await bellOf(a.page)).toEqual([]);
  const c = await signInAt(browser, PORTS[0], seeded.people.carla.email);
  expect(await bellOf(c.page)).toEqual([]);
  await c.context.close();

  // Beto answers from his server; Ana sees it on hers.
  await b.page.getByTestId("board-input").fill("Visto, gracias");
  await board(b.page).getByRole("button", { name: "Enviar" }).click();
  await expect(messageBodies(a.page).filter({ hasText: "Visto, gracias" })).toBeVisible({ timeout: 15_000 });

  // Beto's server stops; Ana writes meanwhile; it comes back and Beto's board catches up by itself.
  await stopServer(servers[1]);
  await board(a.page).getByTestId("board-input").fill("Mientras tu servidor estaba caído");
  await board(a.page).getByRole("button", { name: "Enviar" }).click();
  await expect(messageBodies(a.page).filter({ hasText: "Mientras tu servidor" })).toBeVisible();
  servers[1] = await startServer(PORTS[1], servers[1].dataDir);
  await expect(messageBodies(b.page).filter({ hasText: "Mientras tu servidor" })).toBeVisible({ timeout: 45_000 });
  await expect(messageBodies(b.page)).toHaveCount(3);

  await a.context.close();
  await b.context.close();
});
