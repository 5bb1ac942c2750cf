/**
 * Benchmark of the .ics import (docs/decisions/019-ics-calendar-reader.md), against the compiled server
 * (`node scripts/start.mjs`, what npm start runs) on a fresh embedded database:
 *
 *   npx tsx bench/ics-imports.ts            (BENCH_PORT, default 3281; CORPUS=<folder of the calendars>)
 *
 * 1. The largest corpus calendars (rie--issue42.ics: 1.6 MB, 4,778 events, a Google export with years of
 *    history, for a week of 2024 and for this week; and libical--large.ics: 1,458 events in 2,316
 *    VCALENDARs): POST calendar_imports for a week of each, beside a bare ical.js read of the same file
 *    (ICAL.parse and a Component per calendar) and beside readIcs in this process. The first POST after
 *    the server starts (a thread whose code is not compiled yet) apart, then the median of 7; target
 *    well under 1 s.
 * 2. A CSV week: PUT activities/import_activities_csv with 500 rows (the most a week saves) and with
 *    1,000 rows (refused at row 501 with its Spanish message). Median of 7.
 * 3. /healthz latency (p50, p95, max over ~3 s of sequential requests) alone, then while ten hostile
 *    files (the list) are imported at once, again and again. Target: /healthz keeps answering.
 * Prints a Markdown section for bench/NOTES.md.
 */
import { type ChildProcess, spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import ICAL from "ical.js";
import { readIcs } from "../server/ports/calendar/reader";
import { decodeText } from "../server/ports/text/decode";
import { ACTIVITY_CSV_COLUMNS } from "../src/core/schemas/activity";
import { addDays, businessToday, weekOf } from "../src/core/week";

const ROOT = path.resolve(import.meta.dirname, "..");
const PORT = Number(process.env.BENCH_PORT ?? 3281);
const BASE = `http://127.0.0.1:${PORT}`;
const CORPUS =
  process.env.CORPUS ??
  [path.join(ROOT, "..", "shared", "corpus", "calendars"), "/work/shared/corpus/calendars"].find((d) => fs.existsSync(d)) ??
  "";
const THIS_WEEK = weekOf(businessToday()).starts_on;
const LARGE = [
  { file: "rie--issue42.ics", week: "2024-01-01" },
  { file: "rie--issue42.ics", week: THIS_WEEK },
  { file: "libical--large.ics", week: "1998-03-02" },
];

/** A week's CSV of `rows` rows of 15 minutes, Monday to Friday from 07:00, as the template writes them. */
function csvWeek(monday: string, rows: number): Buffer {
  const lines = [ACTIVITY_CSV_COLUMNS.join(",")];
  for (let i = 0; i < rows; i++) {
    const day = addDays(monday, i % 5);
    const slot = Math.floor(i / 5);
    const from = 7 * 60 + (slot % 60) * 15;
    const hhmm = (m: number) => `${String(Math.floor(m / 60)).padStart(2, "0")}:${String(m % 60).padStart(2, "0")}`;
    lines.push(`${day},${hhmm(from)},${hhmm(from + 15)},AS,,,,AN,,Fila ${i + 1} del CSV`);
  }
  return Buffer.from(`${lines.join("\r\n")}\r\n`, "utf8");
}

const ics = (...events: string[][]) =>
  ["BEGIN:VCALENDAR", "VERSION:2.0", ...events.flatMap((e) => ["BEGIN:VEVENT", ...e, "END:VEVENT"]), "END:VCALENDAR", ""].join(
    "\r\n",
  );
const rule = (r: string) => ics(["UID:h", "DTSTART:20310101T100000Z", "DURATION:PT30M", `RRULE:${r}`, "SUMMARY:H"]);
const HOSTILE = [
  rule("FREQ=DAILY;BYMONTH=2;BYMONTHDAY=30"),
  rule("FREQ=MINUTELY;BYMONTH=2;BYMONTHDAY=30"),
  rule("FREQ=MONTHLY;BYMONTH=2;BYMONTHDAY=30;BYDAY=MO"),
  ics(
    ...Array.from({ length: 20 }, (_, i) => [
      `UID:s${i}`,
      "DTSTART:20310303T000000Z",
      "DURATION:PT1S",
      "RRULE:FREQ=SECONDLY",
      "SUMMARY:S",
    ]),
  ),
  rule("FREQ=DAILY;BYWEEKNO=1;BYMONTH=6"),
];

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const pct = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * p))];
const ms = (n: number) => `${n.toFixed(n < 10 ? 1 : 0)} ms`;

