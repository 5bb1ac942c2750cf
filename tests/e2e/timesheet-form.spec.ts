/**
 * The timesheet's activity dialog against the real server and demo data, as an employee fills it: manual
 * entry offers what the import's titles carry (an activity type for support and internal work, only the
 * chosen client's products, only current projects with their state), a refused save keeps what was typed
 * and says why under the field, and a closed week's activity opens read-only with its reason.
 */
import { type Browser, expect, type Locator, type Page, test } from "@playwright/test";
import { addDays, businessToday, mondayOf } from "../../src/core/week";
import { scrollCalendarTo, slot } from "./calendar";
import { ACCOUNTS, allowFutureActivities, DEMO_PASSWORD, signIn } from "./fixtures";

// These walks log weeks ahead of today, where the demo data never is.
allowFutureActivities();

test.use({ viewport: { width: 1400, height: 1300 } });

/** A week of its own, far ahead: the other timesheet walks use next week and weeks 3–21 ahead. */
const WEEKS_AHEAD = 23;
const NEXT_MONDAY = addDays(mondayOf(businessToday()), 7 * WEEKS_AHEAD);
const ACTION_TYPE = /^Tipo (Proyecto|Soporte|Preventa|Actividad interna|Recursos humanos|Vacaciones)$/;

async function showNextWeek(page: Page) {
  await expect(page.getByTestId("week-calendar")).toBeVisible();
  for (let i = 0; i < WEEKS_AHEAD; i++) await page.locator(".fc-next-button").click();
  await expect(page.locator(`.fc-timegrid-col[data-date="${NEXT_MONDAY}"]`)).toBeVisible();
  await scrollCalendarTo(page, "08:00");
}

/** Clicks an empty slot and answers the new activity's dialog. */
async function newActivity(page: Page, date: string, time: string) {
  await page.mouse.click(...(Object.values(await slot(page, date, time)) as [number, number]));
  const modal = page.getByTestId("activity-modal");
  await expect(modal.getByText("Nueva actividad")).toBeVisible();
  return modal;
}

async function chooseActionType(page: Page, modal: Locator, label: string) {
  await modal.getByRole("combobox", { name: ACTION_TYPE }).click();
  await page.getByRole("option", { name: label, exact: true }).click();
}

/** The options a select offers, then closes it. */
async function optionsOf(page: Page, select: Locator) {
  await select.click();
  const names = await page.getByRole("listbox").getByRole("option").allInnerTexts();
  await page.keyboard.press("Escape");
  return names.map((n) => n.trim()).filter((n) => n && n !== "—");
}

const api = <T>(page: Page, path: string) =>
  page.evaluate(async (p) => {
    const res = await fetch(`/api/v1/${p}`);
    if (!res.ok) throw new Error(`${p}: ${res.status}`);
    return res.json();
  }, path) as Promise<T>;

interface ClientRow {
  id: number;
  name: string;
  client_product_catalogs: { product_catalog_id: number; product_catalog_name: string }[];
}

/** A client with a catalogue smaller than the whole selectable catalogue, and its selectable products. */
async function clientWithCatalogue(page: Page) {
  const [{ clients }, { products }, { app_setting }] = await Promise.all([
    api<{ clients: ClientRow[] }>(page, "clients?per_page=all"),
    api<{ products: { id: number; name: string }[] }>(page, "products?per_page=all&selectable=true"),
    api<{ app_setting: { support_excluded_customer_id: number | null } }>(page, "app_settings/1"),
  ]);
  const selectable = new Map(products.map((p) => [p.id, p.name]));
  for (const client of clients) {
    if (client.id === app_setting.support_excluded_customer_id) continue;
    const own = client.client_product_catalogs.map((c) => selectable.get(c.product_catalog_id)).filter(Boolean) as string[];
    if (own.length > 0 && own.length < selectable.size) return { client, products: own.sort(), all: selectable.size };
  }
  throw new Error("no client with a catalogue in the demo data");
}

async function pickOwner(page: Page, modal: Locator, name: string) {
  await modal.getByTestId("owner-picker").getByRole("combobox").fill(name);
  await page.getByRole("option", { name, exact: true }).click();
}

