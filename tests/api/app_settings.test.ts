import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { app_settings } from "../../server/db/schema";
import { buildClient, buildWorkspace } from "../support/factories";
import { type AppWithRoles, buildAppWithRoles } from "../support/roles";

let { t, admin, operator, finance } = {} as AppWithRoles;

beforeAll(async () => {
  ({ t, admin, operator, finance } = await buildAppWithRoles());
});
afterAll(() => t.close());

describe("app_settings", () => {
  it("answers row 1, creating it with nulls when it is missing", async () => {
    await t.app.db.db.delete(app_settings);
    const res = await operator.get("/api/v1/app_settings/1");
    expect(res.status).toBe(200);
    expect(res.body.app_setting).toMatchObject({
      id: 1,
      default_customer_id: null,
      default_customer_name: null,
      default_workspace_id: null,
      support_excluded_customer_id: null,
      support_excluded_customer_name: null,
    });
    expect((await t.app.db.db.select().from(app_settings)).length).toBe(1);
    expect((await admin.get("/api/v1/app_settings/2")).status).toBe(404);
  });

  it("lets Administrador set the default and excluded customers, answered with their names", async () => {
    const customer = await buildClient(t.app.db.db, { name: "Mi Empresa Interna" });
    const excluded = await buildClient(t.app.db.db, { name: "Cliente Excluido" });
    const workspace = await buildWorkspace(t.app.db.db, "Oficina Central");
    const res = await admin.put("/api/v1/app_settings/1", {
      app_setting: {
        default_customer_id: customer.id,
        default_workspace_id: String(workspace.id),
        support_excluded_customer_id: excluded.id,
      },
    });
    expect(res.status).toBe(200);
    expect(res.body.app_setting).toMatchObject({
      id: 1,
      default_customer_id: customer.id,
      default_customer_name: "Mi Empresa Interna",
      default_workspace_id: workspace.id,
      default_workspace_name: "Oficina Central",
      support_excluded_customer_id: excluded.id,
      support_excluded_customer_name: "Cliente Excluido",
    });
    const read = await finance.get("/api/v1/app_settings/1.json");
    expect(read.body.app_setting.default_customer_name).toBe("Mi Empresa Interna");
    const list = await operator.get("/api/v1/app_settings");
    expect(list.body.app_settings).toHaveLength(1);
    const cleared = await admin.put("/api/v1/app_settings/1", { app_setting: { support_excluded_customer_id: "" } });
    expect(cleared.body.app_setting).toMatchObject({ support_excluded_customer_id: null, default_customer_id: customer.id });
  });

  it("answers 422 for unknown references and 403/404 for what it does not offer", async () => {
    const bad = await admin.put("/api/v1/app_settings/1", { app_setting: { default_customer_id: 999999 } });
    expect(bad.status).toBe(422);
    expect(bad.body.errors.default_customer_id).toEqual(["no existe"]);
    const notNumber = await admin.put("/api/v1/app_settings/1", { app_setting: { default_workspace_id: "abc" } });
    expect(notNumber.status).toBe(422);
    expect(notNumber.body.errors.default_workspace_id).toEqual(["no existe"]);
    for (const api of [operator, finance]) {
      expect((await api.put("/api/v1/app_settings/1", { app_setting: { default_customer_id: null } })).status).toBe(403);
    }
    expect((await admin.post("/api/v1/app_settings", { app_setting: {} })).status).toBe(404);
    expect((await admin.delete("/api/v1/app_settings/1")).status).toBe(404);
  });

  it("documents the catalog routes in the OpenAPI description", async () => {
    const res = await t.app.inject({ method: "GET", url: "/api/docs/json", headers: { authorization: `Bearer ${admin.token}` } });
    expect(res.statusCode).toBe(200);
    const paths = Object.keys(res.json().paths);
    for (const path of [
      "/api/v1/app_settings/{id}",
      "/api/v1/holydays/import_holydays",
      "/api/v1/holydays/holydays_by_date",
      "/api/v1/app_licenses/{id}/download_license_script",
      "/api/v1/estimated_work_hours",
      "/api/v1/products",
      "/api/v1/prospects",
      "/api/v1/client_groups",
      "/api/v1/project_types",
      "/api/v1/activity_type_catalogs",
    ]) {
      expect(paths).toContain(path);
    }
  });
});
