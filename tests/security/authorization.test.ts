/**
 * Authorization: every route of /api/v1 (collected from the built app, so none escapes) is
 * called with no session and as Operador, Finanzas and Administrador, and must answer what the
 * permission matrix (src/core/permissions.ts) says. Then IDOR probes: an Operador on other people's
 * records (unchanged afterwards, never listed) and ids that do not exist or are junk. Figures in
 * docs/security.md.
 */
import { eq } from "drizzle-orm";
import Fastify from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  activities,
  activity_type_catalogs,
  app_licenses,
  assignments,
  estimated_work_hours,
  frozen_periods,
  holydays,
  notifications,
  project_types,
  users,
  week_reviews,
} from "../../server/db/schema";
import { registerAuth, requires } from "../../server/http/auth";
import { APP_SETTINGS_ID } from "../../server/modules/app_settings/resource";
import { messages } from "../../src/core/messages";
import { type Action, canAccess, type Role } from "../../src/core/permissions";
import { buildTestApp, type TestApp } from "../support/app";
import { buildActivity, buildPosition, buildProspect, buildQuotation } from "../support/catalog-factories";
import {
  type ApiClient,
  buildClient,
  buildClientGroup,
  buildProduct,
  buildUser,
  buildWorkspace,
  call,
  type RoleName,
  signIn,
  signInAs,
} from "../support/factories";
import { recordFigures } from "../support/figures";
import { buildInvoice, buildProject } from "../support/project-factories";

type Rule =
  | { public: true }
  | { signedIn: true }
  | { resource: string; action: Action }
  /** Narrower than the matrix row it reads (the handler refuses the other roles itself). */
  | { roles: Role[]; why: string };

const m = (resource: string, action: Action): Rule => ({ resource, action });
const crud = (name: string, without: Array<"create" | "update" | "delete"> = []) => {
  const rows: Record<string, Rule> = {
    [`GET /${name}`]: m(name, "list"),
    [`GET /${name}/:id`]: m(name, "show"),
    [`POST /${name}`]: m(name, "create"),
    [`PUT /${name}/:id`]: m(name, "update"),
    [`DELETE /${name}/:id`]: m(name, "delete"),
  };
  if (without.includes("create")) delete rows[`POST /${name}`];
  if (without.includes("update")) delete rows[`PUT /${name}/:id`];
  if (without.includes("delete")) delete rows[`DELETE /${name}/:id`];
  return rows;
};
const boardRule: Rule = {
  roles: ["admin"],
  why: "el tablero de un proyecto es de sus miembros (PM, responsable, asignados, autores) y de los administradores",
};
const adminOnlyFreeze: Rule = { roles: ["admin"], why: "solo un administrador abre semanas o cierra y abre meses" };

