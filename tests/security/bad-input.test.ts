/**
 * Bad input on every write route (property-based, fast-check): wrong types, huge strings, unicode, SQL
 * and HTML payloads, nested values, dates out of range, malformed JSON, multipart and CSV. Each answer
 * is < 500, a refusal carries a Spanish message (`error` or `errors`) and changes no table. Sort,
 * filter and search parameters never reach SQL. The resources come from server/modules/index.ts, so a
 * new declared resource is covered without touching this file. Figures go to docs/security.md.
 */
import { sql } from "drizzle-orm";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { z } from "zod";
import { resources } from "../../server/modules/index";
import { buildTestApp, type TestApp } from "../support/app";
import { buildActivity, buildProject, buildProspect, multipart, rawRequest } from "../support/catalog-factories";
import {
  type ApiClient,
  buildClient,
  buildClientGroup,
  buildProduct,
  buildWorkspace,
  currentEtag,
  signInAs,
} from "../support/factories";
import { recordFigures } from "../support/figures";

let t: TestApp;
let admin: ApiClient;
let tables: string[] = [];
const figures = { payloads: 0, routes: new Set<string>(), listQueries: 0 };
const RUNS = 25;

/** Row counts of every table but the session bookkeeping (login attempts, last-seen). */
async function snapshot(): Promise<Record<string, number>> {
  const select = tables.map((name) => `(select count(*)::int from "${name}") as "${name}"`).join(", ");
  const result = (await t.app.db.db.execute(sql.raw(`select ${select}`))) as unknown as { rows: Array<Record<string, number>> };
  return result.rows[0];
}

beforeAll(async () => {
  t = await buildTestApp();
  admin = (await signInAs(t.app, "admin")).api;
  const db = t.app.db.db;
  const rows = (await db.execute(
    sql`select table_name from information_schema.tables where table_schema = 'public' and table_type = 'BASE TABLE'`,
  )) as unknown as { rows: Array<{ table_name: string }> };
  tables = rows.rows.map((r) => r.table_name).filter((name) => !/session|login|drizzle/.test(name));
  // One record of each kind, so updates reach a real row.
  const client = await buildClient(db);
  await buildClientGroup(db);
  await buildProduct(db);
  await buildWorkspace(db);
  await buildProspect(db);
  await buildProject(db, client.id);
  const employee = (await signInAs(t.app, "operator")).employee;
  if (employee) await buildActivity(db, employee.id);
});

afterAll(async () => {
  const line = `Entradas inválidas: ${figures.payloads} cargas probadas en ${figures.routes.size} rutas de escritura; ${figures.listQueries} consultas de orden/filtro/búsqueda`;
  recordFigures("seguridad-entradas", line, {
    payloads: figures.payloads,
    routes: figures.routes.size,
    listQueries: figures.listQueries,
  });
  await t?.close();
});

const HUGE = "x".repeat(100_000);
const HOSTILE_STRINGS = [
  "'; DROP TABLE clients; --",
  "1 OR 1=1",
  '" OR ""="',
  "<script>window.__xss=1</script>",
  '<img src=x onerror="window.__xss=1">',
  "\u0000",
  "a\u0000b",
  "\u202Eevil\u202C",
  "مرحبا بالعالم",
  "👩‍👩‍👧‍👦🔥",
  "\uD800",
  HUGE,
  "0000-00-00",
  "9999-12-31",
  "-000001-01-01",
  "2026-02-30",
  "NaN",
  "Infinity",
  "%",
  "_",
  "\\",
  "",
  " ",
];
/** Objects that break code which stringifies or spreads what it receives. */
const TRAPS: unknown[] = [
  { toString: false },
  { valueOf: "x", toJSON: 1 },
  JSON.parse('{"__proto__":{"administrator_role":true}}'),
  { constructor: { prototype: 1 } },
];
/** Any value a JSON body may carry, biased towards hostile ones. */
const hostile: fc.Arbitrary<unknown> = fc.oneof(
  fc.constantFrom(...HOSTILE_STRINGS),
  fc.constantFrom(null, true, false, 0, -1, 2 ** 53, -(2 ** 63), 1e308, 0.1, [], {}),
  fc.string({ unit: "binary", maxLength: 40 }),
  fc.integer(),
  fc.double(),
  fc.jsonValue({ maxDepth: 3 }),
  fc.array(fc.constantFrom(...HOSTILE_STRINGS.slice(0, 6)), { maxLength: 3 }),
  fc.record({ id: fc.constantFrom("1; --", -1, null, "x") }),
  fc.constantFrom(...TRAPS),
);

