import { expect, test } from "@playwright/test";
import { expectNoEnglish, signIn } from "./fixtures";

test("an administrator creates a project type with its colour and finds it", async ({ page }) => {
  const name = `Migración ${Date.now().toString(36)}`;
  await signIn(page, "admin");
  await page.getByRole("menuitem", { name: "Tipos de proyecto", exact: true }).click();
  await expect(page).toHaveURL(/\/app\/project_types$/);
  await expectNoEnglish(page);

  await page.getByRole("link", { name: "Crear" }).click();
  await expect(page).toHaveURL(/\/app\/project_types\/new$/);
  await page.getByLabel("Nombre", { exact: true }).fill(name);
  await page.getByLabel("Color").fill("rojo");
  await page.getByRole("button", { name: "Guardar" }).click();
  await expect(page.getByText("debe ser un color con el formato #RRGGBB").first()).toBeVisible();
  await page.getByLabel("Color").fill("#1a2b3c");
  await page.getByRole("button", { name: "Guardar" }).click();
  await expect(page).toHaveURL(/\/app\/project_types(\?.*)?$/);

  await page.getByPlaceholder("Buscar por nombre").fill(name);
  const row = page.getByRole("row").filter({ hasText: name });
  await expect(row).toContainText("#1A2B3C");
  await expectNoEnglish(page);
  // Wait for the filtered list to settle (the search is debounced) before clicking the row.
  await expect(page.getByText("1–1 de 1")).toBeVisible();
  await page.getByRole("cell", { name, exact: true }).click();
  await expect(page).toHaveURL(/\/app\/project_types\/update\/\d+$/);
  await expect(page.getByLabel("Color")).toHaveValue("#1A2B3C");
});
