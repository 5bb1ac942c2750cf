/**
 * An Operador who leads a project (decision 029): its page shows the project's estimated hours and asks
 * nothing the server refuses (no 403 in the console); a project they do not lead shows no estimated hours.
 * And `can_chat` changed by an administrator applies at the Operador's next request, not next sign-in.
 */
import { type APIRequestContext, expect, type Page, request as playwrightRequest, test } from "@playwright/test";
import { ACCOUNTS, DEMO_PASSWORD, signIn } from "./fixtures";

/** Every refused call and console error of a page, from now on. */
function watchRefusals(page: Page) {
  const refusals: string[] = [];
  page.on("response", (r) => {
    if (r.status() === 401 || r.status() === 403) refusals.push(`${r.status()} ${r.request().method()} ${r.url()}`);
  });
  page.on("console", (m) => {
    if (m.type() === "error") refusals.push(`consola: ${m.text()}`);
  });
  return refusals;
}

async function adminApi(baseURL: string): Promise<APIRequestContext> {
  const api = await playwrightRequest.newContext({ baseURL });
  const signed = await api.post("/api/v1/sessions", { data: { email: ACCOUNTS.admin, password: DEMO_PASSWORD } });
  expect(signed.status()).toBe(200);
  return api;
}

/** PUT with the version just read (decision 023). */
async function update(api: APIRequestContext, path: string, data: Record<string, unknown>) {
  const read = await api.get(path);
  const response = await api.put(path, { data, headers: { "If-Match": read.headers().etag } });
  expect(response.status(), await response.text()).toBe(200);
}

interface Led {
  employeeId: number;
  userId: number;
  led: { id: number; name: string };
  notLed: { id: number; name: string };
}

async function ledProjects(page: Page): Promise<Led> {
  return page.evaluate(async () => {
    const me = (await (await fetch("/api/v1/sessions/current")).json()).user;
    const all = (await (await fetch("/api/v1/projects?per_page=all")).json()).projects as {
      id: number;
      name: string;
      pm_id: number | null;
      rape_id: number | null;
    }[];
    const leads = (p: (typeof all)[number]) => p.pm_id === me.employee.id || p.rape_id === me.employee.id;
    const led = all.find(leads);
    const notLed = all.find((p) => !leads(p));
    if (!led || !notLed) throw new Error("the demo Operador should lead some projects and not others");
    return { employeeId: me.employee.id, userId: me.id, led, notLed };
  });
}

test("a project leader sees the estimated hours of their project, and no call is refused", async ({ page, baseURL }) => {
  await signIn(page, "operator");
  const { led, notLed } = await ledProjects(page);
  const admin = await adminApi(baseURL as string);
  const positions = await (await admin.get("/api/v1/employee_positions?per_page=all")).json();
  const position = positions.employee_positions[0];
  const existing = await (await admin.get(`/api/v1/estimated_work_hours?project_id=${led.id}&per_page=all`)).json();
  const taken = new Set(existing.estimated_work_hours.map((r: { employee_position_id: number }) => r.employee_position_id));
  const free = positions.employee_positions.find((p: { id: number }) => !taken.has(p.id)) ?? position;
  let rowId: number | null = null;
  if (!taken.has(free.id)) {
    const created = await admin.post("/api/v1/estimated_work_hours", {
      data: { estimated_work_hour: { project_id: led.id, employee_position_id: free.id, estimated_hours: 13 } },
    });
    expect(created.status(), await created.text()).toBe(201);
    rowId = (await created.json()).estimated_work_hour.id;
  }
  try {
    const refusals = watchRefusals(page);
    await page.goto(`/app/projects/${led.id}`);
    const hours = page.getByRole("table", { name: "Horas estimadas" });
    await expect(hours).toBeVisible();
    await expect(hours.getByRole("cell", { name: free.name })).toBeVisible();
    // A leader reads; adding or removing stays with administrators.
    await expect(page.getByRole("button", { name: "Agregar" })).toHaveCount(0);
    await expect(page.getByRole("button", { name: "Eliminar horas estimadas" })).toHaveCount(0);
    await expect(page.getByTestId("project-board")).toBeVisible();
    // Nor the invoices: billing is not the leader's.
    await expect(page.getByRole("link", { name: /Facturas/ })).toHaveCount(0);

    await page.goto(`/app/projects/${notLed.id}`);
    await expect(page.getByText(notLed.name).first()).toBeVisible();
    await expect(page.getByTestId("project-board")).toBeVisible();
    await expect(page.getByRole("table", { name: "Horas estimadas" })).toHaveCount(0);
    // Let the page's late calls (stages, board, dashboard) finish before judging.
    await page.waitForLoadState("networkidle");
    expect(refusals).toEqual([]);
  } finally {
    if (rowId) await admin.delete(`/api/v1/estimated_work_hours/${rowId}`);
    await admin.dispose();
  }
});

test("can_chat changed by an administrator applies at the Operador's next request", async ({ page, baseURL }) => {
  await signIn(page, "operator");
  const { led, userId } = await ledProjects(page);
  const admin = await adminApi(baseURL as string);
  const board = page.getByTestId("project-board");
  const messageBox = board.getByRole("textbox", { name: "Mensaje" });
  try {
    await page.goto(`/app/projects/${led.id}`);
    await expect(messageBox).toBeVisible();

    await update(admin, `/api/v1/users/${userId}`, { user: { can_chat: false } });
    // The Operador goes on working, signed in as before: to the list and back to the project.
    await page.getByRole("menuitem", { name: "Proyectos", exact: true }).click();
    await expect(page).toHaveURL(/\/app\/projects$/);
    await page.goto(`/app/projects/${led.id}`);
    await expect(board.getByText("Pida a un administrador que le habilite el chat")).toBeVisible();
    await expect(messageBox).toHaveCount(0);

    await update(admin, `/api/v1/users/${userId}`, { user: { can_chat: true } });
    await page.getByRole("menuitem", { name: "Proyectos", exact: true }).click();
    await expect(page).toHaveURL(/\/app\/projects$/);
    await page.getByRole("menuitem", { name: "Actividades", exact: true }).click();
    await page.goBack();
    await page.goBack();
    await expect(page).toHaveURL(new RegExp(`/app/projects/${led.id}$`));
    await expect(messageBox).toBeVisible();
  } finally {
    const me = await (await admin.get(`/api/v1/users/${userId}`)).json();
    if (!me.user?.can_chat) await update(admin, `/api/v1/users/${userId}`, { user: { can_chat: true } });
    await admin.dispose();
  }
});