const eventOf = (page: Page, text: string) => page.locator(".fc-timegrid-event:not(.fc-event-dragging)", { hasText: text });

test("a support activity offers an activity type and only the chosen client's products", async ({ page }) => {
  await signIn(page, "operator");
  const { client, products, all } = await clientWithCatalogue(page);
  await showNextWeek(page);
  const description = `Soporte ${Date.now().toString(36)}`;

  const modal = await newActivity(page, NEXT_MONDAY, "09:00");
  await chooseActionType(page, modal, "Soporte");
  const typeSelect = modal.getByRole("combobox", { name: /^Tipo de actividad/ });
  await expect(typeSelect).toBeVisible();
  const product = modal.getByRole("combobox", { name: /^Producto/ });
  // No client yet: no catalogue to choose from.
  await expect(product).toHaveAttribute("aria-disabled", "true");
  await pickOwner(page, modal, client.name);
  await expect(product).not.toHaveAttribute("aria-disabled", "true");
  const offered = (await optionsOf(page, product)).sort();
  expect(offered).toEqual(products);
  expect(offered.length).toBeLessThan(all);

  await product.click();
  await page.getByRole("option", { name: products[0], exact: true }).click();
  await typeSelect.click();
  await page.getByRole("option", { name: "ST – Soporte técnico" }).click();
  await modal.getByLabel("Descripción").fill(description);
  await modal.getByRole("button", { name: "Guardar" }).click();
  await expect(page.getByText("Todas las actividades se agregaron correctamente")).toBeVisible();
  await expect(modal).toBeHidden();

  // Opened again: the type, client and product were kept.
  await eventOf(page, description).click();
  await expect(modal.getByText("Editar actividad")).toBeVisible();
  await expect(modal.getByRole("combobox", { name: /^Tipo de actividad/ })).toContainText("ST – Soporte técnico");
  await expect(modal.getByTestId("owner-picker").getByRole("combobox")).toHaveValue(client.name);
  await expect(modal.getByRole("combobox", { name: /^Producto/ })).toContainText(products[0]);

  // Duplicar: a new activity right after it, with the same client, product and type.
  await modal.getByRole("button", { name: "Duplicar" }).click();
  await expect(modal.getByText("Nueva actividad")).toBeVisible();
  await expect(modal.getByLabel("Inicio")).toHaveValue("10:00");
  await expect(modal.getByTestId("owner-picker").getByRole("combobox")).toHaveValue(client.name);
  await expect(modal.getByRole("combobox", { name: /^Producto/ })).toContainText(products[0]);
  await expect(modal.getByRole("combobox", { name: /^Tipo de actividad/ })).toContainText("ST – Soporte técnico");
  await modal.getByRole("button", { name: "Cancelar" }).click();
});

test("an internal activity offers an activity type and keeps it", async ({ page }) => {
  await signIn(page, "operator");
  await showNextWeek(page);
  const description = `Interna ${Date.now().toString(36)}`;
  const modal = await newActivity(page, addDays(NEXT_MONDAY, 1), "09:00");
  await chooseActionType(page, modal, "Actividad interna");
  await modal.getByRole("combobox", { name: /^Tipo de actividad/ }).click();
  await page.getByRole("option", { name: "CI – Capacitación interna" }).click();
  // Nothing an internal title does not carry.
  await expect(modal.getByTestId("owner-picker")).toHaveCount(0);
  await expect(modal.getByRole("combobox", { name: /^Producto/ })).toHaveCount(0);
  await modal.getByLabel("Descripción").fill(description);
  await modal.getByRole("button", { name: "Guardar" }).click();
  await expect(page.getByText("Todas las actividades se agregaron correctamente")).toBeVisible();

  await eventOf(page, description).click();
  await expect(modal.getByRole("combobox", { name: /^Tipo de actividad/ })).toContainText("CI – Capacitación interna");
  await modal.getByRole("button", { name: "Cancelar" }).click();
});