/** Every route of /api/v1 and who may call it. A new route without a row here fails the first test. */
const RULES: Record<string, Rule> = {
  "POST /sessions": { public: true },
  // Its own credential: a direct loopback connection with the key the server wrote in DATA_DIR (decision 032).
  "POST /local/create_admin": { public: true },
  "POST /local/backup": { public: true },
  "GET /sessions/current": { signedIn: true },
  "DELETE /sessions": { signedIn: true },
  "GET /auth/config": { public: true },
  "GET /auth/nonce": { public: true },
  "POST /auth/callback": { public: true },
  ...crud("clients"),
  "GET /clients.csv": m("clients", "export"),
  "GET /clients/next_client_code": m("clients", "create"),
  "GET /clients/search_clients_and_prospects": m("clients", "list"),
  ...crud("prospects"),
  "POST /prospects/:id/convert_to_client": m("prospects", "transition"),
  ...crud("quotations"),
  "GET /quotations/quotation_states": m("quotations", "list"),
  "GET /quotations/:id/invitation.ics": m("quotations", "show"),
  "GET /quotations/:id/audit_logs": m("quotations", "show"),
  "POST /quotations/:id/aasm_transition": m("quotations", "transition"),
  ...crud("client_groups"),
  ...crud("users"),
  "POST /users/save_cloud_token": { signedIn: true },
  "GET /google/connect": m("calendar_imports", "import"),
  "GET /google/callback": m("calendar_imports", "import"),
  ...crud("employees"),
  ...crud("employee_positions"),
  ...crud("workspaces"),
  "PUT /workspaces/:id/toggle_notification": m("workspaces", "update"),
  ...crud("assignments"),
  ...crud("holydays"),
  "GET /holydays/holydays_by_date": m("holydays", "list"),
  "GET /holydays/download_holydays_format": m("holydays", "list"),
  "PUT /holydays/import_holydays": m("holydays", "import"),
  ...crud("products"),
  ...crud("app_licenses"),
  "GET /app_licenses/:id/download_license_script": m("app_licenses", "show"),
  ...crud("estimated_work_hours"),
  ...crud("project_types"),
  ...crud("activity_type_catalogs"),
  ...crud("app_settings", ["create", "delete"]),
  ...crud("activities"),
  "GET /activities.csv": m("activities", "export"),
  "GET /activities/recent_activities": m("activities", "list"),
  "GET /activities/week_state": m("activities", "list"),
  "POST /activities/validate": m("activities", "create"),
  "POST /activities/batch": m("activities", "create"),
  "POST /activities/copy_previous_week": m("activities", "create"),
  "PUT /activities/close_activities": m("activities", "freeze"),
  "PUT /activities/open_activities": adminOnlyFreeze,
  "PUT /activities/close_month_activities": adminOnlyFreeze,
  "PUT /activities/open_month_activities": adminOnlyFreeze,
  "GET /activities/download_personal_report.csv": m("activities", "export"),
  "GET /activities/download_csv_format": m("activities", "import"),
  "POST /activities/get_ticket_by_proyect": m("activities", "create"),
  "GET /activities/reporting_activities.csv": m("reports", "export"),
  "PUT /activities/import_activities_csv": m("activities", "import"),
  ...crud("projects"),
  "GET /projects.csv": m("projects", "export"),
  "GET /projects/get_next_project_code": m("projects", "create"),
  "POST /projects/:id/aasm_transition": m("projects", "transition"),
  "GET /projects/:id/project_stages": m("projects", "show"),
  "GET /projects/:id/audit_logs": m("projects", "show"),
  "POST /projects/:id/extend_project": m("projects", "update"),
  "POST /projects/:id/partially_invoiced": m("projects", "invoice"),
  "POST /projects/:id/completely_invoiced": m("projects", "invoice"),
  "POST /projects/:id/notify_user": m("projects", "notify"),
  "POST /projects/:id/drive_check": m("projects", "update"),
  "POST /clients/:id/drive_check": m("clients", "update"),
  ...crud("invoices"),
  "GET /invoices/percentage_to_invoice": m("invoices", "list"),
  "POST /invoices/:id/aasm_transition": m("invoices", "transition"),
  "GET /invoices/:id/audit_logs": m("invoices", "show"),
  "POST /calendar_imports": m("calendar_imports", "import"),
  "GET /calendar_imports/sources": m("calendar_imports", "import"),
  "GET /dashboards/employee": m("dashboards", "show"),
  "GET /dashboards/team": m("dashboards", "list"),
  "GET /dashboards/projects/:id": m("projects", "show"),
  "GET /dashboards/clients/:id": m("clients", "show"),
  "GET /capacity": m("capacity", "list"),
  "GET /capacity.csv": m("capacity", "export"),
  "GET /drive/folders": m("drive", "list"),
  "POST /drive/folders": m("drive", "create"),
  "GET /outbox": m("outbox", "list"),
  "GET /outbox/:id": m("outbox", "show"),
  "GET /outbox/:id/eml": m("outbox", "show"),
  "GET /jobs": m("jobs", "list"),
  "POST /jobs/:name/run": m("jobs", "create"),
  "GET /backups": m("backups", "list"),
  "POST /backups": m("backups", "create"),
  "GET /backups/:name": m("backups", "show"),
  "GET /integrations": m("integrations", "list"),
  "POST /integrations/:port/check": m("integrations", "show"),
  // Project boards: a board is its project's members' (and the administrators'); no role here is a member.
  "GET /projects/:id/messages": boardRule,
  "POST /projects/:id/messages": boardRule,
  "POST /projects/:id/messages/read": boardRule,
  "GET /projects/:id/members": boardRule,
  "GET /realtime": { signedIn: true },
  "GET /notifications": m("notifications", "list"),
  "GET /notifications/summary": m("notifications", "list"),
  "PUT /notifications/:id/seen": m("notifications", "update"),
  "POST /notifications": m("notifications", "create"),
  // Weeks sent to review: `own` is the weeks of the workspaces the user leads; the service narrows in SQL.
  "GET /week_reviews": m("week_reviews", "list"),
  "GET /week_reviews/summary": m("week_reviews", "list"),
  "GET /week_reviews/:id": m("week_reviews", "list"),
  "GET /week_reviews/preview": m("week_reviews", "create"),
  "POST /week_reviews/submit": m("week_reviews", "create"),
  "POST /week_reviews/approve": m("week_reviews", "transition"),
  "POST /week_reviews/:id/return": m("week_reviews", "transition"),
  "GET /push/public_key": { signedIn: true },
  "POST /push/subscriptions": { signedIn: true },
  "DELETE /push/subscriptions": { signedIn: true },
};

