/**
 * Every date an API takes is bounded (src/core/schemas/fields.ts: DATE_MIN…DATE_MAX). The routes come from
 * the app itself (Fastify's onRoute), so a new route is fuzzed without touching this file: each GET gets
 * every date-like query parameter at once, each write gets every date-like field (at the top level and
 * under the resource's key), with dates far out of range, at the edges and malformed. Every answer must be
 * < 500, and a refusal a Spanish message. The known date inputs are then checked one by one: the bound is
 * a 422 with «no es una fecha válida…», the edge inside it is accepted.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { messages } from "../../src/core/messages";
import { DATE_MAX, DATE_MIN } from "../../src/core/schemas/fields";
import { buildTestApp, type TestApp } from "../support/app";
import { buildActivity, buildProject } from "../support/catalog-factories";
import { type ApiClient, buildClient, buildProduct, signInAs } from "../support/factories";
import { recordFigures } from "../support/figures";

const PREFIX = "/api/v1";
/** Out of range, at the edges, malformed: what a date parser must survive. */
const HOSTILE_DATES = [
  "9999-12-31",
  "0001-01-01",
  "0000-00-00",
  "1899-12-31",
  "2101-01-01",
  "275760-09-13",
  "+275760-09-13T00:00:00Z",
  "-000001-01-01T00:00:00Z",
  "9999-12-31T23:59:59Z",
  "0001-01-01T00:00:00-23:59",
  "1000-01-01T00:00:00.000Z",
  "2026-02-30",
];
/** Names under which the API takes dates (query parameters and body fields). */
const DATE_NAMES = [
  "week",
  "from",
  "to",
  "date",
  "day",
  "month",
  "start_date",
  "end_date",
  "starts_on",
  "ends_on",
  "start_on",
  "end_on",
  "starts_at",
  "ends_at",
  "begins_at",
  "eta",
  "license_valid_until",
  "since",
  "until",
];
/** Routes that would end the caller's own session or mail people: not fuzzed. */
const SKIP = new Set(["DELETE /sessions", "POST /sessions/sign_out", "DELETE /sessions/current"]);
const ENGLISH = /Invalid input|Expected|Required|Unexpected token|SyntaxError|Internal Server Error|stack|RangeError/;

const routes: Array<{ method: string; url: string }> = [];
let t: TestApp;
let admin: ApiClient;
let operator: ApiClient;
const ids: Record<string, number> = {};
let probes = 0;

beforeAll(async () => {
  t = await buildTestApp(
    {},
    {
      onRoute: (route) => {
        for (const method of [route.method].flat()) {
          if (method === "HEAD" || method === "OPTIONS" || method === "DELETE") continue;
          if (!route.url.startsWith(`${PREFIX}/`)) continue;
          routes.push({ method, url: route.url.slice(PREFIX.length) });
        }
      },
    },
  );
  admin = (await signInAs(t.app, "admin")).api;
  const signed = await signInAs(t.app, "operator");
  operator = signed.api;
  const db = t.app.db.db;
  const client = await buildClient(db);
  await buildProduct(db);
  await buildProject(db, client.id);
  if (signed.employee) await buildActivity(db, signed.employee.id);
});
afterAll(() => t?.close());

/** A real id for `/:id` routes: the first record of the route's resource, else 1. */
async function idFor(resource: string): Promise<number> {
  if (ids[resource] === undefined) {
    const res = await admin.get(`${PREFIX}/${resource}?per_page=1`);
    const list = Array.isArray(res.body) ? res.body : (res.body?.data ?? res.body?.[resource] ?? []);
    ids[resource] = (Array.isArray(list) ? list[0]?.id : undefined) ?? 1;
  }
  return ids[resource];
}

async function concrete(url: string): Promise<string> {
  const resource = url.split("/")[1];
  const id = url.includes(":") ? await idFor(resource) : 0;
  return url.replace(/:[a-z_]+/g, () => String(id));
}

function expectSafe(label: string, res: { status: number; body: any; text: string }) {
  probes++;
  expect(res.status, `${label}: ${res.text.slice(0, 300)}`).toBeLessThan(500);
  if (res.status >= 400) {
    expect(res.body?.error ?? res.body?.errors, `${label}: ${res.text.slice(0, 300)}`).toBeTruthy();
    expect(res.text, label).not.toMatch(ENGLISH);
  }
}

