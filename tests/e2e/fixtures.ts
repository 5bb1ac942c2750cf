/** Sign-in helpers and checks shared by the e2e tests. */
import { expect, type Page, test } from "@playwright/test";
import english from "ra-language-english";
import { es } from "../../src/admin/i18n/es";

export const DEMO_PASSWORD = process.env.SIA_DEMO_PASSWORD ?? "sia-demo";
export const ACCOUNTS = {
  admin: "admin@sia.local",
  operator: "operador@sia.local",
  finance: "finanzas@sia.local",
} as const;

/** Signs in through the real sign-in page. */
export async function signIn(page: Page, role: keyof typeof ACCOUNTS) {
  await page.goto("/sign_in");
  await page.getByLabel("Correo electrónico").fill(ACCOUNTS[role]);
  await page.getByLabel("Contraseña").fill(DEMO_PASSWORD);
  await page.getByRole("button", { name: "Entrar" }).click();
  await expect(page).toHaveURL(/\/app\/activities$/);
}

/** Signs out through the user menu, as a person would. */
export async function signOut(page: Page) {
  await page
    .getByRole("button", { name: /perfil|usuario|cuenta/i })
    .or(
      page
        .locator("button[aria-label]")
        .filter({ has: page.locator("svg") })
        .last(),
    )
    .first()
    .click();
  await page.getByRole("menuitem", { name: "Cerrar sesión" }).click();
  await expect(page).toHaveURL(/\/sign_in$/);
}

function flatten(value: unknown, prefix = "", out: Record<string, string> = {}) {
  if (typeof value === "string") out[prefix] = value;
  else if (value && typeof value === "object") {
    for (const [k, v] of Object.entries(value)) flatten(v, prefix ? `${prefix}.${k}` : k, out);
  }
  return out;
}

/** React-admin's English texts that differ from ours: none may appear on a page. */
const spanish = flatten(es);
export const ENGLISH_TEXTS = Object.entries(flatten(english))
  .filter(([key, text]) => spanish[key] !== text)
  .flatMap(([, text]) => text.split("||||").map((t) => t.trim()))
  .filter((text) => !text.includes("%{") && text.length >= 4 && /[a-z]/i.test(text));

export async function expectNoEnglish(page: Page) {
  // biome-ignore lint/performance/useDomNodeTextContent: Playwright's innerText (what the user sees), not the DOM property.
  const body = await page.locator("body").innerText();
  const found = ENGLISH_TEXTS.filter((text) =>
    new RegExp(`(^|[^\\p{L}])${text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}($|[^\\p{L}])`, "u").test(body),
  );
  expect(found, `English react-admin texts on ${page.url()}`).toEqual([]);
}

/** Picks the drive folder through the form's folder picker, creating it in the dialog. */
export async function pickNewFolder(page: Page, name: string) {
  await page.getByRole("button", { name: "Elegir carpeta" }).click();
  const dialog = page.getByRole("dialog", { name: "Elegir carpeta del drive" });
  await dialog.getByLabel("Nueva carpeta").fill(name);
  await dialog.getByRole("button", { name: "Crear", exact: true }).click();
  await expect(dialog.getByRole("navigation", { name: "Ruta" })).toContainText(name);
  await dialog.getByRole("button", { name: "Seleccionar esta carpeta" }).click();
  await expect(page.getByTestId("drive-folder-url")).toContainText(name);
}

/**
 * Types a date (YYYY-MM-DD, or YYYY-MM-DDTHH:mm) into one of the app's MUI X pickers, with the keyboard as a
 * person would: the field is a group of sections (día, mes, año, hora, minutos) that take digits in turn.
 */
export async function fillDate(page: Page, label: string, value: string) {
  const field = page.getByRole("group", { name: label, exact: true });
  const [date, time] = value.split("T");
  const [year, month, day] = date.split("-");
  await field.getByRole("spinbutton", { name: "Día" }).click();
  await page.keyboard.type(`${day}${month}${year}${time ? time.replace(":", "") : ""}`);
  await expect(field.getByRole("spinbutton", { name: "Año" })).toHaveText(year);
}

/** The DD/MM/AAAA (and HH:mm) a picker shows, read from its sections. */
export async function pickedDate(page: Page, label: string) {
  const sections = await page.getByRole("group", { name: label, exact: true }).getByRole("spinbutton").allInnerTexts();
  const [day, month, year, ...time] = sections.map((s) => s.trim());
  return `${day}/${month}/${year}${time.length ? ` ${time.join(":")}` : ""}`;
}

/**
 * A project in Requerimiento created through the API by the signed-in page (an administrator), on the first
 * client, project type and product: a record no other walk touches.
 */
export async function createProject(page: Page, name: string): Promise<{ id: number; name: string }> {
  return page.evaluate(async (projectName) => {
    const first = async (path: string, key: string) => (await (await fetch(`/api/v1/${path}?per_page=1`)).json())[key][0].id;
    const res = await fetch("/api/v1/projects", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({
        project: {
          name: projectName,
          client_id: await first("clients", "clients"),
          project_type_catalog_id: await first("project_types", "project_types"),
          product_catalog_id: await first("products", "products"),
          project_date: "2030-01-15",
        },
      }),
    });
    return (await res.json()).project as { id: number; name: string };
  }, name);
}

/**
 * Turns on "Permitir registrar horas en días futuros" before this file's walks, as the administrator in a
 * request context of its own: the walks that log weeks ahead of today (where the demo data never is) need
 * it, since the setting is off by default.
 */
export function allowFutureActivities() {
  test.beforeAll(async ({ playwright }, info) => {
    const request = await playwright.request.newContext({ baseURL: info.project.use.baseURL });
    const session = await request.post("/api/v1/sessions", { data: { email: ACCOUNTS.admin, password: DEMO_PASSWORD } });
    const token = (await session.json()).token as string;
    const headers = { authorization: `Bearer ${token}` };
    // An update names the version it read (lost updates, decision 023).
    const read = await request.get("/api/v1/app_settings/1", { headers });
    const { lock_version } = (await read.json()).app_setting as { lock_version: number };
    const res = await request.put("/api/v1/app_settings/1", {
      headers,
      data: { app_setting: { allow_future_activities: true, lock_version } },
    });
    expect(res.status()).toBe(200);
    await request.delete("/api/v1/sessions", { headers });
    await request.dispose();
  });
}
