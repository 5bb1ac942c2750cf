import { expect, test } from "@playwright/test";
import { expectNoEnglish, pickNewFolder, signIn } from "./fixtures";

test("an administrator creates a prospect, finds it, edits and deletes it", async ({ page }) => {
  const name = `Panadería La Espiga ${Date.now().toString(36)}`;
  await signIn(page, "admin");
  await page.getByRole("menuitem", { name: "Prospectos", exact: true }).click();
  await expect(page).toHaveURL(/\/app\/prospects$/);
  await expectNoEnglish(page);

  await page.getByRole("link", { name: "Crear" }).click();
  await expect(page).toHaveURL(/\/app\/prospects\/new$/);
  await page.getByLabel("Nombre", { exact: true }).fill(name);
  await page.getByRole("button", { name: "Guardar" }).click();
  await expect(page).toHaveURL(/\/app\/prospects\/\d+$/);
  const main = page.locator("#main-content");
  await expect(main.getByText(name, { exact: true })).toBeVisible();
  // Conversion to client (tests/e2e/quotations.spec.ts walks it): offered to administrators.
  await expect(page.getByRole("button", { name: "Convertir a cliente" })).toBeEnabled();
  await expectNoEnglish(page);
  const id = page.url().split("/").pop();

  await page.getByRole("menuitem", { name: "Prospectos", exact: true }).click();
  await page.getByPlaceholder("Buscar por nombre").fill(name);
  await expect(page.getByRole("cell", { name, exact: true })).toBeVisible();
  await expect(page.getByText("1–1 de 1")).toBeVisible();
  await page.getByRole("cell", { name, exact: true }).click();
  await expect(page).toHaveURL(new RegExp(`/app/prospects/${id}$`));

  await page.getByRole("link", { name: "Editar" }).click();
  await expect(page).toHaveURL(new RegExp(`/app/prospects/update/${id}$`));
  const folder = `Prospectos e2e ${Date.now().toString(36)}`;
  await pickNewFolder(page, folder);
  await page.getByRole("button", { name: "Guardar" }).click();
  await expect(page).toHaveURL(new RegExp(`/app/prospects/${id}$`));
  // The folder reads decoded (tests/e2e/drive-paths.spec.ts).
  const link = main.getByRole("link", { name: new RegExp(folder) });
  await expect(link.first()).toHaveAttribute("target", "_blank");

  await page.goto(`/app/prospects/update/${id}`);
  await page.getByRole("button", { name: "Eliminar" }).click();
  await page
    .getByRole("dialog")
    .getByRole("button", { name: /Confirmar|Eliminar|Sí/ })
    .click();
  await expect(page).toHaveURL(/\/app\/prospects(\?.*)?$/);
  await expect(page.getByRole("cell", { name })).toHaveCount(0);
});

test("Operador reads prospects without a create button", async ({ page }) => {
  await signIn(page, "operator");
  await page.getByRole("menuitem", { name: "Prospectos", exact: true }).click();
  await expect(page.getByRole("row").nth(1)).toBeVisible();
  await expect(page.getByRole("link", { name: "Crear" })).toHaveCount(0);
  await expectNoEnglish(page);
});
