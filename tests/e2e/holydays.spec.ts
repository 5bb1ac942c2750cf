import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { expect, type Page, test } from "@playwright/test";
import { expectNoEnglish, fillDate, signIn } from "./fixtures";

function csvFile(name: string, text: string) {
  const path = join(mkdtempSync(join(tmpdir(), "sia-holydays-")), name);
  writeFileSync(path, text, "utf8");
  return path;
}

async function openImport(page: Page) {
  await page.getByRole("button", { name: "Importar CSV" }).click();
  return page.getByRole("dialog", { name: "Importar días festivos" });
}

test("an administrator creates a holiday, finds it with its long date and deletes it", async ({ page }) => {
  const name = `Día de prueba ${Date.now().toString(36)}`;
  await signIn(page, "admin");
  await page.getByRole("menuitem", { name: "Días festivos", exact: true }).click();
  await expect(page).toHaveURL(/\/app\/holydays$/);
  await expectNoEnglish(page);

  await page.getByRole("link", { name: "Crear" }).click();
  await expect(page).toHaveURL(/\/app\/holydays\/new$/);
  await fillDate(page, "Fecha", "2031-03-15");
  await page.getByLabel("Descripción").fill(name);
  await page.getByRole("button", { name: "Guardar" }).click();
  await expect(page).toHaveURL(/\/app\/holydays(\?.*)?$/);
  await expectNoEnglish(page);

  await page.getByPlaceholder("Buscar por descripción").fill(name);
  const row = page.getByRole("row").filter({ hasText: name });
  await expect(row).toBeVisible();
  await expect(row).toContainText("15/03/2031");
  await row.getByRole("button", { name: "Eliminar" }).click();
  await page
    .getByRole("dialog")
    .getByRole("button", { name: /Confirmar|Eliminar|Sí/ })
    .click();
  await expect(page.getByRole("row").filter({ hasText: name })).toHaveCount(0);
});

test("the holiday list is sorted by date", async ({ page }) => {
  await signIn(page, "admin");
  const dates = await page.evaluate(async () => {
    const res = await fetch("/api/v1/holydays?per_page=10&by_column[column]=date&by_column[order]=asc");
    return ((await res.json()).holydays as { date: string }[]).map((h) => h.date);
  });
  expect(dates).toEqual([...dates].sort());
  await page.goto("/app/holydays");
  const [y, m, d] = dates[0].split("-");
  const first = `${d}/${m}/${y}`;
  await expect(page.getByRole("row").nth(1)).toContainText(first);
});

test("CSV import: no file, format download, confirmation, import, all already registered, bad rows", async ({ page }) => {
  const tag = Date.now().toString(36);
  await signIn(page, "admin");
  await page.goto("/app/holydays");

  let dialog = await openImport(page);
  await expectNoEnglish(page);
  // No file chosen.
  await dialog.getByRole("button", { name: "Importar" }).click();
  await expect(dialog.getByText("Archivo no valido o no seleccionado.")).toBeVisible();

  // The format downloads as a CSV.
  const download = page.waitForEvent("download");
  await dialog.getByText("Descargar formato").click();
  expect((await download).suggestedFilename()).toMatch(/\.csv$/);

  // Happy path, with a confirmation before sending.
  const file = csvFile("festivos.csv", `fecha,nombre\n2032-01-01,Año nuevo ${tag}\n02/02/2032,Candelaria ${tag}\n`);
  await dialog.getByLabel("Archivo CSV").setInputFiles(file);
  await expect(dialog.getByText("Archivo: festivos.csv")).toBeVisible();
  await dialog.getByRole("button", { name: "Importar" }).click();
  await expect(dialog.getByText("¿Deseas importar los días festivos del archivo")).toBeVisible();
  await dialog.getByRole("button", { name: "Confirmar importación" }).click();
  await expect(page.getByText("Se importaron 2 días festivos")).toBeVisible();
  await expect(dialog).toBeHidden();
  await page.getByPlaceholder("Buscar por descripción").fill(tag);
  await expect(page.getByRole("row").filter({ hasText: `Candelaria ${tag}` })).toContainText("02/02/2032");

  // The same file again: nothing new, a warning.
  dialog = await openImport(page);
  await dialog.getByLabel("Archivo CSV").setInputFiles(file);
  await dialog.getByRole("button", { name: "Importar" }).click();
  await dialog.getByRole("button", { name: "Confirmar importación" }).click();
  await expect(page.getByText("Todos los días festivos ya estaban registrados")).toBeVisible();

  // Invalid dates are listed row by row.
  dialog = await openImport(page);
  await dialog
    .getByLabel("Archivo CSV")
    .setInputFiles(csvFile("malo.csv", "fecha,nombre\n2033-02-30,Uno\nmañana,Dos\n2033-05-05,Tres\n"));
  await dialog.getByRole("button", { name: "Importar" }).click();
  await dialog.getByRole("button", { name: "Confirmar importación" }).click();
  const rows = dialog.getByRole("list", { name: "Filas no válidas" });
  await expect(rows).toContainText("fila 2: 2033-02-30");
  await expect(rows).toContainText("fila 3: mañana");
  await expectNoEnglish(page);
});

test("Operador sees holidays but cannot import or create", async ({ page }) => {
  await signIn(page, "operator");
  await page.goto("/app/holydays");
  await expect(page.getByRole("button", { name: "Importar CSV" })).toHaveCount(0);
  await expect(page.getByRole("link", { name: "Crear" })).toHaveCount(0);
  await expect(page.getByRole("button", { name: "Eliminar" })).toHaveCount(0);
});
