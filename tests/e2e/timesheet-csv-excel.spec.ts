/**
 * The CSV that Excel on Spanish Windows saves (';' separator, Windows-1252, CRLF, dd/mm/aaaa, '9:00 a. m.')
 * imported through the timesheet's «Importar actividades localmente (CSV)»: the accented descriptions show
 * right on the calendar, at their times. Works weeks ahead of today (no demo activities there).
 */
import { expect, test } from "@playwright/test";
import { addDays, businessToday, mondayOf } from "../../src/core/week";
import { allowFutureActivities, signIn } from "./fixtures";

// These walks log weeks ahead of today, where the demo data never is.
allowFutureActivities();

test.use({ viewport: { width: 1400, height: 1300 } });

const WEEKS_AHEAD = 7;
const dmy = (date: string) => date.split("-").reverse().join("/");

test("an Excel-in-Spanish CSV (Windows-1252, ';') imports with its accents intact", async ({ page }) => {
  const monday = addDays(mondayOf(businessToday()), 7 * WEEKS_AHEAD);
  const rows = [
    "fecha;hora_inicio;hora_fin;tipo;cliente_o_prospecto;codigo_proyecto;producto;tipo_actividad;ticket;descripcion",
    `${dmy(monday)};9:00 a. m.;10:30 a. m.;RH;;;;;;Reunión de capacitación`,
    `${dmy(addDays(monday, 1))};12:30 p. m.;1:30 p. m.;RH;;;;;;"Evaluación; año de Núñez"`,
    "",
  ];
  // Every character here is in Latin-1: one byte each, as Windows-1252 writes them.
  const file = {
    name: "semana excel.csv",
    mimeType: "application/vnd.ms-excel",
    buffer: Buffer.from(rows.join("\r\n"), "latin1"),
  };

  await signIn(page, "operator");
  await expect(page.getByTestId("week-calendar")).toBeVisible();
  for (let i = 0; i < WEEKS_AHEAD; i++) await page.locator(".fc-next-button").click();
  await expect(page.locator(`.fc-timegrid-col[data-date="${monday}"]`)).toBeVisible();

  await page.getByRole("button", { name: "Importar actividades localmente (CSV)" }).click();
  const dialog = page.getByTestId("import-dialog");
  await dialog.getByTestId("import-file").setInputFiles(file);
  await dialog.getByRole("button", { name: "Importar", exact: true }).click();
  await dialog.getByRole("button", { name: "Confirmar" }).click();
  await expect(page.getByText("Se importaron correctamente las actividades")).toBeVisible();

  const local = page.locator(".fc-timegrid-event.sia-local");
  await expect(local).toHaveCount(2);
  const first = page.locator(`.fc-timegrid-col[data-date="${monday}"] .fc-timegrid-event`);
  await expect(first).toContainText("Reunión de capacitación");
  await expect(first).toContainText("9:00");
  const second = page.locator(`.fc-timegrid-col[data-date="${addDays(monday, 1)}"] .fc-timegrid-event`);
  await expect(second).toContainText("Evaluación; año de Núñez");
  await expect(page.locator(".fc-timegrid-event", { hasText: "\uFFFD" })).toHaveCount(0);
});
