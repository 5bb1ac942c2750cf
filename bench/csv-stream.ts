/**
 * Benchmark: reporting_activities.csv through the real server on PostgreSQL, for 1,000 and 1,000,000
 * activities; records rows/s and the server's peak RSS of each in bench/RESULTS.md. See bench/README.md.
 *
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres npx tsx bench/csv-stream.ts
 *
 * A scratch database (sia_bench_<time>) is created on that server and dropped at the end (KEEP_DB=1 keeps
 * it; BENCH_DB=<name> reuses a kept one without generating the rows again).
 */
import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { sql } from "drizzle-orm";
import { hashPassword } from "../server/auth/passwords";
import { type Database, openPostgres } from "../server/db/client";
import { adminUrl, withDatabase } from "../tests/support/database-url";

const BASE_URL = process.env.DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";
const PORT = Number(process.env.BENCH_PORT ?? 3254);
const ROOT = path.resolve(import.meta.dirname, "..");
const SIZES = [
  { label: "1,000", employees: 1, perEmployee: 1000 },
  { label: "1,000,000", employees: 1000, perEmployee: 1000 },
];
/** Server runs: node's defaults, then an old-space cap far below the 1,000,000-row file. */
const RUNS = [
  { label: "default", flags: [] as string[] },
  { label: "--max-old-space-size=64", flags: ["--max-old-space-size=64"] },
];
const PASSWORD = "bench-secreto";
const START = "2030-01-07";
/** The report's first local day: activities start at 00:00 UTC, the evening before in Mexico City. */
const REPORT_FROM = "2030-01-06";
const REPORT_TO = new Date(Date.parse(`${START}T00:00:00Z`) + 1000 * 3_600_000 + 2 * 86_400_000).toISOString().slice(0, 10);

const mb = (kb: number) => `${(kb / 1024).toFixed(1)} MB`;
const rssKb = (pid: number, field: "VmRSS" | "VmHWM") => {
  const status = fs.readFileSync(`/proc/${pid}/status`, "utf8");
  return Number(new RegExp(`${field}:\\s+(\\d+)`).exec(status)?.[1] ?? 0);
};

interface Result {
  run: string;
  label: string;
  rows: number;
  bytes: number;
  seconds: number;
  before: number;
  peak: number;
}

/** The rows: two workspaces (1 employee × 1,000 activities; 1,000 × 1,000). Answers their ids. */
async function generate(database: Database): Promise<number[]> {
  const digest = await hashPassword(PASSWORD);
  await database.rows(sql`insert into users (name, email, password_digest, administrator_role)
    values ('Bench', 'bench@sia.local', ${digest}, true)`);
  const [client] = await database.rows<{ id: number }>(
    sql`insert into clients (name, client_code) values ('Cliente Año Fiscal', 'B1') returning id`,
  );
  const [project] = await database.rows<{ id: number }>(
    sql`insert into projects (project_code, name, client_id) values ('BEN-1', 'Migración nómina', ${client.id}) returning id`,
  );
  const workspaces: number[] = [];
  for (const [i, size] of SIZES.entries()) {
    const [ws] = await database.rows<{ id: number }>(sql`insert into workspaces (name) values (${`Bench ${i}`}) returning id`);
    workspaces.push(ws.id);
    const t0 = Date.now();
    await database.rows(sql`insert into employees (name, employee_code, workspace_id)
      select 'Empleado ' || ${i} || '-' || g, 'B' || ${i} || '-' || g, ${ws.id} from generate_series(1, ${size.employees}) g`);
    await database.rows(sql`insert into activities (employee_id, begins_at, ends_at, description, action_type,
        ownerable_type, ownerable_id, project_id, ticket_id)
      select e.id,
        ${START}::timestamptz + make_interval(hours => g),
        ${START}::timestamptz + make_interval(hours => g, mins => 45),
        case when g % 10 = 0 then '=HYPERLINK("x") revisión ' || g else 'Revisión de nómina — año ' || g end,
        'project', 'Client', ${client.id}, ${project.id}, 'T-' || g
      from employees e cross join generate_series(0, ${size.perEmployee - 1}) g
      where e.workspace_id = ${ws.id}`);
    console.log(`  ${size.label} actividades en ${((Date.now() - t0) / 1000).toFixed(1)} s`);
  }
  await database.rows(sql`analyze`);
  return workspaces;
}

