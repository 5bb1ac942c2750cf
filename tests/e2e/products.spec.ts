import { expect, test } from "@playwright/test";
import { expectNoEnglish, signIn } from "./fixtures";

test("an administrator creates a product with its responsible and links, finds it and filters", async ({ page }) => {
  const tag = Date.now().toString(36);
  const name = `Timbrado Plus ${tag}`;
  await signIn(page, "admin");
  const employee = await page.evaluate(
    async () =>
      (await (await fetch("/api/v1/employees?per_page=1&is_active=true&by_column[column]=name")).json()).employees[0]
        .name as string,
  );
  await page.getByRole("menuitem", { name: "Catálogo de productos", exact: true }).click();
  await expect(page).toHaveURL(/\/app\/productCatalogs$/);
  await expectNoEnglish(page);

  await page.getByRole("link", { name: "Crear" }).click();
  await expect(page).toHaveURL(/\/app\/productCatalogs\/new$/);
  await page.getByLabel("Código", { exact: true }).fill(`TP-${tag}`);
  await page.getByLabel("Nombre", { exact: true }).fill(name);
  await page.getByLabel("ID de la aplicación").fill("APP-77");
  const responsible = page.getByRole("combobox", { name: "Responsable", exact: true });
  await responsible.click();
  await responsible.fill(employee);
  await page.getByRole("option", { name: employee, exact: true }).click();
  await page.getByLabel("Categoría").fill("Facturación");
  await page.getByLabel("Folleto", { exact: true }).fill("https://ejemplo.mx/folleto.pdf");
  await page.getByLabel("Formulario", { exact: true }).fill("javascript:alert(1)");
  await page.getByRole("button", { name: "Guardar" }).click();
  // Only http(s) addresses are accepted.
  await expect(page.getByText("no es una URL válida").first()).toBeVisible();
  await page.getByLabel("Formulario", { exact: true }).fill("https://ejemplo.mx/alta");
  await page.getByRole("button", { name: "Guardar" }).click();

  await expect(page).toHaveURL(/\/app\/productCatalogs\/\d+$/);
  const main = page.locator("#main-content");
  await expect(main.getByText(name, { exact: true })).toBeVisible();
  await expect(main.getByText(employee)).toBeVisible();
  const brochure = main.getByRole("link", { name: "https://ejemplo.mx/folleto.pdf" });
  await expect(brochure).toHaveAttribute("target", "_blank");
  await expect(brochure).toHaveAttribute("rel", /noopener/);
  await expect(main.getByRole("link", { name: "https://ejemplo.mx/alta" })).toHaveAttribute("target", "_blank");
  await expectNoEnglish(page);
  const id = page.url().split("/").pop();

  await page.getByRole("menuitem", { name: "Catálogo de productos", exact: true }).click();
  await page.getByPlaceholder("Buscar por nombre o código").fill(`tp-${tag}`);
  await expect(page.getByRole("cell", { name })).toBeVisible();
  await expect(page.getByText("1–1 de 1")).toBeVisible();
  await page.getByRole("cell", { name }).click();
  await expect(page).toHaveURL(new RegExp(`/app/productCatalogs/${id}$`));

  await page.getByRole("link", { name: "Editar" }).click();
  await expect(page).toHaveURL(new RegExp(`/app/productCatalogs/update/${id}$`));
  await page.getByLabel("Seleccionable en actividades").uncheck();
  await page.getByRole("button", { name: "Guardar" }).click();
  await expect(page).toHaveURL(new RegExp(`/app/productCatalogs/${id}$`));

  // Filter: not selectable + the search.
  await page.goto(`/app/productCatalogs?filter=${encodeURIComponent(JSON.stringify({ q: tag, selectable: true }))}`);
  await expect(page.getByText("No se encontraron")).toBeVisible();
  await page.goto(`/app/productCatalogs?filter=${encodeURIComponent(JSON.stringify({ q: tag, selectable: false }))}`);
  await expect(page.getByRole("cell", { name })).toBeVisible();
  await expectNoEnglish(page);
});

test("Operador reads the catalogue without editing", async ({ page }) => {
  await signIn(page, "operator");
  await page.getByRole("menuitem", { name: "Catálogo de productos", exact: true }).click();
  await expect(page.getByRole("cell", { name: "Siglo CD", exact: true })).toBeVisible();
  await expect(page.getByRole("link", { name: "Crear" })).toHaveCount(0);
  await page.getByRole("cell", { name: "Siglo CD", exact: true }).click();
  await expect(page).toHaveURL(/\/app\/productCatalogs\/\d+$/);
  await expect(page.getByRole("link", { name: "Editar" })).toHaveCount(0);
});