const FLAGS: Record<Role, Record<string, boolean>> = {
  admin: { administrator_role: true },
  operator: { operator_role: true },
  finance: { finance_role: true },
};
function allowed(rule: Rule, role: Role): boolean {
  if ("public" in rule || "signedIn" in rule) return true;
  if ("roles" in rule) return rule.roles.includes(role);
  return canAccess({ user: FLAGS[role], resource: rule.resource, action: rule.action });
}

const PREFIX = "/api/v1";
const ROLES: RoleName[] = ["operator", "finance", "admin"];
const routes: string[] = [];
/** What each route declares in its config (server/http/auth.ts checks it before the handler). */
const declared: Record<string, { public?: boolean; signedIn?: boolean; permission?: { resource: string; action: Action } }> = {};
/** The local drive's folders and files, outside /api/v1 with an auth hook of their own. */
const driveRoutes: string[] = [];
let t: TestApp;
const api = {} as Record<RoleName, ApiClient>;
const emails = {} as Record<RoleName, string>;
const me = {} as Record<RoleName, { user: number; employee: number }>;
/** A real record for each resource's `:id` routes. */
const ids: Record<string, number | string> = {};
let otherEmployee: number;
let otherActivity: number;
let otherAssignment: number;
let checks = 0;
let reached = 0;
let idorProbes = 0;
const db = () => t.app.db.db;

