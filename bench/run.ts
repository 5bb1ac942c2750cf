/**
 * bench/run: SIA at a large firm's size, each figure beside its floor measured in the same run.
 *
 *   npm run bench -- [--scale 1] [--seed 42] [--fresh] [--only lists,csv,week,view,start,capacity] [--duration 10]
 *
 * Generates the firm when the bench database does not hold it yet (bench/generate.ts), starts the real
 * server (a separate `node scripts/start.mjs` process, as `npm start` runs it, on PostgreSQL, port BENCH_PORT) and measures:
 *   lists — list endpoints under 50 concurrent clients (autocannon) against the same SQL through `pg`;
 *   csv   — reporting_activities.csv (up to 1,000,000 rows) against `psql \copy` of the same query;
 *   week  — save a 60-activity week (one POST activities/batch) against one multi-row INSERT of the same rows;
 *   view  — the week view with 150 events in headless Chromium against bare FullCalendar, and the
 *           initial JavaScript (gzip) of /app/activities and of an admin list;
 *   start — `npm start` to the first 200 on an existing embedded database (and the first-ever start);
 *   capacity — GET /capacity for every employee × 20 weeks, sequential and 10 at once, against its statements through `pg`.
 * Writes bench/RESULTS.md (machine, date, a table per measurement). See bench/README.md.
 */
import { type ChildProcess, execFileSync, spawn, spawnSync } from "node:child_process";
import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import zlib from "node:zlib";
import autocannon from "autocannon";
import { sql } from "drizzle-orm";
import { PgDialect } from "drizzle-orm/pg-core";
import pg from "pg";
import { build } from "../server/app";
import { loadConfig } from "../server/config";
import { type Database, openPglite, openPostgres } from "../server/db/client";
import { reportQuery } from "../server/modules/reports";
import { CALENDAR } from "../src/core/constants";
import { addDays, businessToday, mondayOf } from "../src/core/week";
import { BENCH_EMAIL, BENCH_PASSWORD, benchDatabaseUrl, ensureGenerated, parseArgs, sizes } from "./generate";

const ROOT = path.resolve(import.meta.dirname, "..");
/** node's arguments of `npm start` (package.json), so the bench runs the server exactly as it starts. */
const START_ARGS = (() => {
  const start: string = JSON.parse(fs.readFileSync(path.join(ROOT, "package.json"), "utf8")).scripts.start;
  const [command, ...args] = start.split(/\s+/);
  if (command !== "node") throw new Error(`npm start no es «node …»: ${start}`);
  return args;
})();
const PORT = Number(process.env.BENCH_PORT ?? 3271);
const STATIC_PORT = PORT + 1;
const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
const args = parseArgs(process.argv.slice(2));
const ALL_MEASUREMENTS = "lists,csv,week,view,start,capacity";
const ONLY = new Set((args.value("--only") ?? ALL_MEASUREMENTS).split(","));
const DURATION = Number(args.value("--duration") ?? 10);
const CONNECTIONS = 50;
const BASE = process.env.DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";
/**
 * BENCH_VIEW_OLD: another build's dist folder. The view is then measured for both builds, alternated in
 * each round on the one server (the old build's hashed files are copied beside this one's for the run,
 * and activities.html is swapped before each visit: the server reads it on every request), so a change is
 * compared under the same load.
 */
const OLD_BUILD = process.env.BENCH_VIEW_OLD;

interface Row {
  figure: string;
  value: string;
  floor: string;
  ratio: number | null;
  target: string;
  met: boolean | null;
  note?: string;
}
const sections: { title: string; intro: string; rows: Row[]; extra?: string }[] = [];
const fmt = (ms: number) => `${ms.toFixed(ms < 10 ? 2 : 1)} ms`;
const percentile = (values: number[], p: number) => {
  if (!values.length) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))];
};
const median = (values: number[]) => percentile(values, 50);

/* ---------- the server ---------- */

async function startServer(env: Record<string, string>, command: string[] = START_ARGS) {
  const t0 = performance.now();
  const merged: Record<string, string | undefined> = {
    ...process.env,
    PORT: String(PORT),
    LOG_LEVEL: "warn",
    JOBS_ENABLED: "false",
    ...env,
  };
  // An empty value unsets the variable (DATABASE_URL="" → the embedded database).
  for (const [key, value] of Object.entries(merged)) if (value === "") delete merged[key];
  const child = spawn(process.execPath, command, {
    cwd: ROOT,
    env: merged,
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout?.on("data", (c: Buffer) => {
    output += c.toString();
  });
  child.stderr?.on("data", (c: Buffer) => {
    output += c.toString();
  });
  let exited = false;
  child.once("exit", () => {
    exited = true;
  });
  for (;;) {
    if (exited) throw new Error(`el servidor terminó antes de responder:\n${output}`);
    const ok = await new Promise<boolean>((resolve) => {
      const req = http.get({ host: "127.0.0.1", port: PORT, path: "/healthz", timeout: 1000 }, (res) => {
        res.resume();
        resolve(res.statusCode === 200);
      });
      req.on("error", () => resolve(false));
      req.on("timeout", () => {
        req.destroy();
        resolve(false);
      });
    });
    if (ok) break;
    await new Promise((r) => setTimeout(r, 20));
    if (performance.now() - t0 > 180_000) throw new Error(`el servidor no respondió en 3 min:\n${output}`);
  }
  return { child, ms: performance.now() - t0 };
}

async function stopServer(child: ChildProcess) {
  if (child.exitCode !== null) return;
  const exited = new Promise((resolve) => child.once("exit", resolve));
  child.kill("SIGTERM");
  await exited;
}

async function signIn(): Promise<string> {
  const res = await fetch(`http://127.0.0.1:${PORT}/api/v1/sessions`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ email: BENCH_EMAIL, password: BENCH_PASSWORD }),
  });
  if (!res.ok) throw new Error(`inicio de sesión: HTTP ${res.status}`);
  return ((await res.json()) as { token: string }).token;
}

/* ---------- 1. lists ---------- */

interface Endpoint {
  label: string;
  path: string;
}

interface Captured {
  text: string;
  params: unknown[];
}

