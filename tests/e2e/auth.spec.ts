import { expect, test } from "@playwright/test";
import { APP_VERSION } from "../../src/core/constants";
import { ACCOUNTS, DEMO_PASSWORD, expectNoEnglish, signIn, signOut } from "./fixtures";

const EVERYONE = [
  "Actividades",
  "Clientes",
  "Prospectos",
  "Proyectos",
  "Empleados",
  "Asignaciones",
  "Días festivos",
  "Catálogo de productos",
  "Tipos de proyecto",
  "Tipos de actividad",
  "Reportes",
  "Historial de cambios",
  "Tablero",
];
const MENUS = {
  operator: EVERYONE,
  finance: [...EVERYONE, "Cotizaciones", "Espacios de trabajo", "Licencias"],
  admin: [
    ...EVERYONE,
    "Cotizaciones",
    "Espacios de trabajo",
    "Licencias",
    "Grupos de clientes",
    "Usuarios",
    "Puestos",
    "Configuración",
    "Correo y tareas",
    "Integraciones",
    "Avisos",
    "Capacidad",
    // The demo administrator leads Desarrollo (and administrators review everyone's weeks).
    "Semanas por revisar",
  ],
};

test("a wrong password is refused in Spanish", async ({ page }) => {
  await page.goto("/sign_in");
  await page.getByLabel("Correo electrónico").fill(ACCOUNTS.operator);
  await page.getByLabel("Contraseña").fill("no-es-la-contraseña");
  await page.getByRole("button", { name: "Entrar" }).click();
  await expect(page.getByText("Credenciales Invalidas")).toBeVisible();
  await expect(page).toHaveURL(/\/sign_in$/);
});

for (const role of ["admin", "operator", "finance"] as const) {
  test(`${role} sees the menu of its role`, async ({ page }) => {
    await signIn(page, role);
    const items = page.getByRole("menuitem");
    await expect(items.first()).toBeVisible();
    // «Semanas por revisar» comes with the menu's counters, read after the menu is drawn.
    if (MENUS[role].includes("Semanas por revisar"))
      await expect(page.getByRole("menuitem", { name: "Semanas por revisar" })).toBeVisible();
    // A counter on an entry's icon (unread messages, weeks waiting) is not part of its name.
    const texts = (await items.allInnerTexts()).map((t) => t.replace(/^\s*\d+\s*/, "").trim()).filter(Boolean);
    expect([...texts].sort()).toEqual([...MENUS[role]].sort());
    await expect(page.getByTestId("app-version")).toHaveText(`v${APP_VERSION}`);
    await expectNoEnglish(page);
  });
}

test("the root and /app go to the activities page; signed-out users go to /sign_in", async ({ page }) => {
  // A signed-out visit asks who is signed in once (and the page's preload), not once per check.
  let asked = 0;
  page.on("request", (request) => {
    if (request.url().endsWith("/api/v1/sessions/current")) asked++;
  });
  await page.goto("/app/activities");
  await expect(page).toHaveURL(/\/sign_in$/);
  await page.waitForLoadState("networkidle");
  expect(asked).toBeLessThanOrEqual(2);
  await page.goto("/");
  await expect(page).toHaveURL(/\/sign_in$/);
  await signIn(page, "operator");
  await page.goto("/app");
  await expect(page).toHaveURL(/\/app\/activities$/);
  await expect(page.getByTestId("week-calendar")).toBeVisible();
});

test("a 401 from the API sends you to /sign_in with 'Sin Autenticación'", async ({ page, context }) => {
  await signIn(page, "admin");
  // Let the timesheet finish loading its week first, so the 401 comes from the click below.
  await expect(page.getByTestId("week-calendar")).toBeVisible();
  await page.waitForLoadState("networkidle");
  await context.clearCookies();
  await page.getByRole("menuitem", { name: "Clientes", exact: true }).click();
  await expect(page).toHaveURL(/\/sign_in$/);
  await expect(page.getByText("Sin Autenticación")).toBeVisible();
});

test("the server refuses (403) what the role lacks, and the session stays", async ({ page }) => {
  await signIn(page, "operator");
  await page.goto("/app/clients/new");
  // The screen is hidden from Operador; the server refuses the call too.
  const status = await page.evaluate(
    async () =>
      (
        await fetch("/api/v1/clients", {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ client: { name: "x" } }),
        })
      ).status,
  );
  expect(status).toBe(403);
  await page.goto("/app/activities");
  await expect(page).toHaveURL(/\/app\/activities$/);
});

test("signing out ends the session", async ({ page }) => {
  await signIn(page, "finance");
  await signOut(page);
  const status = await page.evaluate(async () => (await fetch("/api/v1/sessions/current")).status);
  expect(status).toBe(401);
  expect(DEMO_PASSWORD.length).toBeGreaterThan(0);
});

test("a link opened signed out (an e-mail's week or project) is where signing in lands", async ({ page }) => {
  // The reminder's link: a past week of the timesheet.
  const monday = "2026-03-02";
  await page.goto(`/app/activities?semana=${monday}`);
  await expect(page).toHaveURL(/\/sign_in$/);
  await page.getByLabel("Correo electrónico").fill(ACCOUNTS.operator);
  await page.getByLabel("Contraseña").fill(DEMO_PASSWORD);
  await page.getByRole("button", { name: "Entrar" }).click();
  await expect(page).toHaveURL(new RegExp(`/app/activities\\?semana=${monday}$`));
  await expect(page.locator(`.fc-timegrid-col[data-date="${monday}"]`)).toBeVisible();
  await signOut(page);

  // The budget alert's link: a project's page.
  await page.goto("/app/projects/1");
  await expect(page).toHaveURL(/\/sign_in$/);
  await page.getByLabel("Correo electrónico").fill(ACCOUNTS.admin);
  await page.getByLabel("Contraseña").fill(DEMO_PASSWORD);
  await page.getByRole("button", { name: "Entrar" }).click();
  await expect(page).toHaveURL(/\/app\/projects\/1$/);
});
