/**
 * "Today" is the firm's day (America/Mexico_City), on the server as in the browser: after 18:00 there it is
 * already tomorrow in UTC, and a default date taken from toISOString() would be a day ahead.
 */
import { eq } from "drizzle-orm";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { project_types, projects } from "../../server/db/schema";
import { businessToday } from "../../src/core/week";
import { buildTestApp, type TestApp } from "../support/app";
import { type ApiClient, buildProduct, signInAs } from "../support/factories";

/** 19:30 on 9 March 2026 in Mexico City (UTC−6): already 10 March in UTC. */
const EVENING = new Date("2026-03-10T01:30:00Z");

let t: TestApp;
let admin: ApiClient;

beforeAll(async () => {
  t = await buildTestApp();
  admin = (await signInAs(t.app, "admin")).api;
  await t.app.db.db.insert(project_types).values({ id: 6, name: "Cotización aprobada" }).onConflictDoNothing();
});
afterEach(() => {
  vi.useRealTimers();
});
afterAll(() => t.close());

describe("businessToday", () => {
  it("is the Mexico City date, not the UTC one, around 18:00", () => {
    expect(businessToday(EVENING)).toBe("2026-03-09");
    expect(EVENING.toISOString().slice(0, 10)).toBe("2026-03-10");
    expect(businessToday(new Date("2026-03-10T05:59:59Z"))).toBe("2026-03-09");
    expect(businessToday(new Date("2026-03-10T06:00:00Z"))).toBe("2026-03-10");
  });

  it("dates the project an approved quotation creates with the firm's day when none is given", async () => {
    const product = await buildProduct(t.app.db.db, { name: "Producto de la tarde" });
    const prospect = (await admin.post("/api/v1/prospects", { prospect: { name: "Aprobado de noche" } })).body.prospect;
    const quotation = (
      await admin.post("/api/v1/quotations", {
        quotation: { contact_name: "Contacto", prospect_id: prospect.id, product_catalog_id: product.id },
      })
    ).body.quotation;
    const step = (event: string) =>
      admin.post(`/api/v1/quotations/${quotation.id}/aasm_transition`, { quotation: { event, audit_comment: "Avanza" } });
    expect((await step("approve_demo")).status).toBe(200);
    expect((await step("request_contract")).status).toBe(200);
    // Only Date is faked: timers and the database keep running.
    vi.useFakeTimers({ toFake: ["Date"], now: EVENING });
    const approved = await step("approve_quote");
    vi.useRealTimers();
    expect(approved.status, approved.text).toBe(200);
    const [project] = await t.app.db.db.select().from(projects).where(eq(projects.id, approved.body.quotation.project_id));
    expect(project.project_date).toBe("2026-03-09");
  });
});