/** The statements one request sends, captured in-process (drizzle's logger) on the same database. */
async function captureQueries(url: string, paths: string[]): Promise<Captured[][]> {
  const database = await openPostgres(url, 2);
  const app = await build({
    config: { ...loadConfig(), DATABASE_URL: url, LOG_LEVEL: "silent", JOBS_ENABLED: false } as never,
    database,
  });
  try {
    const login = await app.inject({
      method: "POST",
      url: "/api/v1/sessions",
      payload: { email: BENCH_EMAIL, password: BENCH_PASSWORD },
    });
    const { token } = login.json() as { token: string };
    const out: Captured[][] = [];
    for (const p of paths) {
      const captured: Captured[] = [];
      const listener = (text: string, params: unknown[]) => captured.push({ text, params });
      // The statements of a request in the steady state the load test measures: its session is then cached.
      await app.inject({ method: "GET", url: p, headers: { authorization: `Bearer ${token}` } });
      database.queryListeners.add(listener);
      const res = await app.inject({ method: "GET", url: p, headers: { authorization: `Bearer ${token}` } });
      database.queryListeners.delete(listener);
      if (res.statusCode !== 200) throw new Error(`${p}: HTTP ${res.statusCode} ${res.body.slice(0, 300)}`);
      out.push(captured);
    }
    return out;
  } finally {
    await app.close();
    await database.close();
  }
}

/** 50 concurrent clients against the server (autocannon), every response time kept. */
async function loadServer(pathname: string, token: string, seconds: number) {
  const times: number[] = [];
  let non2xx = 0;
  await new Promise<void>((resolve, reject) => {
    const instance = autocannon(
      {
        url: `http://127.0.0.1:${PORT}${pathname}`,
        connections: CONNECTIONS,
        duration: seconds,
        headers: { authorization: `Bearer ${token}` },
      },
      (error) => (error ? reject(error) : resolve()),
    );
    instance.on("response", (_client, status, _bytes, ms) => {
      if (status !== 200) non2xx++;
      times.push(ms);
    });
  });
  if (non2xx) throw new Error(`${pathname}: ${non2xx} respuestas distintas de 200`);
  return times;
}

/** The same statements through `pg` directly: 50 concurrent loops over a pool of the server's size. */
async function loadRaw(url: string, statements: Captured[], seconds: number) {
  const pool = new pg.Pool({ connectionString: url, max: 10 });
  const times: number[] = [];
  const end = performance.now() + seconds * 1000;
  const worker = async () => {
    while (performance.now() < end) {
      const t0 = performance.now();
      for (const s of statements) await pool.query(s.text, s.params as never[]);
      times.push(performance.now() - t0);
    }
  };
  await Promise.all(Array.from({ length: CONNECTIONS }, worker));
  await pool.end();
  return times;
}

async function listEndpoints(url: string, scale: number) {
  const n = sizes(scale);
  const deep = (total: number, perPage: number) => Math.max(1, Math.floor((total * 0.8) / perPage));
  const week = await weekWithData(url);
  const endpoints = [
    {
      label: "clientes: búsqueda «azteca», orden por nombre, filtro listo para producción",
      path: "/api/v1/clients?search=azteca&by_column[column]=name&by_column[order]=asc&by_is_production_ready=true&page=1&per_page=25",
    },
    {
      label: `clientes: página profunda (${deep(n.clients, 25)}) por nombre`,
      path: `/api/v1/clients?by_column[column]=name&by_column[order]=asc&page=${deep(n.clients, 25)}&per_page=25`,
    },
    {
      label: "proyectos: búsqueda «nómina», filtro de estado, orden por código desc",
      path: "/api/v1/projects?search=nomina&by_status=%5B%22en_ejecucion%22%2C%22terminado%22%5D&by_column[column]=project_code&by_column[order]=desc&page=1&per_page=25",
    },
    {
      label: `proyectos: página profunda (${deep(n.projects, 25)})`,
      path: `/api/v1/projects?page=${deep(n.projects, 25)}&per_page=25`,
    },
    {
      label: "empleados: búsqueda «García», filtro de espacio de trabajo",
      path: "/api/v1/employees?search=garcia&by_workspace=%5B1%2C2%2C3%5D&page=1&per_page=25",
    },
    {
      label: "actividades de una semana (un empleado)",
      path: `/api/v1/activities?by_employee=${week.employee}&by_begins_at%5Bstart_date%5D=${week.start}&by_begins_at%5Bend_date%5D=${week.end}&per_page=all`,
    },
    {
      label: "asignaciones: filtro por empleados, orden por inicio, página 2",
      path: "/api/v1/assignments?by_employee=%5B1%2C2%2C3%2C4%2C5%2C6%2C7%2C8%5D&by_column[column]=start_on&by_column[order]=desc&page=2&per_page=10",
    },
  ];
  return endpoints;
}

/** Requests each list answered in the load test, per second, by the whole server (all its processes). */
const listThroughput: number[] = [];
/** Their p95, in ms. */
const listP95: number[] = [];

async function measureLists(url: string, token: string, endpoints: Endpoint[], processes: number) {
  const captured = await captureQueries(
    url,
    endpoints.map((e) => e.path),
  );
  const plans = await indexesUsed(url, captured);
  const rows: Row[] = [];
  for (const [i, e] of endpoints.entries()) {
    const server = await loadServer(e.path, token, DURATION);
    listThroughput.push(server.length / DURATION);
    listP95.push(percentile(server, 95));
    const raw = await loadRaw(url, captured[i], DURATION);
    const ratio = percentile(server, 95) / percentile(raw, 95);
    rows.push({
      figure: `${e.label} — p50 / p95 (${server.length} peticiones)`,
      value: `${fmt(median(server))} / ${fmt(percentile(server, 95))}`,
      floor: `${fmt(median(raw))} / ${fmt(percentile(raw, 95))} (${captured[i].length} statements)`,
      note: plans[i],
      ratio,
      target: "p95 ≤ 1.3×",
      met: ratio <= 1.3,
    });
    console.log(`  ${e.label}: ${rows[rows.length - 1].value} vs ${rows[rows.length - 1].floor} → ${ratio.toFixed(2)}×`);
  }
  sections.push({
    title: "1. Listas bajo 50 clientes concurrentes",
    intro: `Each list endpoint for ${DURATION} s with ${CONNECTIONS} concurrent connections (autocannon, loopback, bearer session) against the server as \`npm start\` runs it on PostgreSQL (${processes} process(es), WEB_CONCURRENCY's default: one per core but one), then, right after, the same statements the request sends (captured from drizzle's logger in the steady state, its session cached, run one after another as the request does) through \`pg\` directly: ${CONNECTIONS} concurrent loops on a pool of 10 connections for the same time. Ratio = p95 of the server / p95 of the raw SQL.`,
    rows,
  });
}

