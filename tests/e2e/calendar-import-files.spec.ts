/**
 * The .ics import against the compiled server (npm start's bundle, whose reader runs in
 * build/server/ics-worker.js): a Windows-1252 file with one broken line imports its week with the accents
 * right and shows which line was skipped; a file whose rule never matches is refused with a Spanish
 * message in the dialog, and the server keeps answering.
 */
import { expect, type Page, test } from "@playwright/test";
import { addDays, businessToday, mondayOf } from "../../src/core/week";
import { allowFutureActivities, signIn } from "./fixtures";

// These walks log weeks ahead of today, where the demo data never is.
allowFutureActivities();

const compact = (date: string) => date.replaceAll("-", "");

const tuesday = addDays(mondayOf(businessToday()), 1);

/** The operator's week with the .ics import dialog open. */
async function openImportDialog(page: Page) {
  await signIn(page, "operator");
  await page.goto("/app/showGoogleCalendar");
  const dialog = page.getByTestId("import-dialog");
  await expect(dialog).toBeVisible();
  return dialog;
}

function file(name: string, lines: string[], encoding: "latin1" | "utf8" = "utf8") {
  return { name, mimeType: "text/calendar", buffer: Buffer.from(lines.join("\r\n"), encoding) };
}

test("a Windows-1252 calendar with a broken line imports with its accents and names the skipped line; an impossible rule is refused", async ({
  page,
  request,
}) => {
  test.setTimeout(90_000);
  const dialog = await openImportDialog(page);

  // An impossible rule first: a Spanish refusal, the dialog stays open, the server answers.
  await dialog
    .getByTestId("import-file")
    .setInputFiles(
      file("imposible.ics", [
        "BEGIN:VCALENDAR",
        "VERSION:2.0",
        "BEGIN:VEVENT",
        "UID:imposible",
        `DTSTART:${compact(tuesday)}T160000Z`,
        "DURATION:PT1H",
        "RRULE:FREQ=DAILY;BYMONTH=2;BYMONTHDAY=30",
        "SUMMARY:Nunca",
        "END:VEVENT",
        "END:VCALENDAR",
      ]),
    );
  await dialog.getByRole("button", { name: "Importar", exact: true }).click();
  await expect(dialog.getByTestId("import-errors")).toContainText("nunca ocurre");
  expect((await request.get("/healthz")).status()).toBe(200);

  await dialog
    .getByTestId("import-file")
    .setInputFiles(
      file(
        "semana-windows.ics",
        [
          "BEGIN:VCALENDAR",
          "VERSION:2.0",
          "PRODID:-//Exportador antiguo//ES",
          "BEGIN:VEVENT",
          "UID:reunion-1252",
          `DTSTART:${compact(tuesday)}T160000Z`,
          `DTEND:${compact(tuesday)}T170000Z`,
          "SUMMARY:Reunión de diseño con Peñoles",
          "Únase a la reunión de Zoom",
          "END:VEVENT",
          "END:VCALENDAR",
        ],
        "latin1",
      ),
    );
  await dialog.getByRole("button", { name: "Importar", exact: true }).click();
  // Something was left out: the toast does not call it a success.
  await expect(page.getByText("Se importaron las actividades con avisos: revise lo que se omitió")).toBeVisible();
  await expect(page.getByText("Se importaron correctamente las actividades")).toHaveCount(0);
  await expect(page.getByTestId("import-warnings")).toContainText("Se omitió la línea 9");
  await expect(page.getByText("Reunión de diseño con Peñoles").first()).toBeVisible();
});

test("a file whose only event cannot be read says why the week came back empty", async ({ page }) => {
  test.setTimeout(90_000);
  const dialog = await openImportDialog(page);
  await dialog
    .getByTestId("import-file")
    .setInputFiles(
      file("vacia.ics", [
        "BEGIN:VCALENDAR",
        "VERSION:2.0",
        "BEGIN:VEVENT",
        "UID:sin-inicio",
        "SUMMARY:Sin fecha de inicio",
        `DTEND:${compact(tuesday)}T170000Z`,
        "END:VEVENT",
        "END:VCALENDAR",
      ]),
    );
  await dialog.getByRole("button", { name: "Importar", exact: true }).click();
  await expect(page.getByText("No tienes ninguna actividad")).toBeVisible();
  await expect(page.getByTestId("import-warnings")).toContainText("Sin fecha de inicio");
});