test("the project picker offers current projects with their state; an activity on a cancelled one still shows it", async ({
  page,
  request,
}) => {
  await signIn(page, "operator");
  type Project = { id: number; project_code: string; name: string; state: string };
  const archived = (await api<{ projects: Project[] }>(page, 'projects?per_page=all&by_status=["cancelado","terminado"]'))
    .projects;
  const current = (await api<{ projects: Project[] }>(page, "projects?per_page=all&by_status=vigentes")).projects;
  const cancelled = archived.find((p) => p.state === "cancelado");
  const finished = archived.find((p) => p.state === "terminado");
  const running = current.find((p) => p.state === "en_ejecucion");
  if (!cancelled || !finished || !running) throw new Error("demo data lacks a cancelled, finished or running project");

  await showNextWeek(page);
  const modal = await newActivity(page, addDays(NEXT_MONDAY, 2), "09:00");
  await expect(modal.getByRole("combobox", { name: ACTION_TYPE })).toContainText("Proyecto");
  const picker = modal.getByTestId("project-picker").getByRole("combobox");
  for (const gone of [cancelled, finished]) {
    await picker.fill(gone.project_code);
    await expect(page.getByText("Sin resultados")).toBeVisible();
  }
  await picker.fill(running.project_code);
  const option = page.getByRole("option", { name: new RegExp(running.project_code) });
  await expect(option).toContainText("En Ejecución");
  await option.click();
  await expect(modal.getByText("Estado del proyecto: En Ejecución")).toBeVisible();
  await modal.getByRole("button", { name: "Cancelar" }).click();

  // An activity logged on a project that was cancelled since: a cancelled project takes no new time, so an
  // administrator reactivates it, the activity is logged, and the project is cancelled again.
  const session = await request.post("/api/v1/sessions", { data: { email: ACCOUNTS.admin, password: DEMO_PASSWORD } });
  const token = (await session.json()).token as string;
  const transition = async (event: string) => {
    const res = await request.post(`/api/v1/projects/${cancelled.id}/aasm_transition`, {
      headers: { authorization: `Bearer ${token}` },
      data: { project: { event, audit_comment: "Prueba del formulario de actividades" } },
    });
    expect(res.status(), await res.text()).toBe(200);
  };
  await transition("reactivar");
  const description = `Cancelado ${Date.now().toString(36)}`;
  const created = await page.evaluate(
    async ({ project, date, description }) => {
      const res = await fetch("/api/v1/activities", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({
          activity: {
            action_type: "project",
            project_id: project,
            activity_type_catalog_id: 3,
            description,
            begins_at: `${date}T18:00:00.000Z`,
            ends_at: `${date}T19:00:00.000Z`,
          },
        }),
      });
      return res.status;
    },
    { project: cancelled.id, date: addDays(NEXT_MONDAY, 3), description },
  );
  expect(created).toBe(201);
  await transition("cancelar");
  await page.reload();
  await showNextWeek(page);
  await eventOf(page, description).click();
  await expect(modal.getByTestId("project-picker").getByRole("combobox")).toHaveValue(
    `${cancelled.project_code} – ${cancelled.name}`,
  );
  await expect(modal.getByText("Estado del proyecto: Cancelado")).toBeVisible();
  await modal.getByRole("button", { name: "Cancelar" }).click();
});

/** Another person, signed in on their own browser context, changes a product's selectability. */
async function adminSetsSelectable(browser: Browser, productName: string, selectable: boolean) {
  const context = await browser.newContext();
  const admin = await context.newPage();
  await signIn(admin, "admin");
  const status = await admin.evaluate(
    async ({ name, selectable }) => {
      const list = await (await fetch(`/api/v1/products?per_page=all&search=${encodeURIComponent(name)}`)).json();
      const product = list.products.find((p: { name: string }) => p.name === name);
      const res = await fetch(`/api/v1/products/${product.id}`, {
        method: "PUT",
        headers: { "content-type": "application/json", "if-match": `"${product.lock_version}"` },
        body: JSON.stringify({ product: { is_selectable: selectable } }),
      });
      return res.status;
    },
    { name: productName, selectable },
  );
  expect(status).toBe(200);
  await context.close();
}