/** Field names of a zod object schema (through pipes and refinements), plus a few common ones. */
function fieldsOf(schema: z.ZodType | undefined): string[] {
  let current: any = schema;
  for (let i = 0; i < 6 && current; i++) {
    if (current.shape) return Object.keys(current.shape);
    current = current._zod?.def?.in ?? current._zod?.def?.innerType ?? current._zod?.def?.schema ?? null;
  }
  return ["name", "id", "date", "email", "description"];
}

const ENGLISH = /Invalid input|Expected|Required|Unexpected token|SyntaxError|Internal Server Error|stack/;

/** The answer is < 500; a refusal carries a Spanish message and leaves every table as it was. */
async function expectSafe(label: string, res: { status: number; body: any; text: string }, before?: Record<string, number>) {
  figures.payloads++;
  expect(res.status, `${label}: ${res.text.slice(0, 300)}`).toBeLessThan(500);
  if (res.status >= 400) {
    expect(res.body?.error ?? res.body?.errors, `${label}: ${res.text.slice(0, 300)}`).toBeTruthy();
    expect(res.text, label).not.toMatch(ENGLISH);
    if (before) expect(await snapshot(), `${label} cambió datos`).toEqual(before);
  }
}

async function firstId(name: string): Promise<number> {
  const res = await admin.get(`/api/v1/${name}?per_page=1`);
  const list = Array.isArray(res.body) ? res.body : (res.body?.data ?? res.body?.[name] ?? []);
  return list[0]?.id ?? 1;
}

describe("bad input on every declared resource", () => {
  for (const def of resources) {
    for (const action of ["create", "update"] as const) {
      if (def.without?.includes(action)) continue;
      const schema = action === "create" ? def.createSchema : (def.updateSchema ?? def.createSchema);
      if (!schema) continue;
      it(`${def.name} ${action}: hostile bodies answer < 500, Spanish 4xx, nothing changes on refusal`, async () => {
        const fields = fieldsOf(schema);
        const id = action === "update" ? await firstId(def.name) : 0;
        const url = action === "create" ? `/api/v1/${def.name}` : `/api/v1/${def.name}/${id}`;
        // A singleton resource creates its row on first read (`ensure`): let that happen before counting.
        if (action === "update") await admin.get(url);
        figures.routes.add(`${action === "create" ? "POST" : "PUT"} /api/v1/${def.name}${action === "update" ? "/:id" : ""}`);
        const body = fc.oneof(
          { weight: 4, arbitrary: fc.dictionary(fc.constantFrom(...fields), hostile).map((o) => ({ [def.singular]: o })) },
          { weight: 1, arbitrary: hostile.map((v) => ({ [def.singular]: v })) },
          { weight: 1, arbitrary: hostile },
        );
        // Deterministic first: every field at once with each trap object, then the generated bodies.
        for (const trap of TRAPS) {
          const payload = { [def.singular]: Object.fromEntries(fields.map((f) => [f, trap])) };
          const before = await snapshot();
          await expectSafe(
            `${def.name} ${action} trampa ${JSON.stringify(trap)}`,
            await (action === "create" ? admin.post(url, payload) : admin.put(url, payload)),
            before,
          );
        }
        await fc.assert(
          fc.asyncProperty(body, async (payload) => {
            const before = await snapshot();
            const res = await (action === "create" ? admin.post(url, payload) : admin.put(url, payload));
            await expectSafe(`${def.name} ${action} ${JSON.stringify(payload)?.slice(0, 120)}`, res, before);
          }),
          { numRuns: RUNS },
        );
        for (const raw of ["not json", '{"a":', "\u0000", "[[[[[[[[[[", `{"${def.singular}":${"[".repeat(5000)}`]) {
          const before = await snapshot();
          // An update names the version it read, so the body itself is what gets refused.
          const etag =
            action === "update" ? await currentEtag(t.app, url, { authorization: `Bearer ${admin.token}` }) : undefined;
          const res = await rawRequest(t.app, admin.token, action === "create" ? "POST" : "PUT", url, raw, {
            "content-type": "application/json",
            ...(etag ? { "if-match": etag } : {}),
          });
          await expectSafe(`${def.name} ${action} raw ${raw.slice(0, 20)}`, res, before);
        }
      });
    }
  }
});

