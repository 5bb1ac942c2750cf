import { describe, expect, it } from "vitest";
import { canAccess, canOnProject, grantFor, leadsProject } from "../../src/core/permissions";

const admin = { administrator_role: true };
const operator = { operator_role: true };
const finance = { finance_role: true };

/** The matrix as a table (docs/decisions/002-permission-matrix.md). */
const table: Array<[string, Parameters<typeof grantFor>[2], "all" | "own" | null, "all" | "own" | null, "all" | "own" | null]> = [
  // resource, action, admin, operator, finance
  ["clients", "list", "all", "all", "all"],
  ["clients", "create", "all", null, null],
  ["clients", "delete", "all", null, null],
  ["client_groups", "list", "all", null, null],
  ["users", "list", "all", null, null],
  ["users", "show", "all", "own", "own"],
  ["users", "update", "all", "own", "own"],
  ["activities", "list", "all", "own", "own"],
  ["activities", "freeze_others", "all", null, null],
  ["invoices", "create", "all", null, "all"],
  ["invoices", "list", "all", null, "all"],
  ["projects", "list", "all", "all", "all"],
  ["projects", "transition", "all", null, null],
  ["projects", "invoice", "all", null, "all"],
  ["quotations", "list", "all", null, "all"],
  ["quotations", "create", "all", null, null],
  ["quotations", "show", "all", null, "all"],
  ["quotations", "update", "all", null, null],
  ["quotations", "delete", "all", null, null],
  ["quotations", "transition", "all", null, null],
  ["prospects", "transition", "all", null, null],
  ["projects", "update", "all", null, null],
  ["employees", "list", "all", "own", "all"],
  ["app_licenses", "list", "all", null, "all"],
  ["reports", "export", "all", "own", "all"],
  ["drive", "show", "all", "all", "all"],
  ["calendar_imports", "import", "own", "own", "own"],
  ["calendar_imports", "create", null, null, null],
  ["drive", "create", "all", null, null],
  // «Administración» folders (decision 034): contracts, for administrators and Finanzas
  ["drive_administration", "list", "all", null, "all"],
  ["drive_administration", "show", "all", null, "all"],
  ["drive_administration", "create", "all", null, null],
  // what a role sees beyond its rows (tests/security/role-visibility.test.ts)
  ["project_invoicing", "show", "all", null, "all"],
  ["employee_work", "list", "all", "own", "all"],
  ["api_docs", "show", "all", null, null],
  // scheduled e-mail
  ["outbox", "list", "all", null, null],
  ["outbox", "show", "all", null, null],
  ["jobs", "list", "all", null, null],
  ["jobs", "create", "all", null, null],
  ["backups", "list", "all", null, null],
  ["backups", "show", "all", null, null],
  ["backups", "create", "all", null, null],
  ["integrations", "list", "all", null, null],
  ["integrations", "show", "all", null, null],
  ["dashboards", "show", "all", "own", "own"],
  ["dashboards", "list", "all", null, null],
  // capacity and utilisation: administrators only
  ["capacity", "list", "all", null, null],
  ["capacity", "export", "all", null, null],
  // the bell and notices
  ["notifications", "list", "all", "all", "all"],
  ["notifications", "update", "own", "own", "own"],
  ["notifications", "create", "all", null, null],
  // a project leader (decision 029): an Operador reads the estimated hours of the projects they lead
  ["estimated_work_hours", "list", "all", "own", "all"],
  ["estimated_work_hours", "show", "all", "own", "all"],
  ["estimated_work_hours", "create", "all", null, null],
  ["estimated_work_hours", "delete", "all", null, null],
];

describe("permission matrix", () => {
  it.each(table)("%s × %s", (resource, action, a, o, f) => {
    expect(grantFor(admin, resource, action)).toBe(a);
    expect(grantFor(operator, resource, action)).toBe(o);
    expect(grantFor(finance, resource, action)).toBe(f);
  });

  it("gives the widest grant of several roles, and nothing to nobody", () => {
    expect(grantFor({ operator_role: true, finance_role: true }, "invoices", "list")).toBe("all");
    expect(grantFor({ operator_role: true, administrator_role: true }, "activities", "list")).toBe("all");
    expect(canAccess({ user: null, resource: "clients", action: "list" })).toBe(false);
    expect(canAccess({ user: {}, resource: "clients", action: "list" })).toBe(false);
    expect(canAccess({ user: admin, resource: "no_such_thing", action: "list" })).toBe(false);
  });

  it("a project leader is the project's PM or responsible person, through their employee", () => {
    const leader = { operator_role: true, employee: { id: 7 } };
    expect(leadsProject(leader, { pm_id: 7, rape_id: 3 })).toBe(true);
    expect(leadsProject(leader, { pm_id: null, rape_id: 7 })).toBe(true);
    expect(leadsProject(leader, { pm_id: 3, rape_id: 4 })).toBe(false);
    expect(leadsProject({ operator_role: true, employee: null }, { pm_id: null, rape_id: null })).toBe(false);
    expect(canOnProject(leader, "estimated_work_hours", "list", { pm_id: 7 })).toBe(true);
    expect(canOnProject(leader, "estimated_work_hours", "list", { pm_id: 3 })).toBe(false);
    expect(canOnProject(leader, "estimated_work_hours", "create", { pm_id: 7 })).toBe(false);
    expect(canOnProject(leader, "invoices", "list", { pm_id: 7 })).toBe(false);
    expect(canOnProject({ finance_role: true }, "estimated_work_hours", "list", { pm_id: 3 })).toBe(true);
  });
});