/** The same lists with a process on every core: requests per second and p95 beside the default's. */
async function measureThroughput(token: string, endpoints: Endpoint[], processes: number) {
  const rows: Row[] = [];
  for (const [i, e] of endpoints.entries()) {
    const times = await loadServer(e.path, token, DURATION);
    const all = times.length / DURATION;
    const usual = listThroughput[i];
    rows.push({
      figure: `${e.label} — p95 ${fmt(percentile(times, 95))} (default: ${fmt(listP95[i])})`,
      value: `${all.toFixed(0)} /s`,
      floor: `${usual.toFixed(0)} /s`,
      ratio: all / usual,
      target: "reported",
      met: null,
    });
    console.log(`  ${e.label}: ${all.toFixed(0)}/s (${processes} procesos) vs ${usual.toFixed(0)}/s (por omisión)`);
  }
  sections.push({
    title: "1b. Peticiones por segundo: un proceso por núcleo y el servidor por omisión",
    intro: `Requests answered per second in the load test above (the default: ${Math.max(1, processes - 1)} process(es), one per core but one) and, in a second pass, by a server started with WEB_CONCURRENCY=${processes} (every core), same ${CONNECTIONS} connections and ${DURATION} s. "SIA" is every core, "Floor" the default; the ratio is what every core gains or loses.`,
    rows,
  });
}

/** EXPLAIN of each request's list statement (not the session lookup): the indexes its plan uses. */
async function indexesUsed(url: string, captured: Captured[][]): Promise<string[]> {
  const pool = new pg.Pool({ connectionString: url, max: 1 });
  try {
    const out: string[] = [];
    for (const statements of captured) {
      const used = new Set<string>();
      for (const s of statements.filter((q) => !q.text.includes('from "sessions"'))) {
        const { rows } = await pool.query(`explain (format json) ${s.text}`, s.params as never[]);
        const walk = (node: Record<string, unknown>) => {
          if (typeof node["Index Name"] === "string") used.add(node["Index Name"]);
          for (const child of (node.Plans as Record<string, unknown>[] | undefined) ?? []) walk(child);
        };
        walk((rows[0]["QUERY PLAN"] as { Plan: Record<string, unknown> }[])[0].Plan);
      }
      out.push(used.size ? `indexes: ${[...used].join(", ")}` : "no index (sequential scan)");
    }
    return out;
  } finally {
    await pool.end();
  }
}

/** A week of the bench employee with generated activities (the last full week before the end date). */
async function weekWithData(url: string) {
  const pool = new pg.Pool({ connectionString: url, max: 1 });
  try {
    const { rows } = await pool.query(
      `select e.id as employee, to_char(until - 7, 'YYYY-MM-DD') as start, to_char(until - 3, 'YYYY-MM-DD') as "end"
       from bench_meta, employees e join users u on u.id = e.user_id where u.email = $1`,
      [BENCH_EMAIL],
    );
    return rows[0] as { employee: number; start: string; end: string };
  } finally {
    await pool.end();
  }
}

/* ---------- 2. CSV ---------- */

const inline = (text: string, params: unknown[]) =>
  text.replace(/\$(\d+)/g, (_m, i) => {
    const v = params[Number(i) - 1];
    if (v === null || v === undefined) return "null";
    if (typeof v === "number" || typeof v === "bigint") return String(v);
    if (typeof v === "boolean") return v ? "true" : "false";
    const s = v instanceof Date ? v.toISOString() : String(v);
    return `'${s.replace(/'/g, "''")}'`;
  });

async function measureCsv(url: string, token: string, serverPid: number) {
  const pool = new pg.Pool({ connectionString: url, max: 1 });
  // The biggest team (Desarrollo) over its most recent period holding at most 1,000,000 activities.
  const { rows } = await pool.query(
    `select w.id as workspace, to_char(m.d, 'YYYY-MM-DD') as start, (select to_char(until, 'YYYY-MM-DD') from bench_meta) as "end"
     from workspaces w cross join lateral (
       select d, sum(n) over (order by d desc) as total from (
         select date_trunc('month', a.begins_at)::date as d, count(*) as n
         from activities a join employees e on e.id = a.employee_id where e.workspace_id = w.id group by 1) x) m
     where w.name = 'Desarrollo' and m.total <= 1000000 order by m.d limit 1`,
  );
  await pool.end();
  const { workspace, start, end } = rows[0] as { workspace: number; start: string; end: string };
  const filter = { current_filter: "workspace", workspace_id: String(workspace), start_date: start, end_date: end };
  const query = new PgDialect().sqlToQuery(
    reportQuery({ kind: "workspace", id: workspace, start_date: start, end_date: end, excluded_ids: [] }),
  );
  const rss = () => Number(/VmRSS:\s+(\d+)/.exec(fs.readFileSync(`/proc/${serverPid}/status`, "utf8"))?.[1] ?? 0) / 1024;
  const before = rss();
  let peak = before;
  const sampler = setInterval(() => {
    peak = Math.max(peak, rss());
  }, 50);
  const t0 = performance.now();
  const res = await fetch(`http://127.0.0.1:${PORT}/api/v1/activities/reporting_activities.csv?${new URLSearchParams(filter)}`, {
    headers: { authorization: `Bearer ${token}` },
  });
  if (!res.ok || !res.body) throw new Error(`CSV: HTTP ${res.status} ${await res.text()}`);
  let bytes = 0;
  let lines = 0;
  for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
    bytes += chunk.byteLength;
    for (const b of chunk) if (b === 10) lines++;
  }
  const seconds = (performance.now() - t0) / 1000;
  clearInterval(sampler);
  const count = lines - 1;
  // The floor: psql \copy of the same query (parameters inlined), written to /dev/null.
  const copy = `\\copy (${inline(query.sql, query.params).replace(/\s+/g, " ")}) to '/dev/null' with csv header`;
  const t1 = performance.now();
  execFileSync("psql", [url, "-q", "-v", "ON_ERROR_STOP=1", "-c", copy], { stdio: ["ignore", "ignore", "inherit"] });
  const psqlSeconds = (performance.now() - t1) / 1000;
  const server = count / seconds;
  const floor = count / psqlSeconds;
  const ratio = server / floor;
  console.log(
    `  CSV: ${count} filas en ${seconds.toFixed(1)} s (${Math.round(server)}/s), psql ${psqlSeconds.toFixed(1)} s; RSS pico ${peak.toFixed(0)} MB`,
  );
  sections.push({
    title: "2. reporting_activities.csv",
    intro: `GET /api/v1/activities/reporting_activities.csv?current_filter=workspace (Desarrollo, the biggest team) from ${start} to ${end} (${count.toLocaleString("en")} rows, ${(bytes / 1024 / 1024).toFixed(1)} MB), read to the end over loopback by a server process started for this measurement (\`npm start\`'s compiled server, signed in once); its RSS sampled every 50 ms from /proc. Floor: \`psql \\copy (same query) to /dev/null with csv header\`.`,
    rows: [
      {
        figure: "Throughput (rows/s)",
        value: `${Math.round(server).toLocaleString("en")} (${seconds.toFixed(1)} s)`,
        floor: `${Math.round(floor).toLocaleString("en")} (${psqlSeconds.toFixed(1)} s)`,
        ratio,
        target: "≥ 0.5× psql",
        met: ratio >= 0.5,
      },
      {
        figure: "Server peak RSS",
        value: `${peak.toFixed(0)} MB (before the request: ${before.toFixed(0)} MB; +${(peak - before).toFixed(0)} MB while streaming)`,
        floor: "—",
        ratio: null,
        target: "< 150 MB",
        met: peak < 150,
      },
    ],
  });
}

