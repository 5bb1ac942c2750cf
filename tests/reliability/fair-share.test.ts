/**
 * One user cannot slow or stop everyone else (README, «Reparto justo del servidor»; docs/reliability.md).
 * The real server as a child process; one Operador misbehaves in each of the ways an outside security test
 * found, one way at a time, while an Administrador's requests (GET clients, GET sessions/current, one after
 * the other) are timed:
 *  1. 2,000 realtime streams opened at once and kept open;
 *  2. 2,000 parallel GET sessions/current;
 *  3. four bursts of 100 correct sign-ins (an Argon2id hash each);
 *  4. three at a time, 10 MB uploads of the template's header and blank lines, and of a header of commas;
 *  5. ten downloads of their own large activities.csv (about 5 MB), never read.
 * The other user's worst time in each phase is reported (tests/support/figures.ts) and must stay under
 * FAIR_SHARE_BOUND_MS (1,000 ms by default; docs/reliability.md explains the figure). Runs on PGlite, and on
 * PostgreSQL with DATABASE_URL. Phase 5 needs downloads that do not hold a database connection while the
 * client stalls.
 */
import http from "node:http";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ACTIVITY_CSV_COLUMNS } from "../../src/core/schemas/activity";
import { buildUser, PASSWORD } from "../support/factories";
import { recordFigures } from "../support/figures";
import { createStore, type HttpClient, httpSignIn, type ServerProcess, startServer, type TestStore } from "../support/server";

const PORT = 3253;
const BOUND_MS = Number(process.env.FAIR_SHARE_BOUND_MS ?? 1000);
const PHASE_MS = Number(process.env.FAIR_SHARE_PHASE_MS ?? 5000);
const DOWNLOAD_ROWS = 20_000;
let store: TestStore;
let server: ServerProcess;
let greedyEmail: string;
let otherEmail: string;

beforeAll(async () => {
  store = await createStore();
  await store.withDatabase(async ({ db }) => {
    const greedy = await buildUser(db, "operator");
    greedyEmail = greedy.user.email;
    otherEmail = (await buildUser(db, "admin")).user.email;
    // About 5 MB of the greedy user's own activities, for the downloads they will not read.
    await db.execute(sql`insert into activities (employee_id, begins_at, ends_at, description, action_type)
      select ${greedy.employee?.id}::int, timestamptz '2030-01-07 15:00Z' + g * interval '1 hour',
             timestamptz '2030-01-07 15:30Z' + g * interval '1 hour', 'Actividad de carga ' || g || ' ' || repeat('x', 200), 'rh'
      from generate_series(1, ${DOWNLOAD_ROWS}::int) g`);
  });
  server = await startServer(store, PORT);
});
afterAll(async () => {
  await server?.kill("SIGKILL");
  await store?.destroy();
});

/** Connections of the misbehaving user: no pooling, no limit, so every request is its own socket. */
const agent = new http.Agent({ keepAlive: false, maxSockets: Number.POSITIVE_INFINITY });

/** A request whose answer is read to the end (or dropped); resolves with its status, never rejects. */
function send(path: string, token: string | null, init: { method?: string; body?: Buffer; type?: string } = {}) {
  return new Promise<number>((resolve) => {
    const headers: Record<string, string> = {};
    if (token) headers.authorization = `Bearer ${token}`;
    if (init.body) {
      headers["content-type"] = init.type ?? "application/json";
      headers["content-length"] = String(init.body.length);
    }
    const request = http.request(`${server.url}${path}`, { method: init.method ?? "GET", headers, agent }, (response) => {
      response.resume();
      response.on("end", () => resolve(response.statusCode ?? 0));
      response.on("error", () => resolve(0));
    });
    request.on("error", () => resolve(0));
    request.end(init.body);
  });
}

/** A request whose answer is never read: the socket stays open, its buffers full, until `close`. */
function stall(path: string, token: string, accept = "*/*") {
  const request = http.request(`${server.url}${path}`, { headers: { authorization: `Bearer ${token}`, accept }, agent });
  let status = 0;
  request.on("response", (response) => {
    status = response.statusCode ?? 0;
    response.pause();
  });
  request.on("error", () => {});
  request.end();
  return {
    get status() {
      return status;
    },
    close: () => request.destroy(),
  };
}

