/**
 * The published contract (/api/docs/json, generated from each route's zod declarations) holds:
 * - it lints at zero errors with Redocly's `recommended` rules;
 * - every operation has a unique operationId and a documented 2xx answer;
 * - every GET route, called as each role on the demo data, answers a status it documents, with a body
 *   that validates against the schema documented for that status.
 */
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { Ajv2020 } from "ajv/dist/2020.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { seedDemo } from "../../server/db/seed";
import { addDays, businessToday, mondayOf } from "../../src/core/week";
import { buildTestApp, type TestApp } from "../support/app";
import { type ApiClient, type RoleName, signInAs } from "../support/factories";

type Operation = {
  operationId?: string;
  parameters?: Array<{ name: string; in: string; required?: boolean }>;
  responses?: Record<string, { content?: Record<string, { schema?: object }> }>;
};
type Document = { openapi: string; paths: Record<string, Record<string, Operation>> };

const ROLES: RoleName[] = ["admin", "operator", "finance"];
/** Routes a request/answer cannot show: a stream that never ends, redirects to a provider. */
const NOT_CALLED = new Set([
  "/api/v1/realtime",
  "/api/v1/google/connect",
  "/api/v1/google/callback",
  // Answers only when an identity provider is configured (tests/api/auth-callback.test.ts).
  "/api/v1/auth/nonce",
]);
/** Query strings some routes need to answer 2xx; {resource} is the id of one of its records. */
const QUERY_FOR: Record<string, string> = {
  "/api/v1/holydays/holydays_by_date": "from=2026-01-01&to=2026-12-31",
  "/api/v1/activities/week_state": `week_start=${businessToday()}`,
  "/api/v1/week_reviews/preview": `week_start=${businessToday()}`,
  "/api/v1/invoices/percentage_to_invoice": "project_id={projects}",
  "/api/v1/activities/reporting_activities.csv": `current_filter=employee&employee_id={employees}&start_date=2020-01-01&end_date=${businessToday()}`,
};
/** Records a route reads only when they have something: a quotation's invitation needs its event. */
const PICK: Record<string, (row: Record<string, unknown>) => boolean> = {
  "/api/v1/quotations/{id}/invitation.ics": (row) => Boolean(row.event),
};
/** Values for the query parameters a route requires. */
const today = businessToday();
const REQUIRED_QUERY: Record<string, string> = { start_date: "2020-01-01", end_date: today };
/** Path ids: the resource a path's {id} is a record of, when it is not the path's first segment. */
const ID_OF: Array<[RegExp, string]> = [
  [/^\/api\/v1\/dashboards\/projects\//, "projects"],
  [/^\/api\/v1\/dashboards\/clients\//, "clients"],
];

let t: TestApp;
let clients: Record<RoleName, ApiClient>;
let document: Document;

beforeAll(async () => {
  t = await buildTestApp();
  await seedDemo(t.database.db as never, { password: "demo-secreta-1", now: new Date(), documents: t.app.documents });
  // One message in the local outbox, so its routes have something to read.
  await t.app.mail.send({ to: "ana@example.com", subject: "Prueba del contrato", text: "Hola" });
  clients = {} as Record<RoleName, ApiClient>;
  let adminEmployee = 0;
  for (const role of ROLES) {
    const signed = await signInAs(t.app, role);
    clients[role] = signed.api;
    if (role === "admin") adminEmployee = signed.employee?.id ?? 0;
  }
  // One week in review of someone else (nobody reviews their own), so its show has something to read.
  const staff = (await clients.admin.get("/api/v1/employees?per_page=all")).body.employees as Array<{ id: number }>;
  const someone = staff.find((e) => e.id !== adminEmployee)?.id;
  // Two weeks back: ended, and after any demo person's start date.
  const week_start = addDays(mondayOf(businessToday()), -14);
  const review = await clients.admin.post("/api/v1/week_reviews/submit", { week_start, by_employee: someone });
  expect(review.status, review.text).toBe(200);
  // One archive in BACKUP_DIR, so its download has something to read (its {name} is the list's id).
  expect((await clients.admin.post("/api/v1/backups", {})).status).toBe(200);
  const res = await clients.admin.get("/api/docs/json");
  expect(res.status).toBe(200);
  document = res.body as Document;
}, 120_000);
afterAll(async () => t?.close());

const operations = () =>
  Object.entries(document.paths).flatMap(([url, ops]) =>
    Object.entries(ops)
      .filter(([method]) => ["get", "post", "put", "patch", "delete"].includes(method))
      .map(([method, op]) => ({ url, method, op })),
  );

describe("the published OpenAPI document", () => {
  it("is OpenAPI 3.1 and lints at zero errors with Redocly's recommended rules", () => {
    expect(document.openapi).toBe("3.1.0");
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "sia-openapi-"));
    const file = path.join(dir, "openapi.json");
    fs.writeFileSync(file, JSON.stringify(document));
    const run = spawnSync(
      path.resolve("node_modules/.bin/redocly"),
      ["lint", file, "--extends", "recommended", "--format", "json"],
      {
        encoding: "utf8",
        env: { ...process.env, REDOCLY_TELEMETRY: "off", REDOCLY_SUPPRESS_UPDATE_NOTICE: "true" },
        timeout: 120_000,
      },
    );
    fs.rmSync(dir, { recursive: true, force: true });
    const report = JSON.parse(run.stdout.slice(run.stdout.indexOf("{"))) as {
      totals: { errors: number };
      problems: Array<{ ruleId: string; severity: string; message: string; location?: Array<{ pointer: string }> }>;
    };
    const errors = report.problems.filter((p) => p.severity === "error");
    expect(errors.map((p) => `${p.ruleId}: ${p.message} ${p.location?.[0]?.pointer ?? ""}`)).toEqual([]);
    expect(report.totals.errors).toBe(0);
  }, 150_000);

  it("names every operation once and documents a 2xx answer (or its redirect) for each", () => {
    const ops = operations();
    expect(ops.length).toBeGreaterThan(150);
    const ids = ops.map(({ op }) => op.operationId);
    expect(ids.filter((id) => !id)).toEqual([]);
    expect(new Set(ids).size).toBe(ids.length);
    // A redirect documents its 302 (Google's connect and callback) instead.
    const without2xx = ops.filter(({ op }) => !Object.keys(op.responses ?? {}).some((s) => s.startsWith("2") || s === "302"));
    // And none is left with the placeholder of an answer nobody declared.
    const placeholder = ops.filter(({ op }) =>
      Object.entries(op.responses ?? {}).some(([status, r]) => {
        const schema = r.content?.["application/json"]?.schema as { properties?: object } | undefined;
        return status.startsWith("2") && schema && Object.keys(schema.properties ?? {}).length === 0;
      }),
    );
    expect(placeholder.map(({ method, url }) => `${method} ${url}`)).toEqual([]);
    expect(without2xx.map(({ method, url }) => `${method} ${url}`)).toEqual([]);
  });

  it("declares each list's query parameters and the If-Match of each update", () => {
    const list = document.paths["/api/v1/clients"].get;
    const names = (list.parameters ?? []).map((p) => p.name);
    for (const name of ["page", "per_page", "search", "by_column[column]", "by_column[order]", "by_client_group"])
      expect(names).toContain(name);
    const update = document.paths["/api/v1/clients/{id}"].put;
    expect((update.parameters ?? []).map((p) => `${p.in}:${p.name}`)).toContain("header:if-match");
    expect(Object.keys(update.responses ?? {})).toEqual(expect.arrayContaining(["200", "409", "428", "422"]));
  });
});

