import { expect, test } from "@playwright/test";
import { addDays, businessToday } from "../../src/core/week";
import { expectNoEnglish, signIn } from "./fixtures";

test("an administrator changes the default customer in the settings form", async ({ page }) => {
  await signIn(page, "admin");
  const other = await page.evaluate(async () => {
    const settings = (await (await fetch("/api/v1/app_settings/1")).json()).app_setting;
    const clients = (await (await fetch("/api/v1/clients?per_page=5&by_column[column]=name")).json()).clients as {
      id: number;
      name: string;
    }[];
    return clients.find((c) => c.id !== settings.default_customer_id)!;
  });
  await page.getByRole("menuitem", { name: "Configuración", exact: true }).click();
  await expect(page).toHaveURL(/\/app\/app_settings$/);
  await expectNoEnglish(page);
  const customer = page.getByRole("combobox", { name: "Cliente predeterminado", exact: true });
  await expect(customer).not.toHaveValue("");
  await expect(page.getByRole("combobox", { name: "Espacio de trabajo predeterminado", exact: true })).toBeVisible();
  await expect(page.getByRole("combobox", { name: "Cliente excluido de soporte", exact: true })).toBeVisible();
  await customer.click();
  await customer.fill(other.name);
  await page.getByRole("option", { name: other.name, exact: true }).click();
  await page.getByRole("button", { name: "Guardar" }).click();
  await expect(page.getByText("Elemento guardado")).toBeVisible();
  const saved = await page.evaluate(async () => (await (await fetch("/api/v1/app_settings/1")).json()).app_setting);
  expect(saved.default_customer_id).toBe(other.id);
  await page.reload();
  await expect(customer).toHaveValue(other.name);
});

test("Operador has no settings entry", async ({ page }) => {
  await signIn(page, "operator");
  await expect(page.getByRole("menuitem", { name: "Configuración", exact: true })).toHaveCount(0);
});

test("hours on future days: off by default, an administrator allows them in the settings and turns them off again", async ({
  page,
}) => {
  // Three saves and two reads of the form: more than a plain walk's time on a loaded machine.
  test.slow();
  await signIn(page, "admin");
  const day = addDays(businessToday(), 1);
  // After the demo's working day (it ends at 18:00), so it never clashes with the seeded activities.
  const logTomorrow = () =>
    page.evaluate(async (date) => {
      const res = await fetch("/api/v1/activities", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({
          activity: {
            action_type: "internal",
            description: "Trabajo de mañana",
            begins_at: `${date}T19:00:00-06:00`,
            ends_at: `${date}T20:00:00-06:00`,
          },
        }),
      });
      return { status: res.status, body: await res.json() };
    }, day);
  const refused = await logTomorrow();
  expect(refused.status).toBe(422);
  expect(refused.body.errors.base[0]).toContain("No se pueden registrar horas en días futuros");

  await page.getByRole("menuitem", { name: "Configuración", exact: true }).click();
  const allow = page.getByLabel("Permitir registrar horas en días futuros");
  await expect(allow).not.toBeChecked();
  await expect(page.getByText("las vacaciones siempre pueden planearse por adelantado")).toBeVisible();
  await allow.check();
  await page.getByRole("button", { name: "Guardar" }).click();
  await expect(page.getByText("Elemento guardado")).toBeVisible();

  const allowed = await logTomorrow();
  expect(allowed.status).toBe(201);
  await page.evaluate(async (id) => fetch(`/api/v1/activities/${id}`, { method: "DELETE" }), allowed.body.activity.id);

  await page.reload();
  await expect(allow).toBeChecked();
  await allow.uncheck();
  await page.getByRole("button", { name: "Guardar" }).click();
  await expect(page.getByText("Elemento guardado")).toBeVisible();
  await expect(allow).not.toBeChecked();
  expect((await logTomorrow()).status).toBe(422);
});