/** The embedded database: the figures are the reader's, not a database server's. */
function withoutDatabaseUrl() {
  const env = { ...process.env };
  delete env.DATABASE_URL;
  return env;
}

async function startServer(): Promise<ChildProcess> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "sia-bench-ics-"));
  const child = spawn(process.execPath, ["--max-semi-space-size=8", "scripts/start.mjs"], {
    cwd: ROOT,
    env: { ...withoutDatabaseUrl(), DATA_DIR: dataDir, PORT: String(PORT), JOBS_ENABLED: "0", LOG_LEVEL: "warn" },
    stdio: ["ignore", "ignore", "inherit"],
  });
  for (let i = 0; i < 600; i++) {
    try {
      if ((await fetch(`${BASE}/healthz`)).ok) return child;
    } catch {
      // not yet
    }
    await new Promise((r) => setTimeout(r, 500));
  }
  child.kill();
  throw new Error("el servidor no arrancó");
}

async function signIn(): Promise<string> {
  const res = await fetch(`${BASE}/api/v1/sessions`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ email: "operador@sia.local", password: process.env.SIA_DEMO_PASSWORD ?? "sia-demo" }),
  });
  return ((await res.json()) as { token: string }).token;
}

/** One timed upload: its status, milliseconds, how many items the answer holds and its first error. */
async function timedUpload(token: string, method: string, url: string, form: FormData, items: string) {
  const started = performance.now();
  const res = await fetch(`${BASE}${url}`, { method, headers: { authorization: `Bearer ${token}` }, body: form });
  const body = (await res.json()) as Record<string, unknown> & { errors?: { base?: string[] } };
  return {
    status: res.status,
    ms: performance.now() - started,
    count: Array.isArray(body[items]) ? (body[items] as unknown[]).length : 0,
    message: body.errors?.base?.[0],
  };
}

async function upload(token: string, content: string | Buffer, week: string) {
  const form = new FormData();
  form.append("start_date", week);
  form.append(
    "file",
    new Blob([typeof content === "string" ? content : new Uint8Array(content)], { type: "text/calendar" }),
    "calendario.ics",
  );
  const { count, ...rest } = await timedUpload(token, "POST", "/api/v1/calendar_imports", form, "events");
  return { ...rest, events: count };
}

async function uploadCsv(token: string, content: Buffer, week: string) {
  const form = new FormData();
  form.append("file", new Blob([new Uint8Array(content)], { type: "text/csv" }), "semana.csv");
  const url = `/api/v1/activities/import_activities_csv?date=${week}`;
  const { count, ...rest } = await timedUpload(token, "PUT", url, form, "import_activities");
  return { ...rest, rows: count };
}

async function healthz(seconds: number): Promise<number[]> {
  const out: number[] = [];
  const end = performance.now() + seconds * 1000;
  while (performance.now() < end) {
    const started = performance.now();
    await (await fetch(`${BASE}/healthz`)).text();
    out.push(performance.now() - started);
    await new Promise((r) => setTimeout(r, 20));
  }
  return out;
}

