import { eq, inArray } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { audit_logs, project_stages, projects } from "../../server/db/schema";
import { runWarrantyAutoClose, WARRANTY_JOB_LOCK_KEY } from "../../server/jobs/warrantyAutoClose";
import { buildTestApp, type TestApp } from "../support/app";
import { buildProject } from "../support/project-factories";

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(() => t.close());

const db = () => t.app.db.db;
const DAY = 24 * 60 * 60 * 1000;

describe("Garantía auto-close job", () => {
  it("closes projects 60 days or more in garantia, once, with stage and audit rows", async () => {
    const now = new Date("2030-06-01T12:00:00Z");
    const old = await buildProject(db(), { state: "garantia", state_changed_at: new Date(now.getTime() - 60 * DAY) });
    const older = await buildProject(db(), { state: "garantia", state_changed_at: new Date(now.getTime() - 200 * DAY) });
    const recent = await buildProject(db(), { state: "garantia", state_changed_at: new Date(now.getTime() - 59 * DAY) });
    const running = await buildProject(db(), { state: "en_ejecucion", state_changed_at: new Date(now.getTime() - 400 * DAY) });

    const first = await runWarrantyAutoClose(db(), now);
    expect(first.ran).toBe(true);
    expect(first.closed).toEqual(expect.arrayContaining([old.id, older.id]));
    expect(first.closed).not.toContain(recent.id);
    expect(first.closed).not.toContain(running.id);

    const rows = await db()
      .select()
      .from(projects)
      .where(inArray(projects.id, [old.id, older.id, recent.id, running.id]));
    const stateOf = (id: number) => rows.find((r) => r.id === id)?.state;
    expect([stateOf(old.id), stateOf(older.id), stateOf(recent.id), stateOf(running.id)]).toEqual([
      "terminado",
      "terminado",
      "garantia",
      "en_ejecucion",
    ]);
    expect(rows.find((r) => r.id === old.id)?.state_changed_at.toISOString()).toBe(now.toISOString());

    const stages = await db().select().from(project_stages).where(eq(project_stages.project_id, old.id));
    expect(stages).toEqual([
      expect.objectContaining({
        event: "cerrar_garantia",
        from_state: "garantia",
        to_state: "terminado",
        user_id: null,
        stage_date: "2030-06-01",
      }),
    ]);
    expect(stages[0].comment).toContain("60 días");
    const logs = await db().select().from(audit_logs).where(eq(audit_logs.auditable_id, old.id));
    expect(logs.filter((l) => l.auditable_type === "Project")).toEqual([
      expect.objectContaining({ field: "state", old_value: "garantia", new_value: "terminado", user_id: null }),
    ]);

    // Idempotent: a second run (or a later one) closes nothing more and writes nothing more.
    const second = await runWarrantyAutoClose(db(), now);
    expect(second).toEqual({ ran: true, closed: [] });
    expect(await db().select().from(project_stages).where(eq(project_stages.project_id, old.id))).toHaveLength(1);

    // 59 days later the recent one is due.
    const later = await runWarrantyAutoClose(db(), new Date(now.getTime() + DAY));
    expect(later.closed).toEqual([recent.id]);
  });

  // PGlite is a single session (advisory locks are re-entrant there): the lock is exercised on PostgreSQL.
  it.runIf(Boolean(process.env.DATABASE_URL))("skips its run while another session holds the job's advisory lock", async () => {
    const now = new Date("2031-01-01T12:00:00Z");
    const due = await buildProject(db(), { state: "garantia", state_changed_at: new Date(now.getTime() - 90 * DAY) });
    const client = await t.database.pool!.connect();
    try {
      await client.query("begin");
      await client.query("select pg_advisory_xact_lock($1)", [WARRANTY_JOB_LOCK_KEY]);
      expect(await runWarrantyAutoClose(db(), now)).toEqual({ ran: false, closed: [] });
      await client.query("rollback");
    } finally {
      client.release();
    }
    expect((await runWarrantyAutoClose(db(), now)).closed).toContain(due.id);
  });

  it("concurrent runs close each project once", async () => {
    const now = new Date("2032-01-01T12:00:00Z");
    const due = await buildProject(db(), { state: "garantia", state_changed_at: new Date(now.getTime() - 61 * DAY) });
    const runs = await Promise.all([
      runWarrantyAutoClose(db(), now),
      runWarrantyAutoClose(db(), now),
      runWarrantyAutoClose(db(), now),
    ]);
    expect(runs.flatMap((r) => r.closed).filter((id) => id === due.id)).toHaveLength(1);
    expect(await db().select().from(project_stages).where(eq(project_stages.project_id, due.id))).toHaveLength(1);
  });
});
