/**
 * `npm run move-to-postgres`: the demo firm in an embedded data folder moved into a fresh PostgreSQL
 * database, then an app on PostgreSQL with the same DATA_DIR answers exactly as the embedded one did:
 * every declared resource's list, a week of activities, a report, a project's board and its audit trail,
 * the session signed in before the move, and a new sign-in. And the refusals, each in Spanish with exit
 * code 1 and the target left untouched: a bad or missing --to, an unreachable server, a server holding
 * the data folder (its lock, as the real server leaves it), DATABASE_URL set, a target with rows.
 *
 * The source is always embedded, so this runs in the embedded pass and the PostgreSQL pass alike; it makes
 * its own database on PostgreSQL (DATABASE_URL's server, else 127.0.0.1:5432), and fails when there is none.
 */
import { type ChildProcess, execFile, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { desc, sql } from "drizzle-orm";
import type { FastifyInstance } from "fastify";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { build } from "../../server/app";
import { runMoveToPostgres, shellQuoted } from "../../server/cli/moveToPostgres";
import { loadConfig } from "../../server/config";
import { audit } from "../../server/db/audit";
import { type Database, openPglite, openPostgres } from "../../server/db/client";
import { employees, project_messages, projects, users } from "../../server/db/schema";
import { seedBase, seedDemo } from "../../server/db/seed";
import { argsMessages, moveMessages } from "../../src/core/messages";
import { RESOURCE_SINGULARS } from "../../src/core/resources";
import { adminUrl, withDatabase } from "../support/database-url";
import { call } from "../support/factories";
import { recordFigures } from "../support/figures";

const ROOT = path.resolve(import.meta.dirname, "..", "..");
const PASSWORD = "demo-mudanza-1";
const SERVER = adminUrl(process.env.DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres");
const NAME = `sia_move_${randomBytes(6).toString("hex")}`;
const TARGET = withDatabase(SERVER, NAME);
const WEEK = { start: "2026-03-09", end: "2026-03-15" };

let dataDir: string;
let token: string;
let projectId: number;
let workspaceId: number;
let before: Record<string, Answer>;
const figures = { ms: 0, tables: 0, rows: 0 };

interface Answer {
  status: number;
  body: unknown;
}

/** The environment the command reads: the source's DATA_DIR, never the run's own DATABASE_URL. */
const env = (extra: Record<string, string> = {}) => {
  const { DATABASE_URL: _ignored, ...rest } = process.env;
  return { ...rest, NODE_ENV: "test", LOG_LEVEL: "silent", DATA_DIR: dataDir, ...extra };
};

async function move(argv: string[], extra: Record<string, string> = {}) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runMoveToPostgres(argv, env(extra), { out: (l) => out.push(l), err: (l) => err.push(l) });
  return { code, out: out.join("\n"), err: err.join("\n") };
}

async function admin<T>(work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: SERVER, connectionTimeoutMillis: 5000 });
  try {
    await client.connect();
  } catch (error) {
    throw new Error(`Esta prueba necesita PostgreSQL en ${SERVER} (CI siempre lo tiene): ${(error as Error).message}`);
  }
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

const tablesOfTarget = async (target = TARGET) => {
  const client = new pg.Client({ connectionString: target });
  await client.connect();
  try {
    const { rows } = await client.query(
      "select count(*)::int as n from pg_class c join pg_namespace n on n.oid = c.relnamespace where c.relkind = 'r' and n.nspname in ('public', 'drizzle')",
    );
    return rows[0].n as number;
  } finally {
    await client.end();
  }
};

async function buildApp(database: Database, extra: Record<string, string> = {}) {
  const config = loadConfig({ NODE_ENV: "test", LOG_LEVEL: "silent", SIA_DEMO: "0", DATA_DIR: dataDir, ...extra });
  const app = await build({ config, database, logger: false });
  await app.ready();
  return app;
}

/** What the screens read, as the administrator: every list, a week, a report, a board, an audit trail. */
async function readEverything(app: FastifyInstance): Promise<Record<string, Answer>> {
  const urls = [
    ...Object.keys(RESOURCE_SINGULARS).map(
      (resource) => `/api/v1/${resource}?per_page=${resource === "notifications" ? 100 : 1000}`,
    ),
    `/api/v1/activities?by_begins_at[start_date]=${WEEK.start}&by_begins_at[end_date]=${WEEK.end}&per_page=all`,
    `/api/v1/activities/week_state?week_start=${WEEK.start}`,
    `/api/v1/activities/reporting_activities.csv?current_filter=workspace&workspace_id=${workspaceId}&start_date=2026-01-01&end_date=2026-03-18`,
    `/api/v1/dashboards/employee?week=${WEEK.start}`,
    `/api/v1/projects/${projectId}`,
    `/api/v1/projects/${projectId}/messages`,
    `/api/v1/projects/${projectId}/audit_logs`,
  ];
  const answers: Record<string, Answer> = {};
  for (const url of urls) {
    const res = await call(app, "GET", url, undefined, { authorization: `Bearer ${token}` });
    answers[url] = { status: res.status, body: res.body ?? res.text };
  }
  return answers;
}

