import { expect, test } from "@playwright/test";
import { expectNoEnglish, signIn } from "./fixtures";

test("an administrator creates a position from the Puestos menu and finds it in the list", async ({ page }) => {
  const suffix = Date.now().toString(36);
  const name = `Diseñador de Experiencia ${suffix}`;
  await signIn(page, "admin");
  await page.getByRole("menuitem", { name: "Puestos", exact: true }).click();
  await expect(page).toHaveURL(/\/app\/employee_positions$/);
  await expectNoEnglish(page);
  await page.getByRole("link", { name: "Crear" }).click();
  await expect(page).toHaveURL(/\/app\/employee_positions\/new$/);
  await page.getByLabel("Nombre", { exact: true }).fill(name);
  await page.getByRole("button", { name: "Guardar" }).click();
  await expect(page.getByText("Elemento guardado")).toBeVisible();
  await expect(page).toHaveURL(/\/app\/employee_positions(\?.*)?$/);
  await page.getByPlaceholder("Buscar por nombre").fill(`disenador de experiencia ${suffix}`);
  await expect(page.getByText("1–1 de 1")).toBeVisible();
  await page.getByRole("cell", { name }).click();
  await expect(page).toHaveURL(/\/app\/employee_positions\/update\/\d+$/);
  await page.getByLabel("Nombre", { exact: true }).fill(`${name} II`);
  await page.getByRole("button", { name: "Guardar" }).click();
  await expect(page).toHaveURL(/\/app\/employee_positions(\?.*)?$/);
  await expectNoEnglish(page);
});

test("Operador has no Puestos entry", async ({ page }) => {
  await signIn(page, "operator");
  await expect(page.getByRole("menuitem", { name: "Clientes", exact: true })).toBeVisible();
  await expect(page.getByRole("menuitem", { name: "Puestos", exact: true })).toHaveCount(0);
});
