import { expect, type Page, test } from "@playwright/test";
import { signIn } from "./fixtures";

/**
 * Stored XSS: script payloads saved through the API in every free-text field the screens show; the
 * list and detail screens render them as text and nothing executes (no `window.__xss`, no dialog).
 */
const IMG = '<img src=x onerror="window.__xss=1;alert(1)">';
const SCRIPT = "<script>window.__xss=1;alert(1)</script>";
const payload = (label: string) => `AAA ${label} ${IMG} ${SCRIPT}`;

interface Target {
  resource: string;
  singular: string;
  field: string;
  /** Screens that show the field, given the record. */
  screens: (record: Record<string, any>) => string[];
  /** List filters that pick a record still open to edits (final quotations and invoices are read-only, 028). */
  filter?: string;
}

const TARGETS: Target[] = [
  { resource: "clients", singular: "client", field: "name", screens: (r) => ["/app/clients/list", `/app/clients/show/${r.id}`] },
  {
    resource: "prospects",
    singular: "prospect",
    field: "name",
    // The oldest: a demo prospect, not one another spec has won (a won prospect is read-only).
    filter: "by_column[column]=id&by_column[order]=asc",
    screens: (r) => ["/app/prospects/list", `/app/prospects/${r.id}`],
  },
  { resource: "projects", singular: "project", field: "name", screens: (r) => ["/app/projects/list", `/app/projects/${r.id}`] },
  {
    resource: "quotations",
    singular: "quotation",
    field: "contact_name",
    screens: (r) => [`/app/quotations/${r.id}`],
    filter: `by_status=${encodeURIComponent('["demo","contract","quote"]')}`,
  },
  {
    resource: "invoices",
    singular: "invoice",
    field: "audit_comment",
    filter: `by_state=${encodeURIComponent('["pendiente","enviada"]')}`,
    screens: (r) => [`/app/projects/${r.project_id}/invoices/${r.id}`],
  },
  {
    resource: "employees",
    singular: "employee",
    field: "name",
    screens: (r) => ["/app/employees/list", `/app/employees/${r.id}`],
  },
  {
    resource: "workspaces",
    singular: "workspace",
    field: "name",
    screens: (r) => ["/app/workspaces/list", `/app/workspaces/show/${r.id}`],
  },
  {
    resource: "products",
    singular: "product",
    field: "name",
    screens: (r) => ["/app/productCatalogs/list", `/app/productCatalogs/${r.id}`],
  },
  {
    resource: "client_groups",
    singular: "client_group",
    field: "name",
    screens: (r) => ["/app/client_group/list", `/app/client_group/show/${r.id}`],
  },
  { resource: "holydays", singular: "holyday", field: "name", screens: () => ["/app/holydays/list"] },
];

async function firstRecord(page: Page, resource: string, filter = "") {
  const res = await page.request.get(`/api/v1/${resource}?per_page=1${filter ? `&${filter}` : ""}`);
  expect(res.ok(), `${resource}: ${res.status()}`).toBe(true);
  const body = await res.json();
  const list = Array.isArray(body) ? body : body[resource];
  expect(list?.length, `${resource} sin registros de demostración`).toBeGreaterThan(0);
  return list[0] as Record<string, any>;
}

test("script payloads stored in free-text fields never execute on any screen", async ({ page }) => {
  test.setTimeout(240_000);
  const dialogs: string[] = [];
  page.on("dialog", async (dialog) => {
    dialogs.push(dialog.message());
    await dialog.dismiss();
  });
  await signIn(page, "admin");

  for (const target of TARGETS) {
    const record = await firstRecord(page, target.resource, target.filter);
    const text = payload(target.resource);
    // Saved at the version it was read at, as every update must be.
    const res = await page.request.put(`/api/v1/${target.resource}/${record.id}`, {
      data: { [target.singular]: { [target.field]: text } },
      headers: { "if-match": `"${record.lock_version}"` },
    });
    expect(res.ok(), `${target.resource}.${target.field}: ${res.status()} ${await res.text()}`).toBe(true);
    for (const screen of target.screens(record)) {
      await page.goto(screen);
      await expect(page.getByText(`AAA ${target.resource}`, { exact: false }).first(), screen).toBeVisible();
      // The payload shows as text, tags included; no element was created from it.
      await expect(page.getByText(IMG, { exact: false }).first(), screen).toBeVisible();
      expect(await page.locator('img[src="x"]').count(), screen).toBe(0);
      expect(await page.evaluate(() => (window as unknown as { __xss?: number }).__xss), screen).toBeUndefined();
    }
  }
  expect(dialogs).toEqual([]);
});