describe("every route survives hostile dates", () => {
  // Every GET route × twelve dates, one request after another: it takes its time on a loaded 2-core machine.
  it("GET: every date-like query parameter at once, for each hostile date", async () => {
    const gets = routes.filter((r) => r.method === "GET" && !SKIP.has(`GET ${r.url}`));
    expect(gets.length).toBeGreaterThan(50);
    for (const route of gets) {
      const url = await concrete(route.url);
      for (const value of HOSTILE_DATES) {
        const v = encodeURIComponent(value);
        const query = [
          ...DATE_NAMES.map((name) => `${name}=${v}`),
          `by_begins_at=${encodeURIComponent(JSON.stringify({ start_date: value, end_date: value }))}`,
          `by_begins_at[start_date]=${v}`,
          `by_begins_at[end_date]=${v}`,
        ].join("&");
        expectSafe(`GET ${route.url} ${value}`, await admin.get(`${PREFIX}${url}?${query}`));
      }
    }
  }, 120_000);

  it("writes: every date-like field, at the top level and under the resource's key", async () => {
    const writes = routes.filter((r) => r.method !== "GET" && !SKIP.has(`${r.method} ${r.url}`));
    expect(writes.length).toBeGreaterThan(30);
    for (const route of writes) {
      const url = await concrete(route.url);
      const resource = route.url.split("/")[1];
      const singular = resource.replace(/ies$/, "y").replace(/s$/, "");
      for (const value of HOSTILE_DATES) {
        const fields = Object.fromEntries(DATE_NAMES.map((name) => [name, value]));
        const body = { ...fields, [singular]: fields, [resource]: [fields], activities: [fields] };
        const res = await admin.request(route.method as "POST", `${PREFIX}${url}`, body);
        expectSafe(`${route.method} ${route.url} ${value}`, res);
      }
    }
    // Every write route × every hostile value, one after another: as long as the reads above on a busy machine.
  }, 120_000);
});

describe("each date input refuses what is out of range, in Spanish", () => {
  const outOfRange = ["9999-12-31", "1899-12-31", "2101-01-01", "0000-00-00"];
  const refused = (res: { status: number; text: string }) => {
    expect(res.status, res.text).toBe(422);
    expect(res.text).toContain(messages.invalidDate);
  };

  it("dashboards: week, from, to", async () => {
    for (const value of outOfRange) {
      refused(await admin.get(`${PREFIX}/dashboards/employee?week=${value}`));
      refused(await operator.get(`${PREFIX}/dashboards/employee?week=${value}`));
      refused(await admin.get(`${PREFIX}/dashboards/team?from=${value}`));
      refused(await admin.get(`${PREFIX}/dashboards/team?to=${value}`));
    }
    expect((await admin.get(`${PREFIX}/dashboards/employee?week=${DATE_MIN}`)).status).toBe(200);
    expect((await admin.get(`${PREFIX}/dashboards/employee?week=${DATE_MAX}`)).status).toBe(200);
  });

  it("activities: by_begins_at as a range, as its two bounds, and as date-times", async () => {
    for (const value of [...outOfRange, "9999-12-31T23:59:59Z", "+275760-09-13T00:00:00Z", "1800-01-01T00:00:00Z"]) {
      const v = encodeURIComponent(value);
      refused(await operator.get(`${PREFIX}/activities?by_begins_at[start_date]=${v}`));
      refused(await operator.get(`${PREFIX}/activities?by_begins_at[end_date]=${v}`));
      refused(
        await operator.get(
          `${PREFIX}/activities?by_begins_at=${encodeURIComponent(JSON.stringify({ start_date: value, end_date: value }))}`,
        ),
      );
    }
  });

  it("holidays, assignments, licences, projects: the stored dates", async () => {
    for (const value of outOfRange) {
      refused(await admin.post(`${PREFIX}/holydays`, { holyday: { name: "Fuera de rango", date: value } }));
      refused(await admin.get(`${PREFIX}/holydays/holydays_by_date?from=${value}&to=2026-01-01`));
      refused(await admin.get(`${PREFIX}/assignments?from=${value}`));
    }
    expect((await admin.post(`${PREFIX}/holydays`, { holyday: { name: "Límite", date: DATE_MAX } })).status).toBe(201);
  });

  it("the activity report: start and end dates", async () => {
    for (const value of outOfRange) {
      const res = await admin.get(
        `${PREFIX}/activities/reporting_activities.csv?current_filter=employee&id=1&start_date=${value}&end_date=2026-01-31`,
      );
      expect(res.status, res.text).toBe(422);
    }
  });
});

afterAll(() => {
  recordFigures("seguridad-fechas", `Fechas: ${probes} peticiones con fechas hostiles en ${routes.length} rutas, ninguna 500`, {
    probes,
    routes: routes.length,
  });
});