let sleeper: ChildProcess | undefined;

beforeAll(async () => {
  await admin((c) => c.query(`CREATE DATABASE ${NAME}`));
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "sia-move-"));
  // The run's migrated template (embedded pass) spares the folder's slow first start; else it migrates.
  const template = inject("templatePath");
  const embedded = await openPglite({
    dataDir,
    loadDataDir: template ? new Blob([fs.readFileSync(template)]) : undefined,
  });
  try {
    await embedded.migrate();
    await seedBase(embedded.db);
    const seeded = await seedDemo(embedded.db, { password: PASSWORD, now: new Date("2026-03-18T20:00:00Z") });
    expect(seeded.seeded).toBe(true);
    // The demo has no board messages nor audit trail: a few of each, so they are moved too.
    const [project] = await embedded.db.select().from(projects).orderBy(projects.id).limit(1);
    const [author] = await embedded.db.select().from(users).orderBy(users.id).limit(1);
    projectId = project.id;
    const [busiest] = await embedded.db
      .select({ id: employees.workspace_id })
      .from(employees)
      .groupBy(employees.workspace_id)
      .orderBy(desc(sql`count(*)`))
      .limit(1);
    workspaceId = busiest.id as number;
    await embedded.db.insert(project_messages).values([
      { project_id: project.id, user_id: author.id, body: "Antes de la mudanza 🚚 «ñandú»" },
      { project_id: project.id, user_id: author.id, body: "Segundo mensaje", mentions: [author.id] },
    ]);
    await audit(
      embedded.db,
      { type: "Project", id: project.id },
      [{ field: "name", old: project.name, new: `${project.name} (revisado)` }],
      { userId: author.id, comment: "Bitácora que debe mudarse" },
    );
    const app = await buildApp(embedded);
    try {
      const signedIn = await call(app, "POST", "/api/v1/sessions", { email: "admin@sia.local", password: PASSWORD });
      expect(signedIn.status).toBe(200);
      token = signedIn.body.token;
      before = await readEverything(app);
    } finally {
      await app.close();
    }
  } finally {
    await embedded.close();
  }
}, 120_000);

afterAll(async () => {
  sleeper?.kill();
  await admin(async (c) => {
    await c.query(`DROP DATABASE IF EXISTS ${NAME} WITH (FORCE)`);
    await c.query(`DROP DATABASE IF EXISTS ${NAME}_b WITH (FORCE)`);
    await c.query(`DROP DATABASE IF EXISTS ${NAME}_c WITH (FORCE)`);
    await c.query(`DROP DATABASE IF EXISTS ${NAME}_d WITH (FORCE)`);
  }).catch(() => {});
  if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
});

