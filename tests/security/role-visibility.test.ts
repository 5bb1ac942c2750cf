/**
 * What each role may see beyond its own rows (permission matrix, src/core/permissions.ts):
 * - project_invoicing × show (Administrador, Finanzas): a project's invoiced percentage, invoicing action and
 *   its audit entries, and the ignore_proyect_invoiced filter. An Operador gets projects without them.
 * - employee_work × list (Administrador, Finanzas all; Operador own): the projects' involved_projects_by_employee
 *   filter, which tells where an employee logged time.
 * - api_docs × show (Administrador): /api/docs, its JSON and YAML; 401 without a session.
 */
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { projects } from "../../server/db/schema";
import { INVOICING_FIELDS } from "../../server/modules/projects/resource";
import { messages } from "../../src/core/messages";
import { grantFor } from "../../src/core/permissions";
import { buildTestApp, type TestApp } from "../support/app";
import { buildActivity, buildProject } from "../support/catalog-factories";
import { type ApiClient, buildClient, type RoleName, signInAs } from "../support/factories";
import { recordFigures } from "../support/figures";

const ROLES: RoleName[] = ["admin", "finance", "operator"];
let t: TestApp;
const api = {} as Record<RoleName, ApiClient>;
const employeeOf = {} as Record<RoleName, number>;
const userOf = {} as Record<RoleName, { administrator_role?: boolean; operator_role?: boolean; finance_role?: boolean }>;
let projectId: number;
let otherEmployee: number;
let checks = 0;

beforeAll(async () => {
  t = await buildTestApp();
  for (const role of ROLES) {
    const signed = await signInAs(t.app, role);
    api[role] = signed.api;
    employeeOf[role] = signed.employee!.id;
    userOf[role] = signed.user;
  }
  const other = await signInAs(t.app, "operator");
  otherEmployee = other.employee!.id;
  const db = t.app.db.db;
  const client = await buildClient(db);
  const project = await buildProject(db, client.id);
  projectId = project.id;
  // The other employee logged time on it; the project is half invoiced and marked so.
  await buildActivity(db, otherEmployee, { project_id: projectId });
  const invoice = await api.admin.post("/api/v1/invoices", {
    invoice: { project_id: projectId, percentage_value: 50, date_of_invoice: "2026-03-02" },
  });
  expect(invoice.status, invoice.text).toBe(201);
  const marked = await api.admin.post(`/api/v1/projects/${projectId}/partially_invoiced`, { audit_comment: "Primera factura" });
  expect(marked.status, marked.text).toBeLessThan(300);
  expect((await db.select().from(projects).where(eq(projects.id, projectId)))[0].invoice_action).toBe("partially_invoiced");
});
afterAll(async () => {
  recordFigures(
    "seguridad-visibilidad",
    `Visibilidad por rol: ${checks} comprobaciones (facturación de proyectos, trabajo de otros, /api/docs)`,
    {
      checks,
    },
  );
  await t?.close();
});

describe("a project's invoicing", () => {
  it("the matrix: Administrador and Finanzas see it, Operador does not", () => {
    expect(grantFor({ administrator_role: true }, "project_invoicing", "show")).toBe("all");
    expect(grantFor({ finance_role: true }, "project_invoicing", "show")).toBe("all");
    expect(grantFor({ operator_role: true }, "project_invoicing", "show")).toBeNull();
    expect(ROLES.filter((role) => grantFor(userOf[role], "project_invoicing", "show")).sort()).toEqual(["admin", "finance"]);
  });

  for (const role of ROLES) {
    it(`${role}: list, record and audit trail ${role === "operator" ? "without" : "with"} the billing`, async () => {
      const sees = role !== "operator";
      const list = await api[role].get(`/api/v1/projects?per_page=all&client_id=0`);
      const all = await api[role].get("/api/v1/projects?per_page=all");
      expect(all.status).toBe(200);
      const row = (all.body.projects as Array<Record<string, unknown>>).find((p) => p.id === projectId);
      expect(row).toBeDefined();
      const record = (await api[role].get(`/api/v1/projects/${projectId}`)).body.project as Record<string, unknown>;
      for (const shown of [row!, record]) {
        for (const field of INVOICING_FIELDS) {
          checks++;
          expect(field in shown, `${role} ${field}`).toBe(sees);
        }
      }
      if (sees) {
        expect(record.invoiced_percentage).toBe(50);
        expect(record.invoice_action).toBe("partially_invoiced");
      }
      const trail = (await api[role].get(`/api/v1/projects/${projectId}/audit_logs`)).body.audit_logs as Array<{ field: string }>;
      checks++;
      expect(trail.some((r) => r.field === "invoice_action")).toBe(sees);
      const filtered = await api[role].get("/api/v1/projects?ignore_proyect_invoiced=true");
      checks++;
      if (sees) expect(filtered.status).toBe(200);
      else {
        expect(filtered.status).toBe(403);
        expect(filtered.body.error).toBe(messages.forbidden);
      }
      expect(list.status).toBeLessThan(500);
    });
  }
});

describe("other people's work through the project filters", () => {
  it("the matrix: Administrador and Finanzas anyone's, Operador their own", () => {
    expect(grantFor({ administrator_role: true }, "employee_work", "list")).toBe("all");
    expect(grantFor({ finance_role: true }, "employee_work", "list")).toBe("all");
    expect(grantFor({ operator_role: true }, "employee_work", "list")).toBe("own");
  });

  it("involved_projects_by_employee: another employee's projects only for Administrador and Finanzas", async () => {
    for (const role of ROLES) {
      const res = await api[role].get(`/api/v1/projects?involved_projects_by_employee=${otherEmployee}`);
      checks++;
      if (role === "operator") {
        expect(res.status, res.text).toBe(403);
        expect(res.body.error).toBe(messages.forbidden);
      } else {
        expect(res.status).toBe(200);
        expect(res.body.projects.map((p: { id: number }) => p.id)).toContain(projectId);
      }
      // One's own employee: allowed to everyone.
      const own = await api[role].get(`/api/v1/projects?involved_projects_by_employee=${employeeOf[role]}`);
      checks++;
      expect(own.status).toBe(200);
    }
  });
});

describe("/api/docs", () => {
  const PATHS = ["/api/docs", "/api/docs/", "/api/docs/json", "/api/docs/yaml", "/api/docs/static/index.html"];

  it("without a session: 401 in Spanish, for the page, the JSON, the YAML and the assets", async () => {
    for (const url of PATHS) {
      const res = await t.app.inject({ method: "GET", url });
      checks++;
      expect(res.statusCode, url).toBe(401);
      expect(res.json().error).toBe(messages.unauthenticated);
    }
  });

  it("Operador and Finanzas: 403; Administrador: the documentation", async () => {
    for (const role of ROLES) {
      for (const url of PATHS) {
        const res = await t.app.inject({ method: "GET", url, headers: { authorization: `Bearer ${api[role].token}` } });
        checks++;
        if (role === "admin") expect(res.statusCode, url).toBeLessThan(400);
        else {
          expect(res.statusCode, `${role} ${url}`).toBe(403);
          expect(res.json().error).toBe(messages.forbidden);
        }
      }
    }
    const json = await t.app.inject({
      method: "GET",
      url: "/api/docs/json",
      headers: { authorization: `Bearer ${api.admin.token}` },
    });
    expect(Object.keys(json.json().paths).some((p) => p.startsWith("/api/v1/clients"))).toBe(true);
  });
});
