/**
 * Crash safety: the server process is killed with SIGKILL in the middle of a week save, the save
 * of an imported CSV week, a holiday import and a quotation approval — the kill lands inside the open
 * transaction, after its first writes, thanks to the test-only pause point (server/http/testPause.ts). On
 * restart the database holds none of it (no half-made client or project either), the same request then
 * succeeds, and once more adds nothing. Then rounds of concurrent week saves killed at a random moment:
 * every answered save is there, every batch is all or nothing, and the retries complete them without
 * duplicates. On PGlite this also proves the embedded database reopens after being killed mid-write
 * (its stale data-folder lock does not block the restart).
 */
import fs from "node:fs";
import { and, count, eq, like, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "../../server/db/client";
import { activities, audit_logs, clients, holydays, project_types, projects, quotations } from "../../server/db/schema";
import type { PausePoint } from "../../server/http/testPause";
import { buildProspect, multipart } from "../support/catalog-factories";
import { buildProduct, buildUser, PASSWORD } from "../support/factories";
import { recordFigures } from "../support/figures";
import { createStore, httpRequest, httpSignIn, type ServerProcess, startServer, type TestStore } from "../support/server";

const PORT = 3250;
let store: TestStore;
let server: ServerProcess | undefined;
let adminEmail = "";
let quotationId = 0;
let prospectName = "";
const operators: { email: string; employeeId: number }[] = [];
const figures = { kills: 0, killsMidTransaction: 0, restarts: 0, concurrentSaves: 0, savesAnsweredBeforeKill: 0, retried: 0 };

beforeAll(async () => {
  store = await createStore();
  await store.withDatabase(async ({ db }) => {
    const admin = await buildUser(db, "admin");
    adminEmail = admin.user.email;
    await db.insert(project_types).values({ id: 6, name: "Cotización aprobada" }).onConflictDoNothing();
    const product = await buildProduct(db, { name: "Timbrado" });
    const prospect = await buildProspect(db, { name: `Molinos Crash ${Date.now()}` });
    prospectName = prospect.name;
    const [quotation] = await db
      .insert(quotations)
      .values({ contact_name: "Contacto", product_catalog_id: product.id, prospect_id: prospect.id, state: "quote" })
      .returning();
    quotationId = quotation.id;
    for (let i = 0; i < 6; i++) {
      const op = await buildUser(db, "operator");
      operators.push({ email: op.user.email, employeeId: (op.employee as { id: number }).id });
    }
  });
});

afterAll(async () => {
  await server?.kill();
  recordFigures(
    "confiabilidad-caidas",
    `SIGKILL: ${figures.kills} (${figures.killsMidTransaction} dentro de una transacción abierta), reinicios: ${figures.restarts}, guardados concurrentes: ${figures.concurrentSaves} (${figures.savesAnsweredBeforeKill} respondidos antes del kill, ${figures.retried} reintentados)`,
    figures,
  );
  await store?.destroy();
});

const start = async (env: Record<string, string> = {}) => {
  server = await startServer(store, PORT, env);
  return server;
};

/** Kills the running server with SIGKILL and checks the database directly (PGlite: reopening it after the kill). */
async function killAndInspect<T>(inspect: (database: Database) => Promise<T>): Promise<T> {
  const exit = await server?.kill("SIGKILL");
  expect(exit).toBe("SIGKILL");
  figures.kills++;
  server = undefined;
  return store.withDatabase(inspect);
}

/** Starts a server that pauses at `point`, sends the request, and waits until it is paused inside the transaction. */
async function pausedAt(point: PausePoint, send: (s: ServerProcess) => Promise<unknown>) {
  const s = await start({ SIA_TEST_PAUSE: point });
  const pending = send(s).catch((error) => error); // the kill ends it: no answer
  await s.waitFor(`SIA_TEST_PAUSED ${point}`);
  figures.killsMidTransaction++;
  // Wrapped: an async function returning the bare promise would wait for the answer that never comes.
  return { pending };
}

const week = (day: number, hour: number, description: string) => ({
  begins_at: new Date(Date.UTC(2021, 2, day, hour, 0)).toISOString(),
  ends_at: new Date(Date.UTC(2021, 2, day, hour + 1, 0)).toISOString(),
  description,
  action_type: "rh",
});

const countLike = async (database: Database, pattern: string) =>
  (await database.db.select({ n: count() }).from(activities).where(like(activities.description, pattern)))[0].n;

describe("SIGKILL inside the transaction, then restart and retry", () => {
  it("a week save: none of it after the kill; the retry saves it once", async () => {
    const batch = { activities: [week(3, 14, "Semana crash 1"), week(4, 14, "Semana crash 2"), week(5, 14, "Semana crash 3")] };
    await pausedAt("week_save", async (s) => {
      const admin = await httpSignIn(s.url, adminEmail, PASSWORD);
      expect((await admin.request("POST", "/api/v1/activities/validate", batch)).status).toBe(200);
      return admin.request("POST", "/api/v1/activities/batch", batch);
    });
    expect(await killAndInspect((d) => countLike(d, "Semana crash %"))).toBe(0);

    const s = await start();
    figures.restarts++;
    const admin = await httpSignIn(s.url, adminEmail, PASSWORD);
    const retry = await admin.request("POST", "/api/v1/activities/batch", batch);
    expect(retry.status, JSON.stringify(retry.body)).toBe(200);
    expect(retry.body.created).toBe(3);
    // The same week again is refused (it overlaps what is saved): no duplicate.
    const again = await admin.request("POST", "/api/v1/activities/batch", batch);
    expect(again.status).toBe(422);
    expect(await killAndInspect((d) => countLike(d, "Semana crash %"))).toBe(3);
  });

  it("an imported CSV week: the import itself writes nothing; its save killed mid-way leaves nothing; retries add it once", async () => {
    const csv = ["fecha,hora_inicio,hora_fin,tipo,cliente_o_prospecto,codigo_proyecto,producto,tipo_actividad,ticket,descripcion"]
      .concat([10, 11, 12, 13].map((d) => `2021-03-${d},09:00,10:00,RH,,,,,,CSV crash ${d}`))
      .join("\n");
    const readCsv = async (s: ServerProcess, token: string) => {
      const body = multipart({ filename: "semana.csv", contentType: "text/csv", content: csv });
      const res = await httpRequest(s.url, "PUT", "/api/v1/activities/import_activities_csv?date=2021-03-10", undefined, token, {
        body: body.payload,
        contentType: body.headers["content-type"],
      });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      const events = res.body.import_activities as { isValidate: boolean }[];
      expect(events.every((e) => e.isValidate)).toBe(true);
      const { localEventToActivity } = await import("../../src/core/activity");
      return { activities: events.map((e) => localEventToActivity(e as never)) };
    };
    await pausedAt("week_save", async (s) => {
      const admin = await httpSignIn(s.url, adminEmail, PASSWORD);
      const batch = await readCsv(s, admin.token);
      expect(batch.activities.every((a) => typeof a.import_key === "string")).toBe(true);
      return admin.request("POST", "/api/v1/activities/batch", batch);
    });
    expect(await killAndInspect((d) => countLike(d, "CSV crash %"))).toBe(0);

    const s = await start();
    figures.restarts++;
    const admin = await httpSignIn(s.url, adminEmail, PASSWORD);
    const batch = await readCsv(s, admin.token);
    const retry = await admin.request("POST", "/api/v1/activities/batch", batch);
    expect(retry.status, JSON.stringify(retry.body)).toBe(200);
    expect(retry.body).toMatchObject({ created: 4, existing: 0 });
    // Same import keys: the second retry finds them saved (idempotent by import_key).
    const again = await admin.request("POST", "/api/v1/activities/batch", batch);
    expect(again.status).toBe(200);
    expect(again.body).toMatchObject({ created: 0, existing: 4 });
    expect(await killAndInspect((d) => countLike(d, "CSV crash %"))).toBe(4);
  });

  it("a holiday import: no holiday after the kill; the retry imports all, the next skips all", async () => {
    const csv = "fecha,nombre\n2050-01-01,Crash uno\n2050-02-05,Crash dos\n2050-03-18,Crash tres\n";
    const upload = (s: ServerProcess, token: string) => {
      const body = multipart({ filename: "festivos.csv", contentType: "text/csv", content: csv });
      return httpRequest(s.url, "PUT", "/api/v1/holydays/import_holydays", undefined, token, {
        body: body.payload,
        contentType: body.headers["content-type"],
      });
    };
    const countHolidays = async (d: Database) =>
      (await d.db.select({ n: count() }).from(holydays).where(like(holydays.name, "Crash %")))[0].n;
    await pausedAt("holiday_import", async (s) => upload(s, (await httpSignIn(s.url, adminEmail, PASSWORD)).token));
    expect(await killAndInspect(countHolidays)).toBe(0);

    const s = await start();
    figures.restarts++;
    const admin = await httpSignIn(s.url, adminEmail, PASSWORD);
    const retry = await upload(s, admin.token);
    expect(retry.status, JSON.stringify(retry.body)).toBe(200);
    expect(retry.body).toMatchObject({ imported: 3, skipped: 0 });
    const again = await upload(s, admin.token);
    expect(again.body).toMatchObject({ imported: 0, skipped: 3 });
    expect(await killAndInspect(countHolidays)).toBe(3);
  });

  it("a quotation approval: no client, project, state change or audit row after the kill; the retry approves once", async () => {
    const approve = (s: ServerProcess, token: string) =>
      httpRequest(
        s.url,
        "POST",
        `/api/v1/quotations/${quotationId}/aasm_transition`,
        { quotation: { event: "approve_quote", audit_comment: "Firmado" } },
        token,
      );
    const state = async (d: Database) => {
      const [q] = await d.db.select().from(quotations).where(eq(quotations.id, quotationId));
      const [c] = await d.db.select({ n: count() }).from(clients).where(eq(clients.name, prospectName));
      const [p] = await d.db
        .select({ n: count() })
        .from(projects)
        .where(sql`${projects.client_id} in (select id from clients where name = ${prospectName})`);
      const [a] = await d.db
        .select({ n: count() })
        .from(audit_logs)
        .where(and(eq(audit_logs.auditable_type, "Quotation"), eq(audit_logs.auditable_id, quotationId)));
      return { state: q.state, client: q.client_id, clients: c.n, projects: p.n, audits: a.n };
    };
    const driveFolders = () => {
      const root = `${store.dataDir}/drive`;
      try {
        return fs.readdirSync(root, { recursive: true }).filter((f) => String(f).includes("Molinos Crash")).length;
      } catch {
        return 0;
      }
    };
    await pausedAt("quotation_approval", async (s) => approve(s, (await httpSignIn(s.url, adminEmail, PASSWORD)).token));
    expect(await killAndInspect(state)).toEqual({ state: "quote", client: null, clients: 0, projects: 0, audits: 0 });
    expect(driveFolders()).toBe(0);

    const s = await start();
    figures.restarts++;
    const admin = await httpSignIn(s.url, adminEmail, PASSWORD);
    const retry = await approve(s, admin.token);
    expect(retry.status, JSON.stringify(retry.body)).toBe(200);
    expect(retry.body.quotation.state).toBe("finalizada");
    const again = await approve(s, admin.token);
    expect(again.status).toBe(422);
    const after = await killAndInspect(state);
    expect(after).toMatchObject({ state: "finalizada", clients: 1, projects: 1, audits: 1 });
    expect(after.client).not.toBeNull();
  });
});

describe("concurrent week saves killed at a random moment", () => {
  it("every answered save survives, every batch is all or nothing, retries complete them once", async () => {
    const ROUNDS = 2;
    const PER_ROUND = 30;
    for (let round = 0; round < ROUNDS; round++) {
      const s = await start();
      figures.restarts++;
      const clients = await Promise.all(operators.map((o) => httpSignIn(s.url, o.email, PASSWORD)));
      // Batch i: 3 activities of operator i % 6, on its own hours; tagged so each batch can be counted.
      const batches = Array.from({ length: PER_ROUND }, (_, i) => {
        const slot = round * PER_ROUND + i;
        const tag = `Lote ${slot} `;
        const day = 3 + (slot % 5);
        const hour = Math.floor(slot / 5) % 20;
        const batch = { activities: [0, 1, 2].map((k) => week(day + 7 * k, hour, `${tag}${k}`)) };
        return { tag, client: clients[i % clients.length], batch, answered: false };
      });
      const inFlight = batches.map(async (b, i) => {
        // Spread the starts a little so the kill finds saves at every stage.
        await new Promise((r) => setTimeout(r, i * 15));
        try {
          const res = await b.client.request("POST", "/api/v1/activities/batch", b.batch);
          if (res.status === 200) b.answered = true;
          else throw new Error(`${res.status} ${JSON.stringify(res.body)}`);
        } catch (error) {
          if (!(error instanceof TypeError)) throw error; // fetch failed: the kill, expected
        }
      });
      figures.concurrentSaves += PER_ROUND;
      // Kill once some saves have been answered and others are still running.
      const deadline = Date.now() + 120_000;
      const target = 3 + Math.floor(Math.random() * (PER_ROUND / 2));
      while (batches.filter((b) => b.answered).length < target && Date.now() < deadline)
        await new Promise((r) => setTimeout(r, 10));
      await s.kill("SIGKILL");
      figures.kills++;
      server = undefined;
      await Promise.all(inFlight);
      const answered = batches.filter((b) => b.answered);
      figures.savesAnsweredBeforeKill += answered.length;

      const counts = await store.withDatabase(async (d) => {
        const out: number[] = [];
        for (const b of batches) out.push(await countLike(d, `${b.tag}%`));
        return out;
      });
      batches.forEach((b, i) => {
        expect([0, 3], `${b.tag}: ${counts[i]}`).toContain(counts[i]);
        if (b.answered) expect(counts[i], `${b.tag} fue respondido`).toBe(3);
      });

      const again = await start();
      figures.restarts++;
      const fresh = await Promise.all(operators.map((o) => httpSignIn(again.url, o.email, PASSWORD)));
      for (const [i, b] of batches.entries()) {
        if (counts[i] === 3) continue;
        figures.retried++;
        const res = await fresh[i % fresh.length].request("POST", "/api/v1/activities/batch", b.batch);
        expect(res.status, JSON.stringify(res.body)).toBe(200);
      }
      await again.kill("SIGTERM");
      server = undefined;
      const final = await store.withDatabase(async (d) => {
        const out: number[] = [];
        for (const b of batches) out.push(await countLike(d, `${b.tag}%`));
        return out;
      });
      expect(final).toEqual(batches.map(() => 3));
    }
  });
});