describe("move-to-postgres refuses", () => {
  it("a missing or malformed --to, with the usage", async () => {
    const missing = await move([]);
    expect(missing.code).toBe(1);
    expect(missing.err).toContain(moveMessages.missingTo);
    expect(missing.err).toContain(moveMessages.usage);
    for (const bad of ["http://127.0.0.1/sia", "no es una url", "postgres:///sin-servidor"]) {
      const res = await move(["--to", bad]);
      expect(res.code, bad).toBe(1);
      expect(res.err).toContain(moveMessages.badUrl(bad));
    }
    const unknown = await move(["--hacia", TARGET]);
    expect(unknown.code).toBe(1);
    expect(unknown.err).toBe(`${argsMessages.unknownOption("--hacia")}\n${moveMessages.usage}`);
    const noValue = await move(["--to"]);
    expect(noValue.err).toBe(`${argsMessages.missingValue("--to")}\n${moveMessages.usage}`);
  });

  it("an unreachable target, and DATABASE_URL set (the source is DATA_DIR)", async () => {
    const unreachable = await move(["--to", "postgres://postgres@127.0.0.1:1/sia"]);
    expect(unreachable.code).toBe(1);
    expect(unreachable.err).toContain("No se pudo conectar a la base de destino postgres://postgres@127.0.0.1:1/sia");
    const withUrl = await move(["--to", TARGET], { DATABASE_URL: TARGET });
    expect(withUrl.code).toBe(1);
    expect(withUrl.err).toBe(moveMessages.databaseUrlSet);
  });

  it("while a server holds the data folder (its lock names a live process)", async () => {
    // What a running server leaves: DATA_DIR/sia.lock with its PID (server/db/client.ts).
    sleeper = spawn("sleep", ["60"], { stdio: "ignore" });
    fs.writeFileSync(path.join(dataDir, "sia.lock"), String(sleeper.pid));
    try {
      const res = await move(["--to", TARGET]);
      expect(res.code).toBe(1);
      expect(res.err).toBe(moveMessages.serverRunning(path.resolve(dataDir)));
      expect(await tablesOfTarget()).toBe(0);
    } finally {
      sleeper.kill();
      sleeper = undefined;
      fs.rmSync(path.join(dataDir, "sia.lock"), { force: true });
    }
  });

  it("rows that differ after the copy: all of it rolled back, the target as it was", async () => {
    // An already migrated, empty target is accepted; a trigger of its own changes what arrives.
    const target = withDatabase(SERVER, `${NAME}_b`);
    await admin((c) => c.query(`CREATE DATABASE ${NAME}_b`));
    const database = await openPostgres(target, 1);
    try {
      await database.migrate();
      await database.pool?.query(`
        create function sia_test_mangle() returns trigger language plpgsql as $$
        begin new.name := new.name || ' (cambiado)'; return new; end $$;
        create trigger sia_test_mangle before insert on holydays for each row execute function sia_test_mangle()`);
      const res = await move(["--to", target]);
      expect(res.code).toBe(1);
      expect(res.err).toBe(moveMessages.mismatch(["holydays"]));
      expect(res.out).toMatch(/^holydays .* DISTINTA$/m);
      const [left] = await database.rows<{ activities: number; holydays: number }>(
        sql`select (select count(*) from activities)::int as activities, (select count(*) from holydays)::int as holydays`,
      );
      expect(left).toEqual({ activities: 0, holydays: 0 });
    } finally {
      await database.close();
    }
  });

  it("with no stack trace from the real command line", async () => {
    const run = promisify(execFile);
    const failed = await run(process.execPath, ["--import", "tsx", "server/cli/move-to-postgres.ts", "--to", "mysql://x/y"], {
      cwd: ROOT,
      env: env(),
    }).catch((error: { code: number; stdout: string; stderr: string }) => error);
    expect("code" in failed && failed.code).toBe(1);
    expect(failed.stderr.trim()).toBe(`${moveMessages.badUrl("mysql://x/y")}\n${moveMessages.usage}`);
  });
});

/**
 * The real command line, paused after its first batch (server/http/testPause.ts, «move_copy») for long
 * enough to be interrupted there, mid-transaction.
 */
function startMove(target: string, shell = false) {
  const command = [process.execPath, "--import", "tsx", "server/cli/move-to-postgres.ts", "--to", target];
  const pausing = env({ SIA_TEST_PAUSE: "move_copy", SIA_TEST_PAUSE_MS: "1500" });
  // Through a shell that does not exec it: the shell is the parent that goes away.
  const child = shell
    ? spawn("sh", ["-c", `${command.map((w) => `'${w}'`).join(" ")}; true`], { cwd: ROOT, env: pausing })
    : spawn(command[0], command.slice(1), { cwd: ROOT, env: pausing });
  const output = { out: "", err: "" };
  child.stdout?.on("data", (chunk) => {
    output.out += chunk;
  });
  child.stderr?.on("data", (chunk) => {
    output.err += chunk;
  });
  const paused = new Promise<void>((resolve, reject) => {
    child.stdout?.on("data", () => output.out.includes("SIA_TEST_PAUSED move_copy") && resolve());
    child.on("exit", () => reject(new Error(`terminó sin pausar:\n${output.out}\n${output.err}`)));
  });
  const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
  return { child, output, paused, exited };
}

