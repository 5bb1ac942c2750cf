/**
 * A download's fair share (server/http/downloads.ts): one user opening many CSV downloads and never
 * reading them cannot hold the database, each user has at most DOWNLOADS_PER_USER running (then a Spanish
 * 429 with Retry-After), and a download whose reader stalls is ended, its cursor closed and its
 * connection returned. Real sockets over a listening server: fastify.inject would read every body.
 * Runs on PGlite, and on PostgreSQL with DATABASE_URL (its test pool has 4 connections, fewer than the
 * production 10, so an unbounded burst would take all of them).
 */

import type { AddressInfo } from "node:net";
import net from "node:net";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { messages } from "../../src/core/messages";
import { buildTestApp, type TestApp } from "../support/app";
import { type ApiClient, call, signInAs } from "../support/factories";
import { underLoad } from "../support/timing";

/** The default: long enough for a slow first batch on PGlite, short enough that a stuck tab frees its slot soon. */
const STALL_SECONDS = 10;
const ROWS = 12_000;

let t: TestApp;
let admin: ApiClient;
let operator: ApiClient;
let second: ApiClient;
let port: number;
let employeeId: number;

/** The three activity CSVs an employee may download, with their own activities in them. */
const urls = () => [
  "/api/v1/activities.csv",
  "/api/v1/activities/download_personal_report.csv",
  `/api/v1/activities/reporting_activities.csv?current_filter=employee&employee_id=${employeeId}&start_date=2024-01-01&end_date=2026-01-31`,
];

interface Download {
  status: number;
  head: string;
  /** Resolves when the server closes the connection. */
  closed: Promise<void>;
  socket: net.Socket;
  /** Reads the rest of the answer to its end; answers the body's text (first 64 KiB) and its bytes in all. */
  readAll(): Promise<{ text: string; bytes: number }>;
}

/** Starts a download and stops reading as soon as the answer's head has arrived (a stuck tab). */
function openDownload(url: string, token: string): Promise<Download> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, "127.0.0.1");
    let pending: Buffer | null = Buffer.alloc(0);
    const kept: Buffer[] = [];
    let keptBytes = 0;
    let bytes = 0;
    const keep = (chunk: Buffer) => {
      bytes += chunk.length;
      if (keptBytes < 65_536) {
        kept.push(chunk);
        keptBytes += chunk.length;
      }
    };
    const closed = new Promise<void>((done) => socket.once("close", () => done()));
    socket.on("error", () => {});
    socket.on("data", (chunk: Buffer) => {
      if (!pending) return keep(chunk);
      pending = Buffer.concat([pending, chunk]);
      const end = pending.indexOf("\r\n\r\n");
      if (end < 0) return;
      const head = pending.subarray(0, end).toString("latin1");
      keep(pending.subarray(end + 4));
      pending = null;
      socket.pause();
      resolve({
        status: Number(head.split(" ")[1]),
        head,
        closed,
        socket,
        readAll: async () => {
          socket.resume();
          await closed;
          return { text: Buffer.concat(kept).toString("utf8"), bytes };
        },
      });
    });
    socket.once("error", reject);
    socket.write(`GET ${url} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nAuthorization: Bearer ${token}\r\nConnection: close\r\n\r\n`);
  });
}

/** The error of a refused download (its body is small and arrives whole). */
const refusal = async (download: Download) => JSON.parse((await download.readAll()).text);

/** Open cursors (PGlite's materialised downloads) and pool connections in use (PostgreSQL). */
async function heldByDownloads() {
  const pool = t.database.pool;
  const cursors = pool
    ? 0
    : Number(
        (await t.database.pglite?.query<{ n: number }>("select count(*)::int as n from pg_cursors where is_holdable"))?.rows[0]
          ?.n ?? 0,
      );
  return { cursors, busy: pool ? pool.totalCount - pool.idleCount : 0 };
}

async function until(check: () => Promise<boolean>, ms: number) {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    if (await check()) return true;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return check();
}

beforeAll(async () => {
  t = await buildTestApp({ DOWNLOADS_PER_USER: "2", DOWNLOADS_TOTAL: "3" });
  admin = (await signInAs(t.app, "admin")).api;
  const op = await signInAs(t.app, "operator");
  operator = op.api;
  employeeId = (op.employee as { id: number }).id;
  second = (await signInAs(t.app, "operator")).api;
  // About 10 MB of the operator's own activities (one an hour, long descriptions): more than the socket
  // buffers hold, so an unread download really waits for its reader.
  await t.app.db.db.execute(sql`insert into activities (employee_id, begins_at, ends_at, description, action_type)
    select ${employeeId}, timestamptz '2025-01-06 00:00Z' + n * interval '1 hour', timestamptz '2025-01-06 00:30Z' + n * interval '1 hour',
      'Revisión ' || n || ' ' || repeat('de la conciliación mensual ', 30), 'vacation'
    from generate_series(1, ${ROWS}) as n`);
  await t.app.listen({ port: 0, host: "127.0.0.1" });
  port = (t.app.server.address() as AddressInfo).port;
}, 120_000);