/* ---------- 3. week save ---------- */

async function measureWeek(url: string, token: string) {
  const pool = new pg.Pool({ connectionString: url, max: 2 });
  const { rows: meta } = await pool.query(
    `select e.id as employee, u.id as user_id, to_char(until + 21, 'YYYY-MM-DD') as monday,
       (select min(id) from projects) as project, (select min(id) from clients) as client,
       (select min(id) from products) as product
     from bench_meta, employees e join users u on u.id = e.user_id where u.email = $1`,
    [BENCH_EMAIL],
  );
  const m = meta[0] as { employee: number; user_id: number; monday: string; project: number; client: number; product: number };
  // The week is three weeks after the end date, in the future: hours there need the administrators'
  // setting (docs/decisions/039), on for the measurement and back as it was after it.
  const { rows: setting } = await pool.query("select allow_future_activities as on from app_settings where id = 1");
  const futureWasOn = Boolean(setting[0]?.on);
  await pool.query("update app_settings set allow_future_activities = true where id = 1");
  // 12 activities of 40 minutes a day, Monday to Friday, 08:00–16:00 Mexico City (UTC−6).
  const activities = Array.from({ length: 60 }, (_, i) => {
    const day = Math.floor(i / 12);
    const slot = i % 12;
    const begins = new Date(Date.parse(`${m.monday}T14:00:00Z`) + day * 86_400_000 + slot * 40 * 60_000);
    return {
      begins_at: begins.toISOString(),
      ends_at: new Date(begins.getTime() + 40 * 60_000).toISOString(),
      description: `Revisión de la semana ${i + 1}`,
      action_type: i % 3 === 0 ? "support" : "project",
      activity_type_catalog_id: 3,
      ...(i % 3 === 0
        ? { ownerable_type: "Client", ownerable_id: m.client, product_catalog_id: m.product }
        : { project_id: m.project }),
    };
  });
  const range = [`${m.monday}T00:00:00Z`, new Date(Date.parse(`${m.monday}T00:00:00Z`) + 7 * 86_400_000).toISOString()];
  const clear = () =>
    pool.query("delete from activities where employee_id = $1 and begins_at >= $2 and begins_at < $3", [m.employee, ...range]);
  const post = async (p: string, prefer?: string) => {
    const res = await fetch(`http://127.0.0.1:${PORT}/api/v1/activities/${p}`, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        authorization: `Bearer ${token}`,
        // The screen asks for ids only (it reads the week again); the former save read every row back.
        ...(prefer ? { prefer } : {}),
      },
      body: JSON.stringify({ activities }),
    });
    if (!res.ok) throw new Error(`${p}: HTTP ${res.status} ${(await res.text()).slice(0, 500)}`);
    await res.arrayBuffer();
  };
  const { rows: projectRow } = await pool.query("select client_id, product_catalog_id from projects where id = $1", [m.project]);
  const p = projectRow[0] as { client_id: number; product_catalog_id: number };
  const rawInsert = async () => {
    const values: unknown[] = [];
    const tuples = activities.map((a, i) => {
      const isProject = a.action_type === "project";
      values.push(
        m.employee,
        a.begins_at,
        a.ends_at,
        a.description,
        a.action_type,
        3,
        "Client",
        isProject ? p.client_id : m.client,
        isProject ? m.project : null,
        isProject ? p.product_catalog_id : m.product,
        m.user_id,
      );
      const b = i * 11;
      return `(${Array.from({ length: 11 }, (_, k) => `$${b + k + 1}`).join(",")})`;
    });
    const client = await pool.connect();
    try {
      await client.query("begin");
      await client.query(
        `insert into activities (employee_id, begins_at, ends_at, description, action_type, activity_type_catalog_id, ownerable_type, ownerable_id, project_id, product_catalog_id, update_by) values ${tuples.join(",")}`,
        values,
      );
      await client.query("commit");
    } finally {
      client.release();
    }
  };
  const ROUNDS = 15;
  const server: number[] = [];
  const twoRequests: number[] = [];
  const raw: number[] = [];
  await clear();
  for (let r = 0; r < ROUNDS + 2; r++) {
    // The screen's save: one request that checks and writes (validate stays for an early check only).
    const t0 = performance.now();
    await post("batch", "return=minimal");
    const ms = performance.now() - t0;
    await clear();
    // For comparison, in the same run: the former save, validate and then batch (two requests).
    const t2 = performance.now();
    await post("validate");
    await post("batch");
    const twoMs = performance.now() - t2;
    await clear();
    const t1 = performance.now();
    await rawInsert();
    const rawMs = performance.now() - t1;
    await clear();
    if (r >= 2) {
      server.push(ms);
      twoRequests.push(twoMs);
      raw.push(rawMs);
    }
  }
  await pool.query("update app_settings set allow_future_activities = $1 where id = 1", [futureWasOn]);
  await pool.end();
  const ratio = median(server) / median(raw);
  const twoRatio = median(twoRequests) / median(raw);
  console.log(`  semana de 60: ${fmt(median(server))} vs ${fmt(median(raw))} → ${ratio.toFixed(2)}×`);
  console.log(`  (antes, validar + guardar: ${fmt(median(twoRequests))} → ${twoRatio.toFixed(2)}×)`);
  sections.push({
    title: "3. Guardar una semana de 60 actividades",
    intro: `One POST /api/v1/activities/batch (checked and written in one request, as the screen saves a week, asking for the ids only with \`Prefer: return=minimal\` since the screen reads the week again) with 60 activities (12 a day of 40 minutes, project and support) in an empty future week of the bench employee, ${ROUNDS} rounds after 2 warm-ups (the week is emptied between rounds). Beside it, in the same rounds, the former save: POST activities/validate then POST activities/batch. Floor: the same 60 rows written raw through \`pg\`: BEGIN, one multi-row INSERT, COMMIT, alternated with the server's rounds. Medians.`,
    rows: [
      {
        figure: "Save, one request (median)",
        value: fmt(median(server)),
        floor: fmt(median(raw)),
        ratio,
        target: "≤ 2×",
        met: ratio <= 2,
      },
      {
        figure: "Validate + save, two requests (the former save, for comparison)",
        value: fmt(median(twoRequests)),
        floor: fmt(median(raw)),
        ratio: twoRatio,
        target: "—",
        met: null,
      },
    ],
  });
}

