import { readFileSync } from "node:fs";
import { expect, type Page, test } from "@playwright/test";
import { expectNoEnglish, fillDate, signIn } from "./fixtures";

async function pick(page: Page, label: string, option: string) {
  const input = page.getByRole("combobox", { name: label, exact: true });
  await input.click();
  await input.fill(option);
  await page.getByRole("option", { name: option, exact: true }).click();
}

test("a licence: defaults, the Siglo CD key, save, edit, script download and the list filters", async ({ page }) => {
  const entity = `Entidad de prueba ${Date.now().toString(36)}`;
  await signIn(page, "admin");
  const client = await page.evaluate(
    async () => (await (await fetch("/api/v1/clients?per_page=1&by_column[column]=name")).json()).clients[0].name as string,
  );
  await page.getByRole("menuitem", { name: "Licencias", exact: true }).click();
  await expect(page).toHaveURL(/\/app\/app_licenses$/);
  await expectNoEnglish(page);

  await page.getByRole("link", { name: "Crear" }).click();
  await expect(page).toHaveURL(/\/app\/app_licenses\/new$/);
  // SPEC §9 defaults.
  await expect(page.getByLabel("Ambiente")).toContainText("Producción");
  await expect(page.getByLabel("Tipo de licencia")).toContainText("Renta");
  await expect(page.getByLabel("Número de licencias")).toHaveValue("1");
  for (const module of ["Emisión", "Recepción", "Conciliación"]) await expect(page.getByLabel(module)).not.toBeChecked();
  const key = page.getByLabel("Clave de licencia de Mesa Electrónica");
  await expect(key).toHaveCount(0);

  await pick(page, "Cliente", client);
  await pick(page, "Producto", "Siglo CD");
  await expect(key).toBeVisible();
  await key.check();
  // Another product: the key disappears and is reset.
  await pick(page, "Producto", "SICAJAS");
  await expect(key).toHaveCount(0);
  await pick(page, "Producto", "Siglo CD");
  await expect(key).not.toBeChecked();
  await key.check();

  await page.getByLabel("Nombre de la entidad").fill(entity);
  await page.getByLabel("RFC de la entidad").fill("abc010101ab1");
  await page.getByLabel("Tipo de licencia").click();
  await expect(page.getByRole("option", { name: "Usuarios concurrentes" })).toBeVisible();
  await expect(page.getByRole("option", { name: "Usuarios nominales" })).toBeVisible();
  await page.getByRole("option", { name: "Usuarios nominales" }).click();
  await page.getByLabel("Emisión").check();
  await page.getByLabel("Conciliación").check();
  // The validity is the app's DD/MM/AAAA picker, typed with the keyboard.
  await fillDate(page, "Vigencia", "2030-06-30");
  await expectNoEnglish(page);
  await page.getByRole("button", { name: "Guardar" }).click();

  await expect(page).toHaveURL(/\/app\/app_licenses\/show\/\d+$/);
  const main = page.locator("#main-content");
  await expect(main.getByText(entity)).toBeVisible();
  await expect(main.getByText("ABC010101AB1")).toBeVisible();
  await expect(main.getByText("Usuarios nominales")).toBeVisible();
  await expect(main.getByText("Emisión")).toBeVisible();
  await expect(main.getByText("Conciliación")).toBeVisible();
  await expectNoEnglish(page);
  const id = page.url().split("/").pop();
  const saved = await page.evaluate(async (id) => (await (await fetch(`/api/v1/app_licenses/${id}`)).json()).app_license, id);
  expect(saved).toMatchObject({
    environment: "prod",
    num_licenses: 1,
    license_type: "named_users",
    has_mesa_electronica_license_key: true,
    modules: ["Emission", "Conciliation"],
  });
  expect(String(saved.license_valid_until)).toMatch(/^2030-06-30/);

  // The SQL script downloads as a .sql file.
  const download = page.waitForEvent("download");
  await page.getByRole("button", { name: "Descargar script SQL" }).click();
  const file = await download;
  expect(file.suggestedFilename()).toMatch(/\.sql$/);
  expect(readFileSync(await file.path(), "utf8").length).toBeGreaterThan(0);

  // Edit: moving to another product resets the key on save.
  await page.getByRole("link", { name: "Editar" }).click();
  await expect(page).toHaveURL(new RegExp(`/app/app_licenses/update/${id}$`));
  await expect(page.getByLabel("Clave de licencia de Mesa Electrónica")).toBeChecked();
  await pick(page, "Producto", "SICAJAS");
  await expect(page.getByLabel("Clave de licencia de Mesa Electrónica")).toHaveCount(0);
  await page.getByRole("button", { name: "Guardar" }).click();
  await expect(page).toHaveURL(new RegExp(`/app/app_licenses/show/${id}$`));
  const edited = await page.evaluate(async (id) => (await (await fetch(`/api/v1/app_licenses/${id}`)).json()).app_license, id);
  expect(edited).toMatchObject({ product_name: "SICAJAS", has_mesa_electronica_license_key: false });

  // The list finds it by search and by the client, product, type and status filters, each reached through
  // «Agregar filtro» on the screen.
  await page.getByRole("menuitem", { name: "Licencias", exact: true }).click();
  await page.getByPlaceholder("Buscar por entidad o RFC").fill(entity);
  await expect(page.getByRole("cell", { name: entity })).toBeVisible();
  await expect(page.getByText("1–1 de 1")).toBeVisible();
  const addFilter = async (name: string) => {
    await page.getByRole("button", { name: "Agregar filtro" }).click();
    await page.getByRole("menuitemcheckbox", { name, exact: true }).click();
  };
  const choose = async (label: RegExp, option: string) => {
    await page.getByRole("combobox", { name: label }).click();
    await page.getByRole("option", { name: option, exact: true }).click();
  };
  await addFilter("Tipo de licencia");
  await choose(/^Tipo de licencia/, "Renta");
  await expect(page.getByText("No se encontraron")).toBeVisible();
  await choose(/^Tipo de licencia/, "Usuarios nominales");
  await expect(page.getByRole("cell", { name: entity })).toBeVisible();
  await addFilter("Estado");
  await choose(/^Estado/, "Inactiva");
  await expect(page.getByText("No se encontraron")).toBeVisible();
  await choose(/^Estado/, "Activa");
  await expect(page.getByRole("cell", { name: entity })).toBeVisible();
  await addFilter("Producto");
  await choose(/^Producto/, "Siglo CD");
  await expect(page.getByText("No se encontraron")).toBeVisible();
  await choose(/^Producto/, "SICAJAS");
  await expect(page.getByRole("cell", { name: entity })).toBeVisible();
  await addFilter("Cliente");
  await pick(page, "Cliente", client);
  await expect(page.getByRole("cell", { name: entity })).toBeVisible();
  await expect(page.getByText("1–1 de 1")).toBeVisible();
  expect(new URL(page.url()).searchParams.get("filter")).toContain('"by_license_type":"named_users"');
  await expectNoEnglish(page);
});

test("Operador has no licences section", async ({ page }) => {
  await signIn(page, "operator");
  await expect(page.getByRole("menuitem", { name: "Licencias", exact: true })).toHaveCount(0);
});