function upload(token: string, content: Buffer) {
  const boundary = "----siacarga";
  const body = Buffer.concat([
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="semana.csv"\r\nContent-Type: text/csv\r\n\r\n`,
    ),
    content,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  return send("/api/v1/activities/import_activities_csv?date=2031-03-17", token, {
    method: "PUT",
    body,
    type: `multipart/form-data; boundary=${boundary}`,
  });
}

/**
 * The other user's requests, one after the other, for as long as `misbehave` runs (and at least PHASE_MS):
 * every answer's time, and any answer that was not a 200.
 */
async function timedWhile(other: HttpClient, misbehave: () => Promise<unknown>) {
  const times: number[] = [];
  const failures: string[] = [];
  let running = true;
  const started = Date.now();
  const bad = misbehave().finally(() => {
    running = false;
  });
  let i = 0;
  while (running || Date.now() - started < PHASE_MS) {
    const url = i++ % 2 ? "/api/v1/sessions/current" : "/api/v1/clients";
    const asked = performance.now();
    const res = await other.request("GET", url);
    times.push(performance.now() - asked);
    if (res.status !== 200) failures.push(`${url}: ${res.status}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  const outcome = await bad;
  return {
    worst: Math.round(Math.max(...times)),
    median: Math.round(times.sort((a, b) => a - b)[times.length >> 1]),
    count: times.length,
    failures,
    outcome,
  };
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const tally = (statuses: number[]) => {
  const out: Record<number, number> = {};
  for (const s of statuses) out[s] = (out[s] ?? 0) + 1;
  return out;
};

describe("fair share: one user misbehaves, another is timed", () => {
  it(`the other user's worst time stays under ${BOUND_MS} ms in every phase`, async () => {
    const greedy = await httpSignIn(server.url, greedyEmail, PASSWORD);
    const other = await httpSignIn(server.url, otherEmail, PASSWORD);
    const phases: Record<string, { worst: number; median: number; count: number; failures: string[]; outcome: unknown }> = {};

    phases.alone = await timedWhile(other, () => pause(PHASE_MS / 2));

    phases.realtime = await timedWhile(other, async () => {
      // In waves of 200 connections: 2,000 connection attempts at once overflow the kernel's accept queue,
      // which no application can prevent (a reverse proxy's per-address connection limit does; README).
      const streams: Array<ReturnType<typeof stall>> = [];
      for (let wave = 0; wave < 10; wave++) {
        for (let i = 0; i < 200; i++) streams.push(stall("/api/v1/realtime", greedy.token, "text/event-stream"));
        await pause(PHASE_MS / 10);
      }
      const statuses = tally(streams.map((s) => s.status));
      for (const s of streams) s.close();
      return statuses;
    });

    phases.sessions = await timedWhile(other, async () => {
      const statuses: number[] = [];
      const waves = [];
      for (let wave = 0; wave < 10; wave++) {
        waves.push(Promise.all(Array.from({ length: 200 }, () => send("/api/v1/sessions/current", greedy.token))));
        await pause(PHASE_MS / 20);
      }
      for (const answers of await Promise.all(waves)) statuses.push(...answers);
      return tally(statuses);
    });

    phases.signIns = await timedWhile(other, async () => {
      const body = Buffer.from(JSON.stringify({ email: greedyEmail, password: PASSWORD }));
      const statuses: number[] = [];
      for (let round = 0; round < 4; round++) {
        statuses.push(
          ...(await Promise.all(Array.from({ length: 100 }, () => send("/api/v1/sessions", null, { method: "POST", body })))),
        );
      }
      return tally(statuses);
    });

    phases.uploads = await timedWhile(other, async () => {
      const header = `${ACTIVITY_CSV_COLUMNS.join(",")}\n`;
      const size = 10 * 1_048_576 - 4096;
      const blank = Buffer.from(header + "\n".repeat(size - header.length));
      const commas = Buffer.from(",".repeat(size));
      const statuses: number[] = [];
      const deadline = Date.now() + PHASE_MS;
      while (Date.now() < deadline) {
        statuses.push(
          ...(await Promise.all([upload(greedy.token, blank), upload(greedy.token, commas), upload(greedy.token, blank)])),
        );
      }
      return tally(statuses);
    });

    phases.downloads = await timedWhile(other, async () => {
      const downloads = Array.from({ length: 10 }, () => stall("/api/v1/activities.csv", greedy.token));
      await pause(PHASE_MS);
      const statuses = tally(downloads.map((d) => d.status));
      for (const d of downloads) d.close();
      return statuses;
    });

    const worst = Math.max(...Object.entries(phases).map(([name, p]) => (name === "alone" ? 0 : p.worst)));
    recordFigures(
      "reparto-justo",
      `peor tiempo del otro usuario: ${worst} ms (límite ${BOUND_MS} ms); por fase: ${Object.entries(phases)
        .map(([name, p]) => `${name} ${p.worst} ms (mediana ${p.median}, ${p.count} peticiones)`)
        .join(", ")}`,
      { bound_ms: BOUND_MS, worst_ms: worst, phases },
    );
    for (const [name, p] of Object.entries(phases)) {
      expect(p.failures, name).toEqual([]);
      expect(p.worst, `${name}: ${JSON.stringify(p.outcome)}`).toBeLessThan(BOUND_MS);
    }
  });
});