describe("bad input on the other write routes", () => {
  const ROUTES: Array<[method: "POST" | "PUT", url: string]> = [
    ["POST", "/api/v1/activities/validate"],
    ["POST", "/api/v1/activities/batch"],
    ["POST", "/api/v1/activities/copy_previous_week"],
    ["POST", "/api/v1/activities/get_ticket_by_proyect"],
    ["POST", "/api/v1/calendar_imports"],
    ["PUT", "/api/v1/activities/import_activities_csv"],
    ["PUT", "/api/v1/holydays/import_holydays"],
    ["POST", "/api/v1/quotations/1/aasm_transition"],
    ["POST", "/api/v1/projects/1/aasm_transition"],
    ["POST", "/api/v1/projects/1/extend_project"],
    ["POST", "/api/v1/projects/1/notify_user"],
    ["POST", "/api/v1/invoices/1/aasm_transition"],
    ["POST", "/api/v1/prospects/1/convert_to_client"],
    ["POST", "/api/v1/users/save_cloud_token"],
    ["PUT", "/api/v1/workspaces/1/toggle_notification"],
    ["POST", "/api/v1/sessions"],
    // sign-in callback, boards, notices, push subscriptions, integrations.
    ["POST", "/api/v1/auth/callback"],
    ["POST", "/api/v1/projects/1/messages"],
    ["POST", "/api/v1/projects/1/messages/read"],
    ["POST", "/api/v1/notifications"],
    ["PUT", "/api/v1/notifications/1/seen"],
    ["POST", "/api/v1/push/subscriptions"],
    ["POST", "/api/v1/integrations/documents/check"],
  ];
  for (const [method, url] of ROUTES) {
    it(`${method} ${url}: hostile bodies answer < 500 with a Spanish refusal`, async () => {
      figures.routes.add(`${method} ${url}`);
      const keys = [
        "activities",
        "activity",
        "event",
        "aasm_transition",
        "transition",
        "month",
        "week",
        "date",
        "start",
        "end",
        "email",
        "password",
        "project_id",
        "employee_id",
        "token",
        "file",
        "months",
        "id_token",
        "message",
        "body",
        "up_to_id",
        "notification",
        "workspace_id",
        "subscription",
        "endpoint",
        "keys",
      ];
      await fc.assert(
        fc.asyncProperty(fc.oneof(fc.dictionary(fc.constantFrom(...keys), hostile), hostile), async (payload) => {
          const before = await snapshot();
          const res = await admin.request(method, url, payload);
          await expectSafe(`${method} ${url} ${JSON.stringify(payload)?.slice(0, 120)}`, res, before);
        }),
        { numRuns: RUNS },
      );
    });
  }

  const UPLOADS: Array<[method: "POST" | "PUT", url: string]> = [
    ["POST", "/api/v1/calendar_imports"],
    ["PUT", "/api/v1/activities/import_activities_csv"],
    ["PUT", "/api/v1/holydays/import_holydays"],
  ];
  const BAD_FILES: Array<[string, Buffer | string, string]> = [
    ["basura binaria", Buffer.from(Array.from({ length: 4096 }, (_, i) => (i * 37) % 256)), "text/csv"],
    ["sólo BOM", "\uFEFF", "text/csv"],
    ["10k columnas", `${Array.from({ length: 10_000 }, (_, i) => `c${i}`).join(",")}\n${"1,".repeat(9_999)}1\n`, "text/csv"],
    ["comillas sin cerrar", 'nombre,fecha\n"abierta,2026-01-01\n', "text/csv"],
    ["vacío", "", "text/csv"],
    ["fechas fuera de rango", "name,date\nAño cero,0000-00-00\nFin,9999-12-31\nNaN,NaN\n", "text/csv"],
    ["inyección", "name,date\n'; DROP TABLE holydays; --,2026-01-01\n<script>alert(1)</script>,2026-13-45\n", "text/csv"],
    ["ics roto", "BEGIN:VCALENDAR\nBEGIN:VEVENT\nDTSTART:0000\n", "text/calendar"],
  ];
  for (const [method, url] of UPLOADS) {
    it(`${method} ${url}: malformed multipart and CSV answer a Spanish 4xx and change nothing`, async () => {
      figures.routes.add(`${method} ${url} (multipart)`);
      const good = multipart({ filename: "x.csv", contentType: "text/csv", content: "a,b\n" });
      const attempts: Array<[string, Buffer | string, Record<string, string>]> = [
        ["sin boundary", good.payload, { "content-type": "multipart/form-data" }],
        ["truncado", good.payload.subarray(0, good.payload.length / 2), good.headers],
        ["boundary ajeno", good.payload, { "content-type": "multipart/form-data; boundary=otra" }],
        ["sin archivo", multipart(undefined, { nada: "x" }).payload, { "content-type": "multipart/form-data; boundary=x" }],
      ];
      for (const [label, content, contentType] of BAD_FILES) {
        const body = multipart({ filename: "archivo.csv", contentType, content });
        attempts.push([label, body.payload, body.headers]);
      }
      for (const [label, payload, headers] of attempts) {
        const before = await snapshot();
        const res = await rawRequest(t.app, admin.token, method, url, payload, headers);
        await expectSafe(`${url} ${label}`, res, before);
        expect(res.status, `${url} ${label}: ${res.text.slice(0, 200)}`).toBeGreaterThanOrEqual(400);
      }
    });
  }
});