test("a refused save keeps what was typed and shows the reason under its field", async ({ page, browser }) => {
  await signIn(page, "operator");
  const { client, products } = await clientWithCatalogue(page);
  await showNextWeek(page);
  const description = `Rechazada ${Date.now().toString(36)}`;
  const modal = await newActivity(page, addDays(NEXT_MONDAY, 4), "09:00");
  await chooseActionType(page, modal, "Soporte");
  await pickOwner(page, modal, client.name);
  const product = modal.getByRole("combobox", { name: /^Producto/ });
  await product.click();
  await page.getByRole("option", { name: products[0], exact: true }).click();
  await modal.getByLabel("Descripción").fill(description);

  // Meanwhile an administrator withdraws the product from activities.
  await adminSetsSelectable(browser, products[0], false);
  try {
    await modal.getByRole("button", { name: "Guardar" }).click();
    const productField = modal.locator(".MuiFormControl-root", { has: page.getByRole("combobox", { name: /^Producto/ }) });
    await expect(productField.getByText("no se puede seleccionar para actividades")).toBeVisible();
    await expect(modal).toBeVisible();
    await expect(modal.getByLabel("Descripción")).toHaveValue(description);
    await expect(modal.getByTestId("owner-picker").getByRole("combobox")).toHaveValue(client.name);
    await expect(product).toContainText(products[0]);
  } finally {
    await adminSetsSelectable(browser, products[0], true);
  }
  // Saved once the product is back.
  await modal.getByRole("button", { name: "Guardar" }).click();
  await expect(page.getByText("Todas las actividades se agregaron correctamente")).toBeVisible();
  await expect(modal).toBeHidden();
});

test("a closed week's activity opens read-only with its reason", async ({ page }) => {
  await signIn(page, "operator");
  await expect(page.getByTestId("week-calendar")).toBeVisible();
  // Weeks older than four are closed in the demo data.
  for (let i = 0; i < 6; i++) await page.locator(".fc-prev-button").click();
  const locked = page.locator(".fc-timegrid-event.sia-locked").first();
  await expect(locked).toBeVisible();
  await locked.click();
  const modal = page.getByTestId("activity-modal");
  await expect(modal.getByText("Actividad (solo lectura)")).toBeVisible();
  await expect(modal.getByTestId("activity-read-only")).toHaveText(
    /La actividad está en un periodo cerrado|La semana está cerrada|El mes está cerrado/,
  );
  await expect(modal.getByRole("button", { name: "Guardar" })).toHaveCount(0);
  await expect(modal.getByRole("button", { name: "Eliminar" })).toHaveCount(0);
  await expect(modal.getByLabel("Descripción")).toBeDisabled();
  await expect(modal.getByRole("combobox", { name: ACTION_TYPE })).toHaveAttribute("aria-disabled", "true");
  await expect(modal.getByRole("button", { name: "Favorita" })).toBeDisabled();
});

test("times read and are typed as 24-hour HH:mm, whatever the browser's language", async ({ page }) => {
  await signIn(page, "operator");
  await showNextWeek(page);
  await scrollCalendarTo(page, "14:00");
  const modal = await newActivity(page, addDays(NEXT_MONDAY, 2), "15:00");
  const start = modal.getByLabel("Inicio");
  const end = modal.getByLabel("Fin");
  // es-MX's own time input shows «03:00 p.m.»; SIA shows the firm's 24-hour clock.
  await expect(start).toHaveValue("15:00");
  await expect(end).toHaveValue("16:00");
  await end.fill("17:30");
  await expect(end).toHaveValue("17:30");
  // Half a time stays while typed; leaving it says how to write one and puts the good time back.
  await start.fill("25:");
  await expect(start).toHaveValue("25:");
  await modal.getByLabel("Descripción").click();
  await expect(modal.getByText("Escriba la hora como HH:mm, de 00:00 a 23:59")).toBeVisible();
  await expect(start).toHaveValue("15:00");
  await start.fill("9:15");
  await modal.getByLabel("Descripción").click();
  await expect(start).toHaveValue("09:15");
  await expect(end).toHaveValue("17:30");
});