/* ---------- 4. week view and initial JavaScript ---------- */

async function measureView(url: string, token: string) {
  const { chromium } = await import("@playwright/test");
  const pool = new pg.Pool({ connectionString: url, max: 1 });
  const { rows: meta } = await pool.query(
    `select e.id as employee, u.id as user_id from employees e join users u on u.id = e.user_id where u.email = $1`,
    [BENCH_EMAIL],
  );
  // The week the page opens on: the current one (Monday first, Mexico City). Its generated activities of
  // the bench employee make way for the 150 events, which are removed at the end.
  const m = { ...(meta[0] as { employee: number; user_id: number }), monday: mondayOf(businessToday()) };
  const range = [`${m.monday}T00:00:00Z`, new Date(Date.parse(`${m.monday}T00:00:00Z`) + 7 * 86_400_000).toISOString()];
  await pool.query("delete from activities where employee_id = $1 and begins_at >= $2 and begins_at < $3", [
    m.employee,
    ...range,
  ]);
  // 150 events: 30 a day of 20 minutes, 08:00–18:00 Mexico City, Monday to Friday.
  await pool.query(
    `insert into activities (employee_id, begins_at, ends_at, description, action_type, ownerable_type, ownerable_id, update_by)
     select $1, t, t + interval '20 minutes', 'Evento ' || (d * 30 + s + 1), 'internal', 'Client', (select min(id) from clients), $2
     from generate_series(0, 4) d cross join generate_series(0, 29) s
     cross join lateral (select (($3::date + d + interval '8 hours' + s * interval '20 minutes')::timestamp at time zone 'America/Mexico_City') as t) x`,
    [m.employee, m.user_id, m.monday],
  );
  const { rows: events } = await pool.query(
    `select id, description as title, begins_at as start, ends_at as "end" from activities where employee_id = $1 and begins_at >= $2 and begins_at < $3 order by begins_at`,
    [m.employee, ...range],
  );
  // The bare page is served as SIA's build is: scripts precompressed (brotli or gzip, as the browser
  // accepts) and immutable, the HTML revalidated; otherwise the comparison would favour one side.
  const bareFiles = new Map<string, { raw: Buffer; br: Buffer; gz: Buffer }>();
  for (const p of ["core", "interaction", "daygrid", "timegrid"]) {
    const raw = fs.readFileSync(path.join(ROOT, `node_modules/@fullcalendar/${p}/index.global.min.js`));
    bareFiles.set(`/${p}.js`, { raw, br: zlib.brotliCompressSync(raw), gz: zlib.gzipSync(raw, { level: 9 }) });
  }
  const staticServer = http.createServer((req, res) => {
    const file = req.url ? bareFiles.get(req.url) : undefined;
    if (file) {
      const accepts = String(req.headers["accept-encoding"] ?? "");
      const [encoding, body] = /\bbr\b/.test(accepts)
        ? ["br", file.br]
        : /\bgzip\b/.test(accepts)
          ? ["gzip", file.gz]
          : [undefined, file.raw];
      res.writeHead(200, {
        "content-type": "text/javascript",
        "cache-control": "public, max-age=31536000, immutable",
        vary: "accept-encoding",
        ...(encoding ? { "content-encoding": encoding } : {}),
      });
      res.end(body);
      return;
    }
    res.writeHead(200, { "content-type": "text/html; charset=utf-8", "cache-control": "no-cache" });
    res.end(`<!doctype html><html><head><meta charset="utf-8"><script src="/core.js"></script><script src="/interaction.js"></script><script src="/daygrid.js"></script><script src="/timegrid.js"></script></head>
<body><div id="cal"></div><script>
const events = ${JSON.stringify(events)};
new FullCalendar.Calendar(document.getElementById('cal'), { initialView: 'timeGridWeek', firstDay: 1, height: ${CALENDAR.height},
  slotDuration: { minutes: ${CALENDAR.slotMinutes} }, nowIndicator: true, allDaySlot: true, editable: true, selectable: true,
  eventOverlap: false, eventTimeFormat: { hour: '2-digit', minute: '2-digit', hour12: false }, events }).render();
</script></body></html>`);
  });
  await new Promise<void>((resolve) => staticServer.listen(STATIC_PORT, "127.0.0.1", resolve));
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: ["--no-sandbox"] });
  /** Navigation to 150 events painted, and the bytes that came over the network (compressed, headers included). */
  const painted = async (page: import("@playwright/test").Page, target: string) => {
    const cdp = await page.context().newCDPSession(page);
    await cdp.send("Network.enable");
    let bytes = 0;
    cdp.on("Network.loadingFinished", (e: { encodedDataLength: number }) => {
      bytes += e.encodedDataLength;
    });
    const t0 = performance.now();
    await page.goto(target, { waitUntil: "commit" });
    try {
      await page.waitForFunction(() => document.querySelectorAll(".fc-timegrid-event").length >= 150, undefined, {
        timeout: Number(process.env.BENCH_VIEW_TIMEOUT ?? 120_000),
        polling: "raf",
      });
    } catch (error) {
      const shot = path.join(os.tmpdir(), "sia-bench-view.png");
      await page.screenshot({ path: shot }).catch(() => undefined);
      const found = await page.evaluate(() => document.querySelectorAll(".fc-timegrid-event").length).catch(() => -1);
      throw new Error(`${target}: ${found} eventos tras 120 s (captura en ${shot})`, { cause: error });
    }
    await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
    const ms = performance.now() - t0;
    await cdp.detach().catch(() => undefined);
    return { ms, bytes };
  };
  const ROUNDS = 7;
  /** Per page: the first visit (empty cache) and the second (same browser profile, the next navigation). */
  const sia = { first: [] as number[], second: [] as number[], firstBytes: [] as number[], secondBytes: [] as number[] };
  const older = { first: [] as number[], second: [] as number[], firstBytes: [] as number[], secondBytes: [] as number[] };
  const pageFile = path.join(ROOT, "dist", "activities.html");
  const newPage = fs.readFileSync(pageFile);
  const oldPage = OLD_BUILD ? fs.readFileSync(path.join(OLD_BUILD, "activities.html")) : null;
  const bare = { first: [] as number[], second: [] as number[], firstBytes: [] as number[], secondBytes: [] as number[] };
  const scripts = new Map<string, Set<string>>();
  const newContext = async () => {
    const context = await browser.newContext({
      viewport: { width: 1600, height: 1000 },
      timezoneId: "America/Mexico_City",
      locale: "es-MX",
    });
    await context.addCookies([{ name: "sia_session", value: token, domain: "127.0.0.1", path: "/" }]);
    return context;
  };
  const record = (page: import("@playwright/test").Page, key: string) => {
    const set = new Set<string>();
    scripts.set(key, set);
    page.on("request", (r) => {
      if (r.resourceType() === "script") set.add(new URL(r.url()).pathname);
    });
  };
  /** A fresh profile: the first visit, then the same address again in a new tab (the daily second visit). */
  const visits = async (target: string, into: typeof sia, keep: boolean, key?: string) => {
    const context = await newContext();
    try {
      const page = await context.newPage();
      if (key) record(page, key);
      const first = await painted(page, target);
      await page.close();
      const again = await context.newPage();
      const second = await painted(again, target);
      await again.close();
      if (keep) {
        into.first.push(first.ms);
        into.firstBytes.push(first.bytes);
        into.second.push(second.ms);
        into.secondBytes.push(second.bytes);
      }
    } finally {
      await context.close();
    }
  };
  try {
    for (let r = 0; r < ROUNDS + 1; r++) {
      if (oldPage) {
        // Which build goes first changes each round.
        const order = r % 2 ? [true, false] : [false, true];
        for (const old of order) {
          fs.writeFileSync(pageFile, old ? oldPage : newPage);
          await visits(
            `http://127.0.0.1:${PORT}/app/activities`,
            old ? older : sia,
            r > 0,
            r === 0 && !old ? "/app/activities" : undefined,
          );
        }
        fs.writeFileSync(pageFile, newPage);
      } else await visits(`http://127.0.0.1:${PORT}/app/activities`, sia, r > 0, r === 0 ? "/app/activities" : undefined);
      await visits(`http://127.0.0.1:${STATIC_PORT}/`, bare, r > 0);
    }
    const context = await newContext();
    const adminPage = await context.newPage();
    record(adminPage, "/app/clients");
    await adminPage.goto(`http://127.0.0.1:${PORT}/app/clients`);
    await adminPage.waitForSelector("table tbody tr", { timeout: 60_000 });
    await context.close();
  } finally {
    fs.writeFileSync(pageFile, newPage);
    await browser.close();
    await new Promise((r) => staticServer.close(r));
    await pool.query("delete from activities where employee_id = $1 and begins_at >= $2 and begins_at < $3", [
      m.employee,
      ...range,
    ]);
    await pool.end();
  }
  const ratio = median(sia.first) / median(bare.first);
  const ratio2 = median(sia.second) / median(bare.second);
  const kb = (bytes: number[]) => `${(median(bytes) / 1024).toFixed(1)} KB`;
  const gzipOf = (files: Set<string>) => {
    let total = 0;
    for (const f of files) {
      const file = path.join(ROOT, "dist", f);
      if (fs.existsSync(file)) total += zlib.gzipSync(fs.readFileSync(file), { level: 9 }).length;
    }
    return total / 1024;
  };
  const js = [...scripts.entries()].map(([page, files]) => ({ page, files: files.size, kb: gzipOf(files) }));
  const fc = gzipOf(
    new Set(["core", "interaction", "daygrid", "timegrid"].map((p) => `../node_modules/@fullcalendar/${p}/index.global.min.js`)),
  );
  console.log(
    `  vista semanal, 1.ª visita: ${fmt(median(sia.first))} vs ${fmt(median(bare.first))} → ${ratio.toFixed(2)}× (${kb(sia.firstBytes)} vs ${kb(bare.firstBytes)}); ` +
      `2.ª visita: ${fmt(median(sia.second))} vs ${fmt(median(bare.second))} → ${ratio2.toFixed(2)}× (${kb(sia.secondBytes)} vs ${kb(bare.secondBytes)}); JS ${js.map((j) => `${j.page} ${j.kb.toFixed(0)} KB`).join(", ")}`,
  );
  if (oldPage)
    console.log(
      `  compilación anterior (${OLD_BUILD}), alternada: 1.ª visita ${fmt(median(older.first))} → ${(median(older.first) / median(bare.first)).toFixed(2)}×, ` +
        `2.ª visita ${fmt(median(older.second))} → ${(median(older.second) / median(bare.second)).toFixed(2)}×; ` +
        `por ronda 1.ª [${older.first.map((v) => v.toFixed(0)).join(", ")}] → [${sia.first.map((v) => v.toFixed(0)).join(", ")}], ` +
        `2.ª [${older.second.map((v) => v.toFixed(0)).join(", ")}] → [${sia.second.map((v) => v.toFixed(0)).join(", ")}], ` +
        `bare 1.ª [${bare.first.map((v) => v.toFixed(0)).join(", ")}], 2.ª [${bare.second.map((v) => v.toFixed(0)).join(", ")}]`,
    );
  const rows: Row[] = [
    {
      figure: "Week view, 150 events, first visit (empty cache): navigation to painted (median)",
      value: fmt(median(sia.first)),
      floor: fmt(median(bare.first)),
      ratio,
      target: "≤ 1.5×",
      met: ratio <= 1.5,
    },
    {
      figure: "Week view, second visit (same profile, cached): navigation to painted (median)",
      value: fmt(median(sia.second)),
      floor: fmt(median(bare.second)),
      ratio: ratio2,
      target: "≤ 1.2×",
      met: ratio2 <= 1.2,
    },
    {
      figure: "Week view, bytes transferred (compressed, headers included), first visit",
      value: kb(sia.firstBytes),
      floor: kb(bare.firstBytes),
      ratio: median(sia.firstBytes) / median(bare.firstBytes),
      target: "—",
      met: null,
    },
    {
      figure: "Week view, bytes transferred, second visit",
      value: kb(sia.secondBytes),
      floor: kb(bare.secondBytes),
      ratio: median(bare.secondBytes) > 0 ? median(sia.secondBytes) / median(bare.secondBytes) : null,
      target: "nothing but the HTML and the data",
      met: null,
    },
    ...js.map((j) => ({
      figure: `Initial JavaScript of ${j.page} (gzip, ${j.files} files)`,
      value: `${j.kb.toFixed(0)} KB`,
      floor: j.page === "/app/activities" ? `${fc.toFixed(0)} KB (FullCalendar alone)` : "—",
      ratio: j.page === "/app/activities" ? j.kb / fc : null,
      target: "each page loads only its code",
      met: null,
    })),
  ];
  sections.push({
    title: "4. Vista semanal en Chromium y JavaScript inicial",
    intro: `Headless Chromium (${CHROMIUM}), 1600×1000, signed in. SIA: /app/activities on a week of the bench employee holding 150 activities (30 a day of 20 minutes); bare floor: a static page with FullCalendar's global build (core, interaction, daygrid, timegrid) and the same 150 events inline, timeGridWeek. Time from navigation to 150 events in the DOM plus two animation frames. Each round opens a fresh browser profile: the first visit (empty cache), then the same address in a new tab of that profile (the daily second visit: hashed scripts cached, HTML and data asked again); both pages served precompressed with immutable scripts. ${ROUNDS} rounds after one warm-up, alternated, medians; bytes are what came over the network (encoded, headers included). Initial JavaScript: the script files each page requested until it showed its content, gzip -9 of the built files.`,
    rows,
  });
}