/** Starts the real server (a separate process), downloads each report, samples its RSS. */
async function measure(url: string, workspaces: number[], run: (typeof RUNS)[number]): Promise<Result[]> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "sia-bench-"));
  const server = spawn(process.execPath, [...run.flags, "--import", "tsx", "server/main.ts"], {
    cwd: ROOT,
    env: { ...process.env, DATABASE_URL: url, PORT: String(PORT), DATA_DIR: dataDir, LOG_LEVEL: "warn", SIA_DEMO: "0" },
    stdio: ["ignore", "pipe", "inherit"],
  });
  try {
    await new Promise<void>((resolve, reject) => {
      server.stdout?.on("data", (chunk: Buffer) => chunk.toString().includes("SIA está listo") && resolve());
      server.once("exit", (code) => reject(new Error(`el servidor terminó (${code})`)));
    });
    const pid = server.pid as number;
    const base = `http://127.0.0.1:${PORT}/api/v1`;
    const login = await fetch(`${base}/sessions`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ email: "bench@sia.local", password: PASSWORD }),
    });
    const { token } = (await login.json()) as { token: string };
    const results: Result[] = [];
    for (const [i, size] of SIZES.entries()) {
      const before = rssKb(pid, "VmRSS");
      let peak = before;
      const sampler = setInterval(() => {
        peak = Math.max(peak, rssKb(pid, "VmRSS"));
      }, 50);
      const t0 = performance.now();
      const res = await fetch(
        `${base}/activities/reporting_activities.csv?current_filter=workspace&workspace_id=${workspaces[i]}&start_date=${REPORT_FROM}&end_date=${REPORT_TO}`,
        { headers: { authorization: `Bearer ${token}` } },
      );
      if (!res.ok || !res.body) throw new Error(`HTTP ${res.status}: ${await res.text()}`);
      let bytes = 0;
      let lines = 0;
      for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
        bytes += chunk.byteLength;
        for (const byte of chunk) if (byte === 10) lines++;
      }
      const seconds = (performance.now() - t0) / 1000;
      clearInterval(sampler);
      peak = Math.max(peak, rssKb(pid, "VmRSS"));
      const rows = lines - 1;
      if (rows !== size.employees * size.perEmployee)
        throw new Error(`${rows} filas, se esperaban ${size.employees * size.perEmployee}`);
      results.push({ run: run.label, label: size.label, rows, bytes, seconds, before, peak });
      console.log(
        `  [${run.label}] ${size.label}: ${rows} filas, ${(bytes / 1024 / 1024).toFixed(1)} MB en ${seconds.toFixed(2)} s (${Math.round(rows / seconds)} filas/s); RSS ${mb(before)} → pico ${mb(peak)}`,
      );
    }
    return results;
  } finally {
    server.kill("SIGTERM");
    await new Promise((resolve) => server.once("exit", resolve));
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

async function main() {
  const reuse = process.env.BENCH_DB;
  const name = reuse ?? `sia_bench_${Date.now()}`;
  if (!reuse) {
    const admin = await openPostgres(adminUrl(BASE_URL), 1);
    await admin.pool?.query(`CREATE DATABASE ${name}`);
    await admin.close();
  }
  const url = withDatabase(BASE_URL, name);
  const database = await openPostgres(url, 2);
  try {
    let workspaces: number[];
    if (reuse) {
      workspaces = (
        await database.rows<{ id: number }>(sql`select id from workspaces where name like 'Bench %' order by name`)
      ).map((r) => r.id);
    } else {
      await database.migrate();
      console.log(`Base ${name}: generando actividades…`);
      workspaces = await generate(database);
    }
    const results: Result[] = [];
    for (const run of RUNS) results.push(...(await measure(url, workspaces, run)));
    const pgVersion = (await database.rows<{ v: string }>(sql`select version() as v`))[0].v.split(",")[0];
    const cpu = os.cpus()[0]?.model ?? "?";
    const report = [
      "# CSV streaming benchmark",
      "",
      `Run: ${new Date().toISOString()} — \`npx tsx bench/csv-stream.ts\``,
      `Machine: ${cpu}, ${os.cpus().length} cores (shared with other work), ${(os.totalmem() / 1024 ** 3).toFixed(1)} GiB RAM, ${os.type()} ${os.release()}; Node ${process.version}; ${pgVersion}.`,
      "",
      "GET /api/v1/activities/reporting_activities.csv (kind workspace) through the real server (`node --import tsx server/main.ts`,",
      "a separate process on PostgreSQL, one server per run), read to the end by the client. RSS is the server process's",
      "(`/proc/<pid>/status`, sampled every 50 ms during the download); 'before' is its RSS just before the request.",
      "The second run caps V8's old space at 64 MB, half the size of the 1,000,000-row file: it can only finish if",
      "the rows are never held together.",
      "",
      `Load average at the end of the run: ${os
        .loadavg()
        .map((l) => l.toFixed(1))
        .join(" / ")} (1 / 5 / 15 min): the times are those of a busy machine.`,
      "",
      "| Server | Report | Rows | CSV size | Time | Rows/s | Server RSS before | Server peak RSS |",
      "|---|---|---:|---:|---:|---:|---:|---:|",
      ...results.map(
        (r) =>
          `| ${r.run} | ${r.label} activities | ${r.rows} | ${(r.bytes / 1024 / 1024).toFixed(1)} MB | ${r.seconds.toFixed(2)} s | ${Math.round(r.rows / r.seconds)} | ${mb(r.before)} | ${mb(r.peak)} |`,
      ),
      "",
      "Reading: with node's defaults V8 lets garbage accumulate between major collections when it has room, so the",
      "peak rises by some tens of MB while a large file streams; that is not retained data. Under the 64 MB cap the",
      "same 1,000,000-row report (133 MB of CSV) streams with a peak a few MB above the 1,000-row one: memory does",
      "not depend on the number of rows. Rows are read 1,000 at a time through a server-side cursor",
      "(docs/decisions/008-csv-streaming.md).",
      "",
    ].join("\n");
    fs.writeFileSync(path.join(ROOT, "bench", "RESULTS.md"), report);
    console.log(`\n${report}`);
  } finally {
    await database.close();
    if (!process.env.KEEP_DB && !reuse) {
      const again = await openPostgres(adminUrl(BASE_URL), 1);
      await again.pool?.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await again.close();
    }
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
