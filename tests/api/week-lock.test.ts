/**
 * Closing a month (or a week) and writing into it are serialised per employee (PostgreSQL, several
 * connections). A write is held after its frozen check, right at its INSERT, by a table lock taken from
 * another connection; an administrator then closes the month. The close must wait for the write: a month
 * reported closed never gains activities afterwards. Without the lock the close answers at once, and the
 * held activities land inside a month already reported closed.
 */
import { and, eq, gte, lte } from "drizzle-orm";
import type { PoolClient } from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { activities } from "../../server/db/schema";
import { zonedTime } from "../../src/core/week";
import { buildTestApp, type TestApp } from "../support/app";
import { type ApiClient, signInAs } from "../support/factories";

const onPostgres = Boolean(process.env.DATABASE_URL);

let t: TestApp;
let admin: ApiClient;
let operator: ApiClient;
let me: { id: number };

const at = (date: string, time: string) => {
  const [h, m] = time.split(":").map(Number);
  return zonedTime(date, h * 60 + m).toISOString();
};
const vacation = (date: string, from: string, to: string) => ({
  begins_at: at(date, from),
  ends_at: at(date, to),
  action_type: "vacation",
  description: `Vacaciones ${from}`,
});

/** Activities of the employee between two local dates, as stored. */
const storedBetween = async (first: string, last: string) =>
  (
    await t.app.db.db
      .select({ id: activities.id })
      .from(activities)
      .where(
        and(
          eq(activities.employee_id, me.id),
          gte(activities.begins_at, zonedTime(first, 0)),
          lte(activities.begins_at, zonedTime(last, 24 * 60 - 1)),
        ),
      )
  ).length;

/** Until PostgreSQL shows a session waiting for a lock on activities (the held write reached its INSERT). */
async function waitForBlockedInsert(observer: PoolClient) {
  const deadline = Date.now() + 5000;
  while (Date.now() < deadline) {
    const { rows } = await observer.query(
      "select count(*)::int as n from pg_locks where not granted and relation = 'activities'::regclass",
    );
    if (rows[0].n > 0) return;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error("the write never reached its INSERT");
}

/**
 * Holds `write` at its INSERT, closes the month of `day` meanwhile, and answers whether the close
 * answered before the write was let go, and both answers.
 */
async function closeDuringWrite(day: string, write: () => Promise<{ status: number; body: unknown }>) {
  const pool = t.database.pool;
  if (!pool) throw new Error("PostgreSQL only");
  const holder = await pool.connect();
  let released = false;
  try {
    await holder.query("BEGIN");
    // SHARE conflicts with the INSERT's ROW EXCLUSIVE and with nothing the checks before it take.
    await holder.query("LOCK TABLE activities IN SHARE MODE");
    const writing = write();
    await waitForBlockedInsert(holder);
    let closedAt: number | null = null;
    const closing = admin
      .put("/api/v1/activities/close_month_activities", { by_begins_at: day, by_employee: me.id })
      .then((res) => {
        closedAt = Date.now();
        return res;
      });
    // Long enough for an unserialised close to commit and answer many times over.
    await new Promise((resolve) => setTimeout(resolve, 700));
    const closedWhileHeld = closedAt !== null;
    const releasedAt = Date.now();
    await holder.query("COMMIT");
    released = true;
    const [written, closed] = await Promise.all([writing, closing]);
    return { closedWhileHeld, written, closed, closedAfterRelease: (closedAt ?? 0) >= releasedAt };
  } finally {
    if (!released) await holder.query("ROLLBACK").catch(() => {});
    holder.release();
  }
}

describe.skipIf(!onPostgres)("closing a month waits for a save into it (PostgreSQL)", () => {
  beforeAll(async () => {
    t = await buildTestApp();
    admin = (await signInAs(t.app, "admin")).api;
    const op = await signInAs(t.app, "operator");
    operator = op.api;
    me = op.employee as { id: number };
  });
  afterAll(async () => {
    await t?.close();
  });

  it("the week save (batch): the close answers only after the save committed", async () => {
    const days = ["2025-03-03", "2025-03-04", "2025-03-05", "2025-03-06", "2025-03-07"];
    const list = days.flatMap((d) => [vacation(d, "09:00", "10:00"), vacation(d, "10:00", "11:00")]);
    const result = await closeDuringWrite("2025-03-10", () => operator.post("/api/v1/activities/batch", { activities: list }));
    expect(result.closedWhileHeld, "the month was reported closed while a save into it was still running").toBe(false);
    expect(result.written.status, JSON.stringify(result.written.body)).toBe(200);
    expect(result.closed.status).toBe(200);
    expect(result.closedAfterRelease).toBe(true);
    // The month is closed with the save's activities inside, and nothing more can enter it.
    expect(await storedBetween("2025-03-01", "2025-03-31")).toBe(10);
    const late = await operator.post("/api/v1/activities/batch", { activities: [vacation("2025-03-12", "09:00", "10:00")] });
    expect(late.status).toBe(422);
  });

  it("a single save: the close waits for it", async () => {
    const result = await closeDuringWrite("2025-04-10", () =>
      operator.post("/api/v1/activities", { activity: vacation("2025-04-08", "09:00", "10:00") }),
    );
    expect(result.closedWhileHeld).toBe(false);
    expect(result.written.status, JSON.stringify(result.written.body)).toBe(201);
    expect(result.closed.status).toBe(200);
    expect(await storedBetween("2025-04-01", "2025-04-30")).toBe(1);
  });

  it("copying the previous week: the close waits for it", async () => {
    const source = await operator.post("/api/v1/activities/batch", {
      activities: [vacation("2025-05-05", "09:00", "10:00"), vacation("2025-05-06", "09:00", "10:00")],
    });
    expect(source.status).toBe(200);
    const result = await closeDuringWrite("2025-05-14", () =>
      operator.post("/api/v1/activities/copy_previous_week", { week_start: "2025-05-12" }),
    );
    expect(result.closedWhileHeld).toBe(false);
    expect(result.written.status, JSON.stringify(result.written.body)).toBe(200);
    expect(await storedBetween("2025-05-12", "2025-05-18")).toBe(2);
  });
});