/* ---------- 5. cold start ---------- */

async function measureStart() {
  const dataDir = path.join(ROOT, ".bench", "embedded");
  const meta = await (async () => {
    const db = await openPglite({ dataDir });
    try {
      return await ensureGenerated(db, { scale: 0.05, seed: args.seed, until: args.until });
    } finally {
      await db.close();
    }
  })();
  const env = { DATA_DIR: dataDir, DATABASE_URL: "", SIA_DEMO: "false" };
  const starts: number[] = [];
  for (let r = 0; r < 4; r++) {
    const { child, ms } = await startServer(env);
    await stopServer(child);
    if (r > 0) starts.push(ms);
  }
  const fresh = fs.mkdtempSync(path.join(os.tmpdir(), "sia-bench-first-"));
  const first = await startServer({ DATA_DIR: fresh, DATABASE_URL: "", SIA_DEMO: "true" });
  await stopServer(first.child);
  fs.rmSync(fresh, { recursive: true, force: true });
  const floorStart = await startServer({}, [
    "-e",
    `require("http").createServer((q,s)=>s.end("ok")).listen(${PORT},"127.0.0.1")`,
  ]);
  await stopServer(floorStart.child);
  console.log(`  arranque: ${fmt(median(starts))}; primera vez ${fmt(first.ms)}; node vacío ${fmt(floorStart.ms)}`);
  sections.push({
    title: "5. Arranque en frío (`npm start`, base embebida)",
    intro: `\`node ${START_ARGS.join(" ")}\` (what \`npm start\` runs, without npm's own start-up: the compiled server, built by the warm-up start if it was out of date) on an existing embedded data folder holding the scale-0.05 firm (${meta.activities.toLocaleString("en")} activities), from process spawn to the first 200 of GET /healthz; the UI already built. 3 starts after one warm-up, median. The floor is a bare \`node -e http.createServer\`. The first-ever start (empty folder: initdb, migrations, demo seed) is reported on its own.`,
    rows: [
      {
        figure: "Start to first 200 (existing data folder, median)",
        value: fmt(median(starts)),
        floor: `${fmt(floorStart.ms)} (bare node http)`,
        ratio: median(starts) / floorStart.ms,
        target: "≤ 3 s",
        met: median(starts) <= 3000,
      },
      {
        figure: "First-ever start (empty folder, demo seeded)",
        value: fmt(first.ms),
        floor: "—",
        ratio: null,
        target: "(reported)",
        met: null,
      },
    ],
  });
}