describe("every GET route answers what it documents, as each role", () => {
  it("validates the real answers against the documented schemas", async () => {
    const ajv = new Ajv2020({ strict: false, validateFormats: false, allErrors: false });
    const idCache = new Map<string, number | string | undefined>();
    const idFor = async (resource: string, pick = (_row: Record<string, unknown>) => true) => {
      const key = `${resource} ${pick}`;
      if (!idCache.has(key)) {
        // The whole list where the route takes per_page=all, else its first page.
        let res = await clients.admin.get(`/api/v1/${resource}?per_page=all`);
        if (res.status !== 200) res = await clients.admin.get(`/api/v1/${resource}`);
        const rows = (res.body as Record<string, Array<{ id: number | string }>>)[resource];
        idCache.set(key, Array.isArray(rows) ? rows.find(pick)?.id : undefined);
      }
      return idCache.get(key);
    };
    const failures: string[] = [];
    const answeredOk = new Set<string>();
    let checked = 0;
    for (const { url, method, op } of operations()) {
      if (method !== "get" || NOT_CALLED.has(url) || url.startsWith("/api/docs")) continue;
      let target = url;
      const placeholder = /\{(id|name)\}/.exec(url)?.[0];
      if (placeholder) {
        const resource = ID_OF.find(([pattern]) => pattern.test(url))?.[1] ?? url.split("/")[3].replace(/\.csv$/, "");
        const id = await idFor(resource, PICK[url]);
        if (id === undefined) {
          failures.push(`${url}: no ${resource} in the demo data to read`);
          continue;
        }
        target = url.replace(placeholder, String(id));
      }
      const query = (op.parameters ?? [])
        .filter((p) => p.in === "query" && p.required && !QUERY_FOR[url]?.includes(`${p.name}=`))
        .map((p) => `${encodeURIComponent(p.name)}=${encodeURIComponent(REQUIRED_QUERY[p.name] ?? "1")}`);
      let extra = QUERY_FOR[url] ?? "";
      for (const [placeholder, resource] of extra.matchAll(/\{(\w+)\}/g))
        extra = extra.replace(placeholder, String(await idFor(resource)));
      if (extra) query.push(extra);
      if (query.length) target += `?${query.join("&")}`;
      for (const role of ROLES) {
        const res = await t.app.inject({
          method: "GET",
          url: target,
          headers: { authorization: `Bearer ${clients[role].token}` },
        });
        const documented = op.responses?.[String(res.statusCode)];
        if (!documented) {
          failures.push(`${role} GET ${target}: ${res.statusCode} is not documented`);
          continue;
        }
        if (res.statusCode >= 200 && res.statusCode < 300) answeredOk.add(url);
        const type = String(res.headers["content-type"] ?? "").split(";")[0];
        const media = documented.content?.[type];
        if (!media) {
          failures.push(
            `${role} GET ${target}: ${res.statusCode} answered ${type}, documented ${Object.keys(documented.content ?? {})}`,
          );
          continue;
        }
        if (type !== "application/json") continue;
        const validate = ajv.compile(media.schema ?? {});
        checked++;
        if (!validate(res.json())) {
          failures.push(`${role} GET ${target} ${res.statusCode}: ${ajv.errorsText(validate.errors)}`);
        }
      }
    }
    expect(failures).toEqual([]);
    // Every route was seen to work for someone, so the answers validated are its real ones, not refusals.
    const getRoutes = operations().filter(
      ({ url, method }) => method === "get" && !NOT_CALLED.has(url) && !url.startsWith("/api/docs"),
    );
    expect(getRoutes.filter(({ url }) => !answeredOk.has(url)).map(({ url }) => url)).toEqual([]);
    expect(checked).toBeGreaterThan(150);
  }, 300_000);
});