describe("move-to-postgres interrupted", () => {
  it("by SIGTERM mid-copy: rolled back, said so, not «Listo»; a retry then moves", async () => {
    const target = withDatabase(SERVER, `${NAME}_c`);
    await admin((c) => c.query(`CREATE DATABASE ${NAME}_c`));
    const run = startMove(target);
    await run.paused;
    run.child.kill("SIGTERM");
    expect(await run.exited).toBe(143);
    expect(run.output.err.trim()).toBe(moveMessages.interrupted);
    expect(run.output.out).not.toContain("Listo");
    expect(await tablesOfTarget(target)).toBe(0);

    // The retry names a password (the test server trusts any): the line to paste hides it, and says so.
    const withPassword = new URL(target);
    withPassword.password = "secreto";
    const retry = await move(["--to", withPassword.toString()]);
    expect(retry.err).toBe("");
    expect(retry.code).toBe(0);
    expect(retry.out).not.toContain("secreto");
    withPassword.password = "***";
    const command = `DATA_DIR=${shellQuoted(path.resolve(dataDir))} DATABASE_URL=${shellQuoted(withPassword.toString())} npm start`;
    expect(retry.out).toContain(moveMessages.nextStart(path.resolve(dataDir), command, true));
    expect(moveMessages.nextStart("/d", "c", true).split("\n")[0]).toMatch(/escríbala en lugar de \*\*\*:$/);
  }, 120_000);

  it("prints the next start's line quoted for the shell", async () => {
    const word = `/srv/datos de 'SIA' $HOME \\ "x" \`id\``;
    const { stdout } = await promisify(execFile)("sh", ["-c", `printf %s ${shellQuoted(word)}`]);
    expect(stdout).toBe(word);
  });

  it("when the process that started it goes away (a killed npm run): it stops too", async () => {
    const target = withDatabase(SERVER, `${NAME}_d`);
    await admin((c) => c.query(`CREATE DATABASE ${NAME}_d`));
    const run = startMove(target, true);
    await run.paused;
    // The shell dies without passing anything on; its child, the move, keeps the output pipes.
    run.child.kill("SIGKILL");
    const deadline = Date.now() + 20_000;
    while (!run.output.err.includes(moveMessages.interrupted) && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(run.output.err.trim()).toBe(moveMessages.interrupted);
    expect(run.output.out).not.toContain("Listo");
    // The orphan closes its connection as it ends: the target holds nothing.
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(await tablesOfTarget(target)).toBe(0);
  }, 120_000);
});

describe("move-to-postgres moves the demo firm", () => {
  it("copies, verifies, and the app on PostgreSQL reads the same", async () => {
    const started = performance.now();
    const moved = await move(["--to", TARGET]);
    figures.ms = performance.now() - started;
    expect(moved.err).toBe("");
    expect(moved.code).toBe(0);
    const lines = moved.out.split("\n");
    const checked = lines.filter((l) => / bien$/.test(l));
    expect(lines.some((l) => l.includes(moveMessages.rowBad))).toBe(false);
    expect(checked.some((l) => l.startsWith("activities "))).toBe(true);
    expect(checked.some((l) => l.startsWith("drizzle.__drizzle_migrations "))).toBe(true);
    expect(moved.out).toContain(`  DATA_DIR='${path.resolve(dataDir)}' DATABASE_URL='${TARGET}' npm start`);
    expect(moved.out).not.toContain("***");
    expect(moved.out).toContain(moveMessages.sessionsKept(1));
    const done = /Listo: (\d+) tablas, (\d+) filas/.exec(moved.out);
    figures.tables = Number(done?.[1]);
    figures.rows = Number(done?.[2]);
    expect(figures.tables).toBeGreaterThan(30);
    expect(figures.rows).toBeGreaterThan(2000);

    // The next start: same DATA_DIR, DATABASE_URL the target (migrations and reference data run again).
    const database = await openPostgres(TARGET, 4);
    try {
      await database.migrate();
      await seedBase(database.db);
      const app = await buildApp(database, { DATABASE_URL: TARGET });
      try {
        // The session opened before the move still works: nobody signs in again.
        const after = await readEverything(app);
        for (const [url, answer] of Object.entries(before)) {
          expect(answer.status, `${url}: ${JSON.stringify(answer.body).slice(0, 300)}`).toBe(200);
          expect(after[url], url).toEqual(answer);
        }
        const report = Object.entries(before).find(([url]) => url.includes("reporting_activities"))?.[1].body as string;
        expect(report.split("\r\n").length).toBeGreaterThan(20);
        const week = Object.entries(before).find(([url]) => url.includes("by_begins_at"))?.[1].body as { activities: unknown[] };
        expect(week.activities.length).toBeGreaterThan(20);
        const board = before[`/api/v1/projects/${projectId}/messages`].body as { messages: unknown[] };
        expect(board.messages).toHaveLength(2);
        const trail = before[`/api/v1/projects/${projectId}/audit_logs`].body as { audit_logs: unknown[] };
        expect(trail.audit_logs.length).toBeGreaterThan(0);

        const signedIn = await call(app, "POST", "/api/v1/sessions", { email: "operador@sia.local", password: PASSWORD });
        expect(signedIn.status).toBe(200);
        // The sequences went along: a new row takes the next id, not one already used.
        const [ids] = await database.rows<{ n: number }>(sql`select count(*)::int as n from sessions`);
        expect(ids.n).toBe(2);
      } finally {
        await app.close();
      }
    } finally {
      await database.close();
    }

    const again = await move(["--to", TARGET]);
    expect(again.code).toBe(1);
    expect(again.err).toContain("no está vacía");
    recordFigures(
      "mudanza-a-postgres",
      `la firma de demostración movida a PostgreSQL: ${figures.tables} tablas, ${figures.rows} filas en ${Math.round(figures.ms)} ms`,
      figures,
    );
  }, 120_000);
});