beforeAll(async () => {
  t = await buildTestApp(
    {},
    {
      onRoute: (route) => {
        for (const method of [route.method].flat()) {
          if (method === "HEAD") continue;
          if (route.url.startsWith("/drive/")) driveRoutes.push(`${method} ${route.url}`);
          if (!route.url.startsWith(`${PREFIX}/`)) continue;
          const key = `${method} ${route.url.slice(PREFIX.length)}`;
          routes.push(key);
          declared[key] = (route.config ?? {}) as (typeof declared)[string];
        }
      },
    },
  );
  for (const role of ROLES) {
    const signed = await signInAs(t.app, role);
    api[role] = signed.api;
    emails[role] = signed.user.email;
    me[role] = { user: signed.user.id, employee: signed.employee!.id };
  }
  // The IDOR probes' victim: another operator, left alone by the matrix (whose administrator deletes records).
  const other = await buildUser(db(), "operator");
  otherEmployee = other.employee!.id;
  otherActivity = (await buildActivity(db(), otherEmployee, { description: "Secreto del colega" })).id;
  const client = await buildClient(db());
  const product = await buildProduct(db());
  const assignment = { client_id: client.id, product_catalog_id: product.id, start_on: "2025-01-01", end_on: "2025-01-31" };
  otherAssignment = (
    await db()
      .insert(assignments)
      .values({ employee_id: otherEmployee, ...assignment })
      .returning()
  )[0].id;
  // The matrix's records.
  const matrixUser = await buildUser(db(), "operator");
  const targetEmployee = matrixUser.employee!.id;
  const prospect = await buildProspect(db());
  const project = await buildProject(db(), { client_id: client.id });
  const position = await buildPosition(db());
  const one = async (rows: Promise<Array<{ id: number }>>) => (await rows)[0].id;
  Object.assign(ids, {
    client_groups: (await buildClientGroup(db())).id,
    employee_positions: position.id,
    workspaces: (await buildWorkspace(db())).id,
    assignments: await one(
      db()
        .insert(assignments)
        .values({ employee_id: targetEmployee, ...assignment })
        .returning(),
    ),
    holydays: await one(db().insert(holydays).values({ date: "2031-01-01", name: "Festivo de seguridad" }).returning()),
    app_licenses: await one(
      db()
        .insert(app_licenses)
        .values({ client_id: client.id, product_catalog_id: product.id, entity_name: "E", entity_rfc: "AAA010101AA1" })
        .returning(),
    ),
    estimated_work_hours: await one(
      db()
        .insert(estimated_work_hours)
        .values({ project_id: project.id, employee_position_id: position.id, estimated_hours: 3 })
        .returning(),
    ),
    project_types: await one(db().insert(project_types).values({ name: "Tipo de seguridad" }).returning()),
    activity_type_catalogs: await one(
      db().insert(activity_type_catalogs).values({ code: "SEG", name: "Tipo de actividad de seguridad" }).returning(),
    ),
    clients: client.id,
    products: product.id,
    prospects: prospect.id,
    quotations: (await buildQuotation(db(), product.id, prospect.id)).id,
    projects: project.id,
    invoices: (await buildInvoice(db(), project.id)).id,
    users: matrixUser.user.id,
    employees: targetEmployee,
    activities: (await buildActivity(db(), targetEmployee)).id,
    outbox: "no-existe",
    name: "no_existe",
    port: "documents",
  });
  ids.notifications = (
    await db()
      .insert(notifications)
      .values({ message: "Aviso de seguridad", author_name: "SIA", user_id: me.admin.user })
      .returning()
  )[0].id;
  // A week of another operator in review, which an administrator reads.
  ids.week_reviews = (
    await db()
      .insert(week_reviews)
      .values({ employee_id: otherEmployee, starts_on: "2025-01-06", state: "submitted", submitted_by: other.user.id })
      .returning()
  )[0].id;
  // The settings are one row, made on first read.
  ids.app_settings = APP_SETTINGS_ID;
  const missing = routes.filter((r) => r.includes(":") && target(r).url.includes("undefined"));
  if (missing.length) throw new Error(`sin registro para: ${missing.join(", ")}`);
}, 60_000);

afterAll(async () => {
  recordFigures(
    "seguridad",
    `rutas: ${routes.length} + ${driveRoutes.length} de /drive, comprobaciones rutas×roles: ${checks} (${reached} respondidas 2xx), sondas IDOR/ids inexistentes: ${idorProbes}`,
    { routes: routes.length, driveRoutes: driveRoutes.length, checks, reached2xx: reached, idorProbes },
  );
  await t?.close();
});

/** The URL of a route with its params filled with real records. */
function target(route: string): { method: string; url: string } {
  const [method, path] = route.split(" ");
  // `/dashboards/projects/:id` takes a project: the resource is the segment before the param.
  const segments = path.split("/");
  const url = segments
    .map((segment, i) =>
      segment.startsWith(":") ? String(ids[segment === ":id" ? segments[i - 1] : segment.slice(1)]) : segment,
    )
    .join("/");
  return { method, url: `${PREFIX}${url}` };
}