/* ---------- 6. capacity ---------- */

/** Weeks the capacity answer covers: 12 before the current one, it, and 7 after. */
const CAPACITY_WEEKS = 20;
const CAPACITY_SEQUENTIAL = 30;
const CAPACITY_CONCURRENCY = 10;
const CAPACITY_PER_CLIENT = 5;

async function measureCapacity(url: string, token: string) {
  const from = addDays(mondayOf(businessToday()), -7 * 12);
  const to = addDays(from, 7 * (CAPACITY_WEEKS - 1));
  const pathname = `/api/v1/capacity?from=${from}&to=${to}`;
  const [statements] = await captureQueries(url, [pathname]);
  const once = async () => {
    const t0 = performance.now();
    const res = await fetch(`http://127.0.0.1:${PORT}${pathname}`, { headers: { authorization: `Bearer ${token}` } });
    const body = (await res.json()) as { capacity: { employees: unknown[]; weeks: unknown[] } };
    if (!res.ok) throw new Error(`${pathname}: HTTP ${res.status}`);
    return { ms: performance.now() - t0, people: body.capacity.employees.length, weeks: body.capacity.weeks.length };
  };
  await once();
  const shape = await once();
  const sequential: number[] = [];
  for (let i = 0; i < CAPACITY_SEQUENTIAL; i++) sequential.push((await once()).ms);
  const concurrent: number[] = [];
  await Promise.all(
    Array.from({ length: CAPACITY_CONCURRENCY }, async () => {
      for (let i = 0; i < CAPACITY_PER_CLIENT; i++) concurrent.push((await once()).ms);
    }),
  );
  // The floor: the statements the request sends, one after another through `pg`, as many times.
  const pool = new pg.Pool({ connectionString: url, max: 2 });
  const raw: number[] = [];
  for (let i = 0; i < CAPACITY_SEQUENTIAL + 2; i++) {
    const t0 = performance.now();
    for (const s of statements) await pool.query(s.text, s.params as never[]);
    if (i >= 2) raw.push(performance.now() - t0);
  }
  await pool.end();
  const size = `${shape.people} empleados × ${shape.weeks} semanas`;
  const row = (figure: string, times: number[]): Row => {
    const p95 = percentile(times, 95);
    return {
      figure: `${figure} — p50 / p95 (${times.length} peticiones)`,
      value: `${fmt(median(times))} / ${fmt(p95)}`,
      floor: `${fmt(median(raw))} / ${fmt(percentile(raw, 95))} (${statements.length} statements)`,
      ratio: p95 / percentile(raw, 95),
      target: "p95 ≤ 1 s",
      met: p95 <= 1000,
    };
  };
  const rows = [
    row(`capacidad, ${size}, una tras otra`, sequential),
    row(`capacidad, ${size}, ${CAPACITY_CONCURRENCY} a la vez`, concurrent),
  ];
  for (const r of rows) console.log(`  ${r.figure}: ${r.value} vs ${r.floor}`);
  sections.push({
    title: "6. Capacidad: todos los empleados × 20 semanas",
    intro: `GET ${pathname} (every active employee, no workspace filter; ${CAPACITY_WEEKS} weeks, 12 of them past with their logged hours) as an administrator, after two warm-ups: ${CAPACITY_SEQUENTIAL} requests one after another, then ${CAPACITY_CONCURRENCY} clients at once making ${CAPACITY_PER_CLIENT} each. Floor: the statements the request sends (captured from drizzle's logger, its session cached) run one after another through \`pg\`, ${CAPACITY_SEQUENTIAL} times; the request runs its four reads at once and computes the weeks in memory. Target: p95 ≤ 1 s.`,
    rows,
  });
}