const server = await startServer();
try {
  const token = await signIn();
  const rows: string[] = [];
  let firstPost = true;
  for (const { file, week: weekStart } of LARGE) {
    const large = fs.readFileSync(path.join(CORPUS, file));
    const text = decodeText(large).text;
    const week = weekOf(weekStart);
    const bare: number[] = [];
    const inProcess: number[] = [];
    const route: number[] = [];
    let events = 0;
    // The first upload after the start meets a thread whose code is not compiled yet.
    const first = await upload(token, large, weekStart);
    if (first.status !== 200) throw new Error(`${file}: ${first.status} ${first.message}`);
    const cold = firstPost ? ms(first.ms) : "—";
    firstPost = false;
    for (let i = 0; i < 7; i++) {
      let started = performance.now();
      const jcal = ICAL.parse(text) as unknown[];
      for (const data of (typeof jcal[0] === "string" ? [jcal] : jcal) as unknown[][]) new ICAL.Component(data);
      bare.push(performance.now() - started);
      started = performance.now();
      readIcs(text, { start: week.start, end: week.end });
      inProcess.push(performance.now() - started);
      const res = await upload(token, large, weekStart);
      if (res.status !== 200) throw new Error(`${file}: ${res.status} ${res.message}`);
      route.push(res.ms);
      events = res.events;
    }
    rows.push(
      `| ${file} (${(large.length / 1024).toFixed(0)} KB), week ${weekStart}: ${events} events | ${ms(median(bare))} | ${ms(median(inProcess))} | ${cold} | ${ms(median(route))} | ${ms(Math.max(...route))} | ${(median(route) / median(bare)).toFixed(1)}× |`,
    );
  }

  const csvRows: string[] = [];
  const csvMonday = addDays(THIS_WEEK, -7);
  for (const size of [500, 1_000]) {
    const content = csvWeek(csvMonday, size);
    const times: number[] = [];
    let answer = "";
    for (let i = 0; i < 7; i++) {
      const res = await uploadCsv(token, content, csvMonday);
      times.push(res.ms);
      answer = res.status === 200 ? `200, ${res.rows} events` : `${res.status}: «${res.message}»`;
    }
    csvRows.push(
      `| ${size} rows (${(content.length / 1024).toFixed(0)} KB) | ${answer} | ${ms(median(times))} | ${ms(Math.max(...times))} |`,
    );
  }

  const alone = await healthz(3);
  const answers: Array<{ status: number; ms: number }> = [];
  let loading = true;
  const load = Array.from({ length: 10 }, async (_, i) => {
    while (loading) {
      const answer = await upload(token, HOSTILE[i % HOSTILE.length], "2031-03-03");
      answers.push(answer);
      // One read at a time per user: a refused upload (429) waits as a browser told «espere» would.
      if (answer.status === 429) await new Promise((resolve) => setTimeout(resolve, 500));
    }
  });
  const underLoad = await healthz(4);
  loading = false;
  await Promise.all(load);

  const line = (label: string, xs: number[]) =>
    `| ${label} | ${ms(pct(xs, 0.5))} | ${ms(pct(xs, 0.95))} | ${ms(Math.max(...xs))} | ${xs.length} |`;
  const statuses = [...new Set(answers.map((a) => a.status))].join(", ");
  console.log(
    [
      `### .ics import (bench/ics-imports.ts, ${new Date().toISOString().slice(0, 16)}Z, ${os.cpus().length} cores, shared)`,
      "",
      "Median of 7. Bare: ICAL.parse and a Component per VCALENDAR. readIcs: parse, expand, zones, in this process. POST: upload, worker, import rules, lookups, JSON; the first one after the start apart (the thread's code not compiled yet). Target: well under 1 s.",
      "",
      "| file, week | bare ical.js | readIcs | first POST | POST calendar_imports | slowest POST | POST / bare |",
      "|---|---|---|---|---|---|---|",
      ...rows,
      "",
      `A CSV week (PUT activities/import_activities_csv, week of ${csvMonday}; median of 7):`,
      "",
      "| file | answer | median | slowest |",
      "|---|---|---|---|",
      ...csvRows,
      "",
      "/healthz while ten hostile files are imported at once, again and again:",
      "",
      "| /healthz | p50 | p95 | max | requests |",
      "|---|---|---|---|---|",
      line("alone", alone),
      line("10 hostile uploads at once", underLoad),
      "",
      `Hostile uploads answered: ${answers.length} (status ${statuses}), slowest ${ms(Math.max(...answers.map((a) => a.ms)))}.`,
    ].join("\n"),
  );
} finally {
  server.kill();
}