describe("matriz de autorización", () => {
  it("conoce cada ruta de /api/v1 (una ruta nueva sin regla falla aquí)", () => {
    expect(routes.length).toBeGreaterThan(100);
    const unknown = routes.filter((r) => !(r in RULES));
    expect(unknown, `rutas sin fila en RULES de tests/security/authorization.test.ts: ${unknown.join(", ")}`).toEqual([]);
    const stale = Object.keys(RULES).filter((r) => !routes.includes(r));
    expect(stale, "filas de RULES sin ruta").toEqual([]);
  });

  it("una ruta que no dice quién puede llamarla impide arrancar la aplicación", async () => {
    const bare = Fastify();
    registerAuth(bare);
    expect(() => bare.get("/sin-regla", async () => "abierta")).toThrow(/declares none of public, signedIn or permission/);
    expect(() => bare.get("/con-regla", { config: requires("clients", "list") }, async () => "ok")).not.toThrow();
    await bare.close();
  });

  it("cada ruta declara en su config la regla de su fila (la que revisa el gancho de autenticación)", () => {
    const wrong = routes.filter((route) => {
      const rule = RULES[route];
      const config = declared[route] ?? {};
      const said = config.public ? "public" : config.signedIn ? "signedIn" : config.permission ? "permission" : "none";
      if ("public" in rule) return said !== "public";
      if ("signedIn" in rule) return said !== "signedIn";
      // Narrower than a row: the route declares its row or any signed-in user, and the handler refuses the rest.
      if ("roles" in rule) return said !== "permission" && said !== "signedIn";
      return said !== "permission" || config.permission?.resource !== rule.resource || config.permission?.action !== rule.action;
    });
    expect(
      wrong.map((route) => `${route}: ${JSON.stringify(declared[route])}`),
      "rutas cuya config no dice lo que su fila de RULES",
    ).toEqual([]);
  });

  it("cada ruta × {sin sesión, Operador, Finanzas, Administrador} responde lo que dice la matriz", async () => {
    const failures: string[] = [];
    // Deletions last, so the records the other routes use still exist.
    const ordered = [...routes].sort((a, b) => Number(a.startsWith("DELETE")) - Number(b.startsWith("DELETE")));
    for (const route of ordered) {
      const rule = RULES[route];
      const { method, url } = target(route);
      const anonymous = await call(t.app, method as "GET", url, method === "GET" ? undefined : {});
      checks++;
      if ("public" in rule) {
        // Open to everyone: empty credentials are refused as such, never as "sign in first".
        if (anonymous.body?.error === messages.unauthenticated || anonymous.status === 403 || anonymous.status >= 500)
          failures.push(`${route} sin sesión → ${anonymous.status} ${anonymous.text}`);
      } else if (anonymous.status !== 401 || anonymous.body?.error !== messages.unauthenticated)
        failures.push(`${route} sin sesión → ${anonymous.status} (se esperaba 401)`);
      for (const role of ROLES) {
        // Signing out ends the session: each role signs out a session of its own.
        const client = route === "DELETE /sessions" ? await signIn(t.app, emails[role]) : api[role];
        // An update says which version it read (the record's ETag), so an allowed one reaches the handler.
        const response =
          method === "PUT"
            ? await client.put(url, {})
            : await client.request(method as "GET", url, method === "GET" ? undefined : {});
        checks++;
        const may = allowed(rule, role);
        if (response.status < 300) reached++;
        if (role === "admin" && method === "GET" && /^GET \/\w+\/:id$/.test(route) && !route.startsWith("GET /outbox")) {
          // Each show reads a real record: the checks above hit the handler, not a 404 before it.
          if (response.status !== 200) failures.push(`${route} admin → ${response.status} (se esperaba 200)`);
        }
        if (response.status >= 500) failures.push(`${route} ${role} → ${response.status} ${response.text}`);
        else if (may && (response.status === 401 || response.status === 403) && !("public" in rule))
          failures.push(`${route} ${role} → ${response.status} (permitido por la matriz)`);
        else if (!may && (response.status !== 403 || response.body?.error !== messages.forbidden))
          failures.push(`${route} ${role} → ${response.status} (se esperaba 403)`);
      }
    }
    expect(failures).toEqual([]);
  }, 60_000);
});

/** A 404 or 422 with a Spanish message, never a 500. */
function refusedInSpanish(response: { status: number; body: any; text: string }) {
  const message = JSON.stringify(response.body?.error ?? response.body?.errors ?? "");
  return [404, 422].includes(response.status) && /[a-z]/i.test(message) && !/not found|internal server/i.test(message);
}

describe("la unidad local (/drive), fuera de /api/v1", () => {
  it("pide sesión en cada ruta y la abre a quien puede ver la unidad", async () => {
    expect(driveRoutes.length).toBeGreaterThan(0);
    for (const route of driveRoutes) {
      const [method, path] = route.split(" ");
      const url = path.replace("*", "no-existe.txt");
      const anonymous = await call(t.app, method as "GET", url);
      checks++;
      expect(anonymous.status, `${route} sin sesión`).toBe(401);
      for (const role of ROLES) {
        const response = await api[role].request(method as "GET", url);
        checks++;
        expect([401, 403].includes(response.status) || response.status >= 500, `${route} ${role} → ${response.status}`).toBe(
          false,
        );
      }
    }
  });
});