afterAll(async () => {
  await t?.close();
});

describe("downloads: a fair share of the server", () => {
  it("ten unread downloads by one user: two run, eight get a Spanish 429, an administrator is served at once", async () => {
    const list = urls();
    const downloads = await Promise.all(Array.from({ length: 10 }, (_, i) => openDownload(list[i % 3], operator.token)));
    try {
      // Another person's request is answered at once while they wait for their reader (without a bound,
      // the unread downloads hold every connection of the pool and this waits until they are closed).
      const started = performance.now();
      const answer = await Promise.race([
        admin.get("/api/v1/clients"),
        new Promise<null>((resolve) => setTimeout(() => resolve(null), 5000)),
      ]);
      const ms = performance.now() - started;
      expect(answer?.status, "an administrator's GET clients got no answer").toBe(200);
      expect(ms).toBeLessThan(underLoad(1000));
      const running = downloads.filter((d) => d.status === 200);
      const refused = downloads.filter((d) => d.status === 429);
      expect(running.length).toBe(2);
      expect(refused.length).toBe(8);
      for (const d of refused) expect(d.head.toLowerCase()).toMatch(/\r\nretry-after: \d+/);
      expect(await refusal(refused[0])).toEqual({ error: messages.downloadInProgress(2) });
      // Another user still has their own downloads.
      const other = await openDownload(list[0], second.token);
      expect(other.status).toBe(200);
      other.socket.destroy();
      await other.closed;
    } finally {
      for (const d of downloads) d.socket.destroy();
      await Promise.all(downloads.map((d) => d.closed));
    }
    // Closed by the client: the slots come back.
    expect(
      await until(
        async () =>
          (await openDownload(list[1], operator.token).then(async (d) => {
            d.socket.destroy();
            await d.closed;
            return d.status;
          })) === 200,
        3000,
      ),
    ).toBe(true);
  }, 60_000);

  it("API answers, refusals included, and downloads are never stored by a browser or proxy", async () => {
    for (const res of [
      await admin.get("/api/v1/clients"),
      await operator.get("/api/v1/sessions/current"),
      await operator.get("/api/v1/users"),
      await operator.post("/api/v1/activities/batch", {}),
      await operator.get("/api/v1/clients/2147483647"),
      await operator.get("/api/v1/no-existe"),
      await call(t.app, "GET", "/api/v1/sessions/current"),
      await call(t.app, "GET", "/drive/no-existe"),
    ])
      expect(res.headers["cache-control"], `${res.status}`).toBe("no-store");
    const download = await openDownload(urls()[0], operator.token);
    expect(download.status).toBe(200);
    expect(download.head.toLowerCase()).toContain("\r\ncache-control: no-store");
    download.socket.destroy();
    await download.closed;
  }, 60_000);

  it("past the total cap, the next download of anyone waits its turn with a 429", async () => {
    const list = urls();
    const mine = await Promise.all([openDownload(list[0], operator.token), openDownload(list[2], operator.token)]);
    const theirs = await openDownload(list[0], admin.token);
    const refused = await openDownload(list[1], second.token);
    try {
      expect(mine.map((d) => d.status)).toEqual([200, 200]);
      expect(theirs.status).toBe(200);
      expect(refused.status).toBe(429);
      expect(await refusal(refused)).toEqual({ error: messages.downloadsBusy });
    } finally {
      for (const d of [...mine, theirs, refused]) d.socket.destroy();
      await Promise.all([...mine, theirs, refused].map((d) => d.closed));
    }
  }, 60_000);

  it("a download whose reader stalls is ended: its cursor closed, its connection and slot given back", async () => {
    const released = async () => {
      const held = await heldByDownloads();
      return held.cursors === 0 && held.busy === 0;
    };
    expect(await until(released, 5000)).toBe(true);
    const stuck = await Promise.all([openDownload(urls()[0], operator.token), openDownload(urls()[2], operator.token)]);
    expect(stuck.map((d) => d.status)).toEqual([200, 200]);
    const started = Date.now();
    // While their reader takes nothing, they hold the database: a cursor (PGlite) or a connection (PostgreSQL).
    expect(await released()).toBe(false);
    // The server ends them by itself, a little after the stall time, and gives everything back.
    expect(await until(released, STALL_SECONDS * 1000 + 8000)).toBe(true);
    expect(Date.now() - started).toBeGreaterThanOrEqual(STALL_SECONDS * 1000 - 1000);
    // The stuck tab, reading again, gets a cut file and a closed connection.
    for (const d of stuck) expect((await d.readAll()).bytes).toBeLessThan(ROWS * 800);
    // And the user may download again, this time reading it whole.
    const again = await openDownload(urls()[1], operator.token);
    expect(again.status).toBe(200);
    const { bytes } = await again.readAll();
    expect(bytes).toBeGreaterThan(ROWS * 800);
  }, 60_000);
});