test("script payloads in an activity's description and ticket name never execute on the week page", async ({ page }) => {
  const dialogs: string[] = [];
  page.on("dialog", async (dialog) => {
    dialogs.push(dialog.message());
    await dialog.dismiss();
  });
  await signIn(page, "admin");
  const me = await (await page.request.get("/api/v1/sessions/current")).json();
  const day = new Intl.DateTimeFormat("en-CA", { timeZone: "America/Mexico_City" }).format(new Date());
  const res = await page.request.post("/api/v1/activities", {
    data: {
      activity: {
        employee_id: me.user.employee.id,
        action_type: "internal",
        // After the demo's working day (it ends at 18:00), so it never clashes with the seeded activities.
        begins_at: `${day}T19:00:00-06:00`,
        ends_at: `${day}T20:00:00-06:00`,
        description: payload("descripción"),
        ticket_name: payload("ticket"),
      },
    },
  });
  expect(res.ok(), `${res.status()} ${await res.text()}`).toBe(true);
  await page.goto("/app/activities");
  await expect(page.getByText("AAA descripción", { exact: false }).first()).toBeVisible();
  expect(await page.locator('img[src="x"]').count()).toBe(0);
  expect(await page.evaluate(() => (window as unknown as { __xss?: number }).__xss)).toBeUndefined();
  expect(dialogs).toEqual([]);
});

test("a board message with a script, an image and a javascript: link shows as text and runs nothing", async ({ page }) => {
  const dialogs: string[] = [];
  page.on("dialog", async (dialog) => {
    dialogs.push(dialog.message());
    await dialog.dismiss();
  });
  await signIn(page, "admin");
  const project = await firstRecord(page, "projects");
  const body = `AAA tablero ${IMG} ${SCRIPT} javascript:window.__xss=1 y https://ejemplo.mx/seguro`;
  const res = await page.request.post(`/api/v1/projects/${project.id}/messages`, { data: { message: { body } } });
  expect(res.status(), await res.text()).toBe(201);
  await page.goto(`/app/projects/${project.id}`);
  const board = page.getByTestId("project-board");
  await expect(board.getByText("AAA tablero", { exact: false }).first()).toBeVisible();
  await expect(board.getByText(IMG, { exact: false }).first()).toBeVisible();
  await expect(board.getByText("javascript:window.__xss=1", { exact: false }).first()).toBeVisible();
  expect(await page.locator('img[src="x"]').count()).toBe(0);
  expect(await page.locator('a[href^="javascript:"]').count()).toBe(0);
  const safe = board.getByRole("link", { name: "https://ejemplo.mx/seguro" });
  await expect(safe).toHaveAttribute("href", "https://ejemplo.mx/seguro");
  await expect(safe).toHaveAttribute("rel", "noopener noreferrer");
  expect(await page.evaluate(() => (window as unknown as { __xss?: number }).__xss)).toBeUndefined();
  expect(dialogs).toEqual([]);
});

test("a notice whose message and author carry scripts shows as text in the bell and runs nothing", async ({ page }) => {
  const dialogs: string[] = [];
  page.on("dialog", async (dialog) => {
    dialogs.push(dialog.message());
    await dialog.dismiss();
  });
  await signIn(page, "admin");
  const res = await page.request.post("/api/v1/notifications", {
    data: { notification: { message: payload("aviso"), author_name: `Autor ${IMG}` } },
  });
  expect(res.ok(), await res.text()).toBe(true);
  await page.reload();
  await page.getByTestId("bell").click();
  const menu = page.getByRole("menu");
  await expect(menu.getByText("AAA aviso", { exact: false }).first()).toBeVisible();
  await expect(menu.getByText(IMG, { exact: false }).first()).toBeVisible();
  expect(await page.locator('img[src="x"]').count()).toBe(0);
  expect(await page.evaluate(() => (window as unknown as { __xss?: number }).__xss)).toBeUndefined();
  expect(dialogs).toEqual([]);
});