describe("ids que no existen o no son ids", () => {
  it("cada ruta con :id responde 404 o 422 en español, nunca 500", async () => {
    const failures: string[] = [];
    const idRoutes = routes.filter((r) => r.includes("/:"));
    for (const route of idRoutes) {
      const [method, path] = route.split(" ");
      for (const junk of ["987654321", "abc", "-1", "1e3", "0", "1.5", "99999999999999999999"]) {
        const url = `${PREFIX}${path.replace(/:\w+/, junk)}`;
        const response = await api.admin.request(method as "GET", url, method === "GET" ? undefined : {});
        idorProbes++;
        if (!refusedInSpanish(response)) failures.push(`${method} ${url} → ${response.status} ${response.text.slice(0, 120)}`);
      }
    }
    expect(failures).toEqual([]);
  }, 60_000);
});

describe.each(["operator", "finance"] as const)("IDOR: %s sobre registros de otros", (role) => {
  const probe = async (method: string, url: string, payload?: unknown) => {
    idorProbes++;
    return api[role].request(method as "GET", `${PREFIX}${url}`, payload);
  };
  const refused = (status: number) => status === 403 || status === 404;

  it("no lee, cambia ni borra la actividad de otro empleado", async () => {
    const before = (await db().select().from(activities).where(eq(activities.id, otherActivity)))[0];
    expect(before).toBeDefined();
    const adminActivity = (await buildActivity(db(), me.admin.employee, { description: "Del administrador" })).id;
    for (const id of [otherActivity, adminActivity]) {
      expect(refused((await probe("GET", `/activities/${id}`)).status)).toBe(true);
      expect(refused((await probe("PUT", `/activities/${id}`, { activity: { description: "Robada" } })).status)).toBe(true);
      expect(refused((await probe("DELETE", `/activities/${id}`)).status)).toBe(true);
    }
    const after = (await db().select().from(activities).where(eq(activities.id, otherActivity)))[0];
    expect(after).toEqual(before);
    expect((await db().select().from(activities).where(eq(activities.id, adminActivity))).length).toBe(1);
  });

  it("ninguna lista ni reporte devuelve filas de otros, aunque las pida por empleado", async () => {
    await buildActivity(db(), me[role].employee, { description: "Mía" });
    for (const url of [
      "/activities?per_page=all",
      `/activities?per_page=all&by_employee=${otherEmployee}`,
      "/activities?per_page=all&by_employee=todos",
      `/activities/recent_activities?employee_id=${otherEmployee}`,
    ]) {
      const response = await probe("GET", url);
      if (response.status === 200) {
        const rows = response.body.activities as Array<{ employee_id: number }>;
        expect(
          rows.every((row) => row.employee_id === me[role].employee),
          url,
        ).toBe(true);
      } else expect(refused(response.status), url).toBe(true);
    }
    for (const url of [
      "/activities.csv?by_employee=todos",
      `/activities/download_personal_report.csv?by_employee=${otherEmployee}&employee_id=${otherEmployee}`,
      `/activities/reporting_activities.csv?by_employee=${otherEmployee}`,
    ]) {
      const response = await probe("GET", url);
      expect(response.status, url).toBeLessThan(500);
      expect(response.text, url).not.toContain("Secreto del colega");
    }
    const assignments = await probe("GET", "/assignments?per_page=all");
    expect(assignments.status).toBe(200);
    expect(
      (assignments.body.assignments as Array<{ employee_id: number }>).every((row) => row.employee_id === me[role].employee),
    ).toBe(true);
    if (role === "operator") {
      // Finanzas reads every employee (reports by employee); an Operador only their own record.
      const employees = await probe("GET", "/employees?per_page=all");
      expect(employees.status).toBe(200);
      expect((employees.body.employees as Array<{ id: number }>).map((row) => row.id)).toEqual([me[role].employee]);
      expect(refused((await probe("GET", `/employees/${otherEmployee}`)).status)).toBe(true);
    }
  });

  it("no lee ni cambia el usuario ni el empleado de otro", async () => {
    const [before] = await db().select().from(users).where(eq(users.id, me.admin.user));
    expect(before).toBeDefined();
    expect(refused((await probe("GET", `/assignments/${otherAssignment}`)).status)).toBe(true);
    expect((await probe("DELETE", `/assignments/${otherAssignment}`)).status).toBe(403);
    expect(await db().select().from(assignments).where(eq(assignments.id, otherAssignment))).toHaveLength(1);
    expect(refused((await probe("GET", `/users/${me.admin.user}`)).status)).toBe(true);
    const put = await probe("PUT", `/users/${me.admin.user}`, { user: { email: "robado@sia.local", administrator_role: false } });
    expect(refused(put.status)).toBe(true);
    expect((await probe("DELETE", `/users/${me.admin.user}`)).status).toBe(403);
    // The cloud token is always the caller's own, whatever id the body names.
    const token = await probe("POST", "/users/save_cloud_token", {
      user: { token: "ajeno", id: me.admin.user, user_id: me.admin.user },
    });
    expect(token.status).toBeLessThan(500);
    const [after] = await db().select().from(users).where(eq(users.id, me.admin.user));
    expect(after).toEqual(before);
  });

  it("no se da permisos a sí mismo al editar su propio usuario", async () => {
    const [before] = await db().select().from(users).where(eq(users.id, me[role].user));
    const response = await probe("PUT", `/users/${me[role].user}`, {
      user: { administrator_role: true, finance_role: true, operator_role: true, lock_version: before.lock_version },
    });
    expect(response.status).toBe(403);
    const [after] = await db().select().from(users).where(eq(users.id, me[role].user));
    expect(after.administrator_role).toBeFalsy();
    expect(after.finance_role).toBe(role === "finance");
    expect(after.operator_role).toBe(role === "operator");
  });

  it("no ve el tablero de otro ni congela su semana", async () => {
    expect((await probe("GET", `/dashboards/employee?employee_id=${otherEmployee}`)).status).toBe(403);
    expect((await probe("GET", `/dashboards/employee?employee_id=${me.admin.employee}`)).status).toBe(403);
    const close = await probe("PUT", `/activities/close_activities?by_employee=${otherEmployee}&by_begins_at=2025-01-06`);
    expect(close.status).toBe(403);
    expect(await db().select().from(frozen_periods).where(eq(frozen_periods.employee_id, otherEmployee))).toEqual([]);
  });

  it("no crea ni mueve actividades a nombre de otro empleado", async () => {
    const theirs = async () =>
      (await db().select().from(activities).where(eq(activities.employee_id, otherEmployee))).map((row) => row.id).sort();
    const before = await theirs();
    const activity = {
      begins_at: "2030-03-05T15:00:00.000Z",
      ends_at: "2030-03-05T16:00:00.000Z",
      action_type: "internal",
      description: "Para otro",
      activity_type_catalog_id: ids.activity_type_catalogs,
      employee_id: otherEmployee,
    };
    for (const [method, url, payload] of [
      ["POST", "/activities", { activity }],
      ["POST", "/activities/batch", { activities: [activity] }],
      ["POST", `/activities/copy_previous_week?employee_id=${otherEmployee}&by_begins_at=2025-01-13`, {}],
    ] as const) {
      const response = await probe(method, url, payload);
      expect(response.status, url).toBeLessThan(500);
      // Copying a week copies the caller's own (the employee named is ignored): only the count below matters.
      if (!url.includes("copy_previous_week")) expect([403, 422], url).toContain(response.status);
    }
    const mine = (await buildActivity(db(), me[role].employee, { description: "Mía, para mover" })).id;
    const moved = await probe("PUT", `/activities/${mine}`, { activity: { employee_id: otherEmployee } });
    expect(moved.status).toBeLessThan(500);
    const [row] = await db().select().from(activities).where(eq(activities.id, mine));
    expect(row.employee_id).toBe(me[role].employee);
    expect(await theirs()).toEqual(before);
  });

  it("no importa actividades a nombre de otro empleado", async () => {
    const before = await db().select().from(activities).where(eq(activities.employee_id, otherEmployee));
    const body = { employee_id: otherEmployee, by_employee: otherEmployee, week: "2025-01-06", events: [] };
    expect((await probe("POST", `/calendar_imports?employee_id=${otherEmployee}`, body)).status).toBeLessThan(500);
    const after = await db().select().from(activities).where(eq(activities.employee_id, otherEmployee));
    expect(after).toEqual(before);
  });
});
