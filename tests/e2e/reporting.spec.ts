/**
 * The reporting screen against the real server and demo data: an administrator reports on a client for
 * the previous ISO week (the default dates) and downloads the CSV, then limited to approved hours; the
 * SPEC §5 messages appear; an Operador can only report on themselves.
 */
import fs from "node:fs";
import { expect, type Page, test } from "@playwright/test";
import Papa from "papaparse";
import { businessToday, previousWeekOf } from "../../src/core/week";
import { expectNoEnglish, signIn } from "./fixtures";

const WEEK = previousWeekOf(businessToday());
const FIRM = "Tláloc Sistemas y Consultoría";
const HEADER = [
  "Empleado",
  "Cliente / Prospecto",
  "Código de proyecto",
  "Proyecto",
  "Producto",
  "Tipo de acción",
  "Tipo de actividad",
  "Ticket",
  "Fecha",
  "Inicio",
  "Fin",
  "Horas",
  "Descripción",
];

async function openReporting(page: Page) {
  await page.getByRole("menuitem", { name: "Reportes" }).click();
  await expect(page).toHaveURL(/\/app\/reporting\/list$/);
  await expect(page.getByRole("button", { name: "Descargar CSV" })).toBeVisible();
}

/** `kind`: "_aprobadas" when only approved hours were asked for (the file says so). */
async function downloadRows(page: Page, kind = "") {
  const download = page.waitForEvent("download");
  await page.getByRole("button", { name: "Descargar CSV" }).click();
  const file = await download;
  expect(file.suggestedFilename()).toBe(`reporte_actividades${kind}_${WEEK.starts_on}_${WEEK.ends_on}.csv`);
  const text = fs.readFileSync((await file.path()) as string, "utf8");
  expect(text.startsWith("\uFEFF")).toBe(true);
  const rows = Papa.parse<string[]>(text.slice(1), { skipEmptyLines: true }).data;
  expect(rows[0]).toEqual(HEADER);
  return rows.slice(1);
}

test("an administrator picks a client and the previous week, and downloads its report", async ({ page }) => {
  await signIn(page, "admin");
  await openReporting(page);
  await expectNoEnglish(page);
  await page.getByRole("radio", { name: "Cliente", exact: true }).check();
  await page.getByLabel("Buscar cliente").fill("Tláloc");
  await page.getByRole("option", { name: FIRM }).click();
  await expect(page.getByLabel("Buscar cliente")).toHaveValue(FIRM);
  const rows = await downloadRows(page);
  expect(rows.length).toBeGreaterThan(0);
  for (const row of rows) {
    expect(row[1]).toBe(FIRM);
    expect(row[8] >= WEEK.starts_on && row[8] <= WEEK.ends_on).toBe(true);
    expect(row[11]).toMatch(/^\d+\.\d{2}$/);
  }
  await expect(page.getByText(`Se descargó el reporte reporte_actividades_${WEEK.starts_on}_${WEEK.ends_on}.csv`)).toBeVisible();
  // Limited to approved hours: the filter goes with the request, and only rows of the whole report come back.
  await page.getByRole("checkbox", { name: "Solo horas aprobadas" }).check();
  const asked = page.waitForRequest((r) => r.url().includes("reporting_activities.csv"));
  const approved = await downloadRows(page, "_aprobadas");
  expect(new URL((await asked).url()).searchParams.get("approved_only")).toBe("true");
  const all = new Set(rows.map((row) => row.join("\u0000")));
  expect(approved.every((row) => all.has(row.join("\u0000")))).toBe(true);
});

test("the validation messages of SPEC §5 appear", async ({ page }) => {
  await signIn(page, "admin");
  await openReporting(page);
  await page.getByRole("radio", { name: "Grupo de clientes" }).check();
  await page.getByRole("button", { name: "Descargar CSV" }).click();
  await expect(page.getByText("Por favor seleccione un Grupo de cliente antes de descargar")).toBeVisible();
  await page.getByRole("radio", { name: "Proyecto" }).check();
  await page.getByRole("button", { name: "Descargar CSV" }).click();
  await expect(page.getByText("Por favor seleccione un proyecto antes de descargar")).toBeVisible();
  await page.getByLabel("Buscar proyecto").click();
  await page.getByRole("option").first().click();
  // The end date before the start date.
  const end = page.getByRole("group", { name: "Fecha de fin" });
  await end.getByRole("spinbutton", { name: "Día" }).click();
  await page.keyboard.type("01");
  await expect(end.getByRole("spinbutton", { name: "Día" })).toHaveText("01");
  await page.getByRole("button", { name: "Descargar CSV" }).click();
  await expect(page.getByText("La fecha de inicio no puede ser posterior a la fecha de fin.")).toBeVisible();
  await expect(page.getByText("Por favor seleccione un proyecto antes de descargar")).toHaveCount(0);
  // No dates.
  await end.getByRole("spinbutton", { name: "Día" }).click();
  await page.keyboard.press("Control+a");
  await page.keyboard.press("Backspace");
  await page.getByRole("button", { name: "Descargar CSV" }).click();
  await expect(page.getByText("Por favor seleccione las fechas de inicio y fin.")).toBeVisible();
  // An end date typed past today: the picker does not stop the keyboard, the shared schema does (and the route).
  await end.getByRole("spinbutton", { name: "Día" }).click();
  await page.keyboard.type("31122099");
  await expect(end.getByRole("spinbutton", { name: "Año" })).toHaveText("2099");
  await page.getByRole("button", { name: "Descargar CSV" }).click();
  await expect(page.getByText("La fecha de fin no puede ser posterior a hoy.")).toBeVisible();
});

test("an Operador reports only on themselves", async ({ page }) => {
  await signIn(page, "operator");
  await openReporting(page);
  await expectNoEnglish(page);
  await expect(page.getByText("Su reporte incluye solo sus propias actividades.")).toBeVisible();
  await expect(page.getByRole("radio", { name: "Cliente", exact: true })).toHaveCount(0);
  await expect(page.getByLabel("Buscar empleado")).toHaveValue("Jorge Hernández Castillo");
  await expect(page.getByLabel("Buscar empleado")).toBeDisabled();
  const rows = await downloadRows(page);
  expect(rows.length).toBeGreaterThan(0);
  expect(new Set(rows.map((r) => r[0]))).toEqual(new Set(["Jorge Hernández Castillo"]));
});
