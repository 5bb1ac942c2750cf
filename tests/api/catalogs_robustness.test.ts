/** Odd input on every catalog call answers 4xx with a Spanish message, never 500. */

import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { messages } from "../../src/core/messages";
import { buildTestApp, type TestApp } from "../support/app";
import { multipart, rawRequest } from "../support/catalog-factories";
import { type ApiClient, signInAs } from "../support/factories";

let t: TestApp;
let admin: ApiClient;

beforeAll(async () => {
  t = await buildTestApp();
  admin = (await signInAs(t.app, "admin")).api;
});
afterAll(() => t.close());

const RESOURCES: Array<[string, string]> = [
  ["prospects", "prospect"],
  ["client_groups", "client_group"],
  ["holydays", "holyday"],
  ["products", "product"],
  ["app_licenses", "app_license"],
  ["estimated_work_hours", "estimated_work_hour"],
  ["project_types", "project_type"],
  ["activity_type_catalogs", "activity_type_catalog"],
];

const ODD_VALUES: unknown[] = [
  null,
  "",
  " ",
  0,
  -1,
  1.5,
  2 ** 40,
  "null",
  "abc",
  [],
  {},
  [1, 2],
  true,
  "x".repeat(5000),
  "\u0000",
  "2026-02-30",
  "'; drop table x; --",
];
const FIELDS = [
  "name",
  "date",
  "code",
  "color_tag",
  "product_code",
  "employee_id",
  "brochure_url",
  "client_id",
  "product_catalog_id",
  "entity_rfc",
  "num_licenses",
  "modules",
  "license_valid_until",
  "license_type",
  "estimated_hours",
  "project_id",
  "employee_position_id",
  "default_customer_id",
];

describe("catalogs robustness", () => {
  it("answers every odd body with a 4xx and a Spanish message", async () => {
    for (const [name, singular] of RESOURCES) {
      for (const value of ODD_VALUES) {
        const body = { [singular]: Object.fromEntries(FIELDS.map((f) => [f, value])) };
        const res = await admin.post(`/api/v1/${name}`, body);
        expect(res.status, `${name} ${JSON.stringify(value)?.slice(0, 40)}: ${res.text.slice(0, 200)}`).toBeLessThan(500);
        if (res.status >= 400) expect(res.text).not.toMatch(/Invalid input|Expected|Required/);
      }
      for (const raw of ["not json", "[1,2]", "null", '{"a":'])
        expect(
          (await rawRequest(t.app, admin.token, "POST", `/api/v1/${name}`, raw, { "content-type": "application/json" })).status,
        ).toBeLessThan(500);
    }
    const settings = await admin.put("/api/v1/app_settings/1", {
      app_setting: { default_customer_id: [1], default_workspace_id: {}, support_excluded_customer_id: -4 },
    });
    expect(settings.status).toBe(422);
  });

  it("says what is wrong with a page number: not a number, or out of range", async () => {
    const notNumber = await admin.get("/api/v1/clients?page=abc");
    expect(notNumber.status).toBe(422);
    expect(notNumber.body.errors.page).toEqual([messages.mustBeNumber]);
    for (const q of ["page=-1", "per_page=100000"]) {
      const res = await admin.get(`/api/v1/clients?${q}`);
      expect(res.status).toBe(422);
      const [field] = q.split("=");
      expect(res.body.errors[field], q).toHaveLength(1);
      expect(res.body.errors[field][0], q).not.toBe(messages.mustBeNumber);
      expect(res.body.errors[field][0], q).toMatch(/Demasiado (pequeño|grande)/);
    }
  });

  it("answers odd list parameters with a 4xx", async () => {
    const queries = [
      "page=0",
      "page=abc",
      "per_page=-1",
      "per_page=100000",
      "by_column[column]=name%20desc",
      "by_column[order]=sideways",
      `search=${"%25".repeat(50)}`,
      `search=${"x".repeat(300)}`,
      "by_client=%5B%22a%22%5D",
      "by_product=%7B%7D",
      "by_status=%5B1%5D",
      "by_license_type=%5B%5D",
      "selectable=maybe",
      `by_category=${encodeURIComponent(JSON.stringify(["x".repeat(200)]))}`,
      "project_id=-3",
    ];
    for (const [name] of RESOURCES) {
      for (const q of queries) {
        const res = await admin.get(`/api/v1/${name}?${q}`);
        expect(res.status, `${name}?${q}: ${res.text.slice(0, 200)}`).toBeLessThan(500);
      }
      expect((await admin.get(`/api/v1/${name}/99999999999`)).status).toBe(404);
      expect((await admin.put(`/api/v1/${name}/0`, {})).status).toBe(404);
      expect((await admin.delete(`/api/v1/${name}/-1`)).status).toBe(404);
    }
    for (const q of ["", "from=x&to=y", "from=2026-01-01&to=2026-13-01", "from[]=1&to[]=2", "from=2026-01-01&to=9999-12-31"]) {
      const res = await admin.get(`/api/v1/holydays/holydays_by_date?${q}`);
      expect(res.status, q).toBe(422);
    }
  });

  it("answers odd uploads with a 4xx", async () => {
    const cases = [
      multipart({ filename: "a.csv", contentType: "text/csv", content: Buffer.from([0xff, 0xfe, 0x00, 0x01, 0x02]) }),
      multipart({ filename: "a.csv", contentType: "text/csv", content: 'fecha,nombre\n"2026-01-01,sin cerrar\n' }),
      multipart({ filename: "a.csv", contentType: "text/csv", content: "fecha,nombre,extra\n2026-01-01,a,b\n" }),
      multipart({ filename: "a.csv", contentType: "text/csv", content: "fecha,nombre\n2026-01-01,a,b,c\n\u0000,\n" }),
      multipart({ filename: "", contentType: "text/csv", content: "fecha,nombre\n" }),
    ];
    for (const body of cases) {
      const res = await rawRequest(t.app, admin.token, "PUT", "/api/v1/holydays/import_holydays", body.payload, body.headers);
      expect(res.status, res.text).toBeGreaterThanOrEqual(400);
      expect(res.status, res.text).toBeLessThan(500);
    }
    const broken = await rawRequest(t.app, admin.token, "PUT", "/api/v1/holydays/import_holydays", "garbage", {
      "content-type": "multipart/form-data",
    });
    expect(broken.status).toBe(422);
  });
});
