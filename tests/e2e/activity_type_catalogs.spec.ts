import { expect, test } from "@playwright/test";
import { ACTIVITY_TYPES } from "../../src/core/constants";
import { expectNoEnglish, signIn } from "./fixtures";

test("the 12 activity types of SPEC §9 are listed and an administrator adds one", async ({ page }) => {
  await signIn(page, "admin");
  await page.getByRole("menuitem", { name: "Tipos de actividad", exact: true }).click();
  await expect(page).toHaveURL(/\/app\/activity_type_catalogs$/);
  await expect(page.getByText("1–10 de 12")).toBeVisible();
  for (const type of ACTIVITY_TYPES.slice(0, 10))
    await expect(page.getByRole("cell", { name: type.code, exact: true })).toBeVisible();
  await page.getByRole("button", { name: "Página 2" }).click();
  for (const type of ACTIVITY_TYPES.slice(10))
    await expect(page.getByRole("cell", { name: type.code, exact: true })).toBeVisible();
  await expectNoEnglish(page);

  await page.getByRole("link", { name: "Crear" }).click();
  await expect(page).toHaveURL(/\/app\/activity_type_catalogs\/new$/);
  await page.getByRole("textbox", { name: "Clave" }).fill("qa");
  await page.getByLabel("Nombre", { exact: true }).fill("Aseguramiento de calidad");
  await page.getByRole("button", { name: "Guardar" }).click();
  await expect(page).toHaveURL(/\/app\/activity_type_catalogs(\?.*)?$/);
  await page.getByPlaceholder("Buscar por clave o nombre").fill("Aseguramiento");
  await expect(page.getByRole("row").filter({ hasText: "Aseguramiento de calidad" })).toContainText("QA");
  await expectNoEnglish(page);
});
