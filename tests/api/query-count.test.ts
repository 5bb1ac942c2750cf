/**
 * No N+1: a list request of every declared resource sends a small, constant number of
 * statements (besides the session's), the same for a page of 1 row as for a page of 100 (counted with the Database's query
 * listeners, on the demo firm's data). And the indexes the lists rely on exist.
 */
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { seedDemo } from "../../server/db/seed";
import { resources } from "../../server/modules";
import { buildTestApp, type TestApp } from "../support/app";

const PASSWORD = "consultas-demo";
let t: TestApp;
let token: string;

beforeAll(async () => {
  t = await buildTestApp();
  await seedDemo(t.database.db, { password: PASSWORD, now: new Date("2026-03-18T12:00:00Z") });
  const login = await t.app.inject({
    method: "POST",
    url: "/api/v1/sessions",
    payload: { email: "admin@sia.local", password: PASSWORD },
  });
  token = (login.json() as { token: string }).token;
}, 180_000);

afterAll(async () => {
  await t?.close();
});

/**
 * Statements sent while answering one GET, and its body. The session's own statements (the lookup, its
 * last-seen touch once a minute, and the session cache's catching up after the test's own writes to users
 * and employees: pg_notify) are left out: they are the same for every request.
 */
async function counted(url: string) {
  let queries = 0;
  const listener = (query: string) => {
    if (!/\b(from|update) "sessions"|pg_notify\(/.test(query)) queries++;
  };
  t.database.queryListeners.add(listener);
  try {
    const res = await t.app.inject({ method: "GET", url, headers: { authorization: `Bearer ${token}` } });
    expect(res.statusCode, `${url}: ${res.body.slice(0, 200)}`).toBe(200);
    return { queries, body: res.json() as Record<string, unknown> };
  } finally {
    t.database.queryListeners.delete(listener);
  }
}

describe("queries per list request", () => {
  for (const resource of resources) {
    it(`${resource.name}: the same few statements for 1 row as for 100`, async () => {
      const one = await counted(`/api/v1/${resource.name}?per_page=1`);
      const many = await counted(`/api/v1/${resource.name}?per_page=100`);
      const all = await counted(`/api/v1/${resource.name}?per_page=all`);
      // The page (computed columns for its rows only) and its count, and one statement per nested table;
      // per_page=all needs no count.
      const limit = 2 + (resource.nested?.length ?? 0);
      expect(one.queries).toBeGreaterThanOrEqual(1);
      expect(many.queries).toBe(one.queries);
      expect(all.queries).toBeLessThanOrEqual(one.queries);
      expect(many.queries).toBeLessThanOrEqual(limit);
    });
  }

  it("the demo data really has rows to multiply (an N+1 would show)", async () => {
    for (const name of ["clients", "projects", "employees", "activities", "assignments", "invoices"]) {
      const { body } = await counted(`/api/v1/${name}?per_page=100`);
      expect((body[name] as unknown[]).length, name).toBeGreaterThan(5);
    }
  });

  it("a page past the end still answers the total", async () => {
    const { body } = await counted("/api/v1/clients?per_page=25&page=1000");
    expect(body.clients).toEqual([]);
    expect((body.meta as { total_count: number }).total_count).toBeGreaterThan(0);
    const first = await counted("/api/v1/clients?per_page=5");
    expect((first.body.meta as { total_count: number }).total_count).toBe((body.meta as { total_count: number }).total_count);
  });
});

describe("indexes of the lists", () => {
  it("every search has its trigram index and the benchmark's sorts and filters a btree", async () => {
    const rows = await t.database.rows<{ indexname: string; indexdef: string }>(
      sql`select indexname, indexdef from pg_indexes where schemaname = 'public'`,
    );
    const names = new Set(rows.map((r) => r.indexname));
    for (const resource of resources) {
      if (resource.search?.length) expect(names, `${resource.name}_search_trgm`).toContain(`${resource.name}_search_trgm`);
    }
    for (const name of [
      "clients_name_idx",
      "projects_state_idx",
      "projects_code_idx",
      "employees_name_idx",
      "activities_employee_begins_idx",
      "assignments_employee_idx",
      "assignments_start_on_idx",
    ]) {
      expect(names, name).toContain(name);
    }
  });
});