/* ---------- report ---------- */

function writeResults(meta: { scale: number; activities: number; generatedSeconds?: number }, pgVersion: string) {
  const cpu = os.cpus()[0]?.model ?? "?";
  const cell = (s: string) => s.replace(/\|/g, "\\|");
  const lines = [
    "# SIA at a large firm's size: figures and floors",
    "",
    `Run: ${new Date().toISOString()} — \`npm run bench -- --scale ${meta.scale}${ONLY.size < ALL_MEASUREMENTS.split(",").length ? ` --only ${[...ONLY].join(",")}` : ""}\``,
    "",
    `Machine: ${cpu}, ${os.cpus().length} cores (shared with other work), ${(os.totalmem() / 1024 ** 3).toFixed(1)} GiB RAM, ${os.type()} ${os.release()}; Node ${process.version}; ${pgVersion}.`,
    `Load average at the end: ${os
      .loadavg()
      .map((l) => l.toFixed(1))
      .join(
        " / ",
      )} (1 / 5 / 15 min). Every figure is measured beside its floor in the same run, on the same machine, so the ratios hold when the absolute times do not.`,
    "",
    `Data: scale ${meta.scale} of the firm SIA is sized for (bench/generate.ts): ${sizes(meta.scale).employees} employees, ${meta.activities.toLocaleString("en")} activities over five years, ${sizes(meta.scale).clients.toLocaleString("en")} clients, ${sizes(meta.scale).projects.toLocaleString("en")} projects with two invoices each, quotations, licences, assignments, holidays and frozen months.`,
    "",
  ];
  for (const s of sections) {
    const notes = s.rows.some((r) => r.note);
    lines.push(
      `## ${s.title}`,
      "",
      s.intro,
      "",
      `| Figure | SIA | Floor | Ratio | Target | Met |${notes ? " Plan (EXPLAIN) |" : ""}`,
      `|---|---:|---:|---:|---|---|${notes ? "---|" : ""}`,
    );
    for (const r of s.rows) {
      lines.push(
        `| ${cell(r.figure)} | ${cell(r.value)} | ${cell(r.floor)} | ${r.ratio === null ? "—" : `${r.ratio.toFixed(2)}×`} | ${r.target} | ${r.met === null ? "—" : r.met ? "yes" : "**no**"} |${notes ? ` ${cell(r.note ?? "")} |` : ""}`,
      );
    }
    lines.push("");
    if (s.extra) lines.push(s.extra, "");
  }
  const notes = path.join(ROOT, "bench", "NOTES.md");
  if (fs.existsSync(notes)) lines.push(fs.readFileSync(notes, "utf8"));
  fs.writeFileSync(path.join(ROOT, "bench", "RESULTS.md"), `${lines.join("\n").trimEnd()}\n`);
}

async function main() {
  const url = await benchDatabaseUrl(BASE, args.value("--db") ?? "sia_bench", args.has("--fresh"));
  const database: Database = await openPostgres(url, 2);
  let meta: Awaited<ReturnType<typeof ensureGenerated>>;
  let pgVersion: string;
  try {
    meta = await ensureGenerated(database, { scale: args.scale, seed: args.seed, until: args.until });
    await database.migrate();
    pgVersion = (await database.rows<{ v: string }>(sql`select version() as v`))[0].v.split(",")[0];
  } finally {
    await database.close();
  }
  if (ONLY.has("view") && (args.has("--build") || !fs.existsSync(path.join(ROOT, "dist", "index.html")))) {
    console.log("Compilando la interfaz (vite build)…");
    const built = spawnSync("npx", ["vite", "build", "--logLevel", "warn"], { cwd: ROOT, stdio: "inherit" });
    if (built.status !== 0) throw new Error("vite build falló");
  }
  // The old build's files beside this one's before the server lists them (it serves the files it found at start).
  const borrowed: string[] = [];
  if (OLD_BUILD && ONLY.has("view"))
    for (const name of fs.readdirSync(path.join(OLD_BUILD, "assets"))) {
      const to = path.join(ROOT, "dist", "assets", name);
      if (fs.existsSync(to)) continue;
      fs.copyFileSync(path.join(OLD_BUILD, "assets", name), to);
      borrowed.push(to);
    }
  process.on("exit", () => {
    for (const file of borrowed) fs.rmSync(file, { force: true });
  });
  /** A server process on the bench database for the measurements given, stopped after them. */
  const withServer = async (measure: (token: string, pid: number) => Promise<void>, env: Record<string, string> = {}) => {
    const { child } = await startServer({
      DATABASE_URL: url,
      SIA_DEMO: "false",
      DATA_DIR: path.join(ROOT, ".bench", "pg-data"),
      ...env,
    });
    try {
      await measure(await signIn(), child.pid as number);
    } finally {
      await stopServer(child);
    }
  };
  if (ONLY.has("lists")) {
    const endpoints = await listEndpoints(url, meta.scale);
    // As `npm start` runs it (WEB_CONCURRENCY's default), then with a process on every core, then one.
    const cores = os.availableParallelism();
    await withServer((token) => measureLists(url, token, endpoints, Math.max(1, cores - 1)));
    await withServer((token) => measureThroughput(token, endpoints, cores), { WEB_CONCURRENCY: String(cores) });
  }
  // One process of its own: the peak RSS is the download's, not what 50 concurrent list clients left in the heap.
  if (ONLY.has("csv")) await withServer((token, pid) => measureCsv(url, token, pid), { WEB_CONCURRENCY: "1" });
  if (ONLY.has("week") || ONLY.has("view"))
    await withServer(async (token) => {
      if (ONLY.has("week")) await measureWeek(url, token);
      if (ONLY.has("view")) await measureView(url, token);
    });
  if (ONLY.has("capacity")) await withServer((token) => measureCapacity(url, token));
  if (ONLY.has("start")) await measureStart();
  writeResults(meta, pgVersion);
  console.log("\nbench/RESULTS.md escrito.");
}

// The in-process app that captureQueries builds leaves a MessagePort open after it closes: without the exit
// the run would wait for ever once RESULTS.md is written.
main().then(
  () => process.exit(0),
  (error) => {
    console.error(error);
    process.exit(1);
  },
);