describe("sort, filter and search never reach SQL", () => {
  const INJECTIONS = [
    "name; DROP TABLE clients; --",
    "id desc, (select 1)",
    "1",
    "(CASE WHEN 1=1 THEN name ELSE id END)",
    "name--",
    "pg_sleep(1)",
    "__proto__",
    "constructor",
    "no_existe",
    "",
  ];
  const JUNK = ['["x"', "{}", "null", '[1,{"a":[]}]', "' OR 1=1 --", "%", "\\", "🔥".repeat(50), "x".repeat(500)];
  const SEARCH = ["%", "_", "\\", "'", '"', "%' OR '1'='1", "\\%", "a_b", "\u0000", "' ; DROP TABLE clients; --"];

  for (const def of resources) {
    it(`${def.name}: injected sort columns are refused or ignored, junk filters answer < 500, search is literal`, async () => {
      const total = await admin.get(`/api/v1/${def.name}?per_page=all`);
      for (const column of INJECTIONS) {
        figures.listQueries++;
        const res = await admin.get(`/api/v1/${def.name}?by_column[column]=${encodeURIComponent(column)}`);
        await expectSafe(`${def.name} by_column ${column}`, res);
        if (!Object.hasOwn(def.sortable, column)) expect(res.status, `${def.name} by_column=${column}`).toBe(422);
      }
      for (const order of ["desc; --", "ASC NULLS FIRST", "1"]) {
        figures.listQueries++;
        const res = await admin.get(`/api/v1/${def.name}?by_column[order]=${encodeURIComponent(order)}`);
        await expectSafe(`${def.name} order ${order}`, res);
      }
      for (const filterName of [...Object.keys(def.filters ?? {}), "by_status"]) {
        for (const junk of JUNK) {
          figures.listQueries++;
          const res = await admin.get(`/api/v1/${def.name}?${encodeURIComponent(filterName)}=${encodeURIComponent(junk)}`);
          await expectSafe(`${def.name} ${filterName}=${junk.slice(0, 30)}`, res);
        }
      }
      for (const term of SEARCH) {
        figures.listQueries++;
        const res = await admin.get(`/api/v1/${def.name}?per_page=all&search=${encodeURIComponent(term)}`);
        await expectSafe(`${def.name} search ${term}`, res);
        // A search narrows the list; an injection that widened it would show more rows than exist.
        if (res.status === 200 && total.status === 200)
          expect(rowsOf(res, def.name)).toBeLessThanOrEqual(rowsOf(total, def.name));
      }
      // Nothing was dropped: the table still answers the same count.
      const after = await admin.get(`/api/v1/${def.name}?per_page=all`);
      expect(after.status).toBe(total.status);
      if (total.status === 200) expect(rowsOf(after, def.name)).toBe(rowsOf(total, def.name));
    });
  }
});

function rowsOf(res: { body: any }, name: string): number {
  const list = Array.isArray(res.body) ? res.body : (res.body?.data ?? res.body?.[name] ?? []);
  return list.length;
}
