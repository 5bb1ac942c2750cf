/**
 * Timesheet imports against the real server (SPEC §4 "Local week lifecycle"): an employee imports a week
 * from a Google-exported .ics file (tests/fixtures/semana.ics, dated into the week shown), sees the event
 * whose project does not exist red, fixes it in 'Editar actividad importada', saves the week, and saving the
 * same import again creates nothing new. A CSV week does the same; removing a saved week asks first.
 * Works weeks ahead of today (no demo activities there; timesheet.spec.ts uses next week).
 */
import { readFileSync } from "node:fs";
import { expect, type Page, test } from "@playwright/test";
import { messages } from "../../src/core/messages";
import { addDays, businessToday, mondayOf } from "../../src/core/week";
import { copyIconOf, drag, grip, scrollCalendarTo, slot } from "./calendar";
import { allowFutureActivities, signIn } from "./fixtures";

// These walks log weeks ahead of today, where the demo data never is.
allowFutureActivities();

test.use({ viewport: { width: 1400, height: 1300 } });

const THIS_MONDAY = mondayOf(businessToday());
const compact = (date: string) => date.replaceAll("-", "");

/** The .ics fixture with its placeholders ({{MON}} … {{FRI}}) set to the days of the week starting `monday`. */
function icsFor(monday: string) {
  const days = ["MON", "TUE", "WED", "THU", "FRI"];
  let text = readFileSync(new URL("../fixtures/semana.ics", import.meta.url), "utf8");
  days.forEach((day, i) => {
    text = text.replaceAll(`{{${day}}}`, compact(addDays(monday, i)));
  });
  return { name: "semana.ics", mimeType: "text/calendar", buffer: Buffer.from(text, "utf8") };
}

/** A CSV week in the format of GET activities/download_csv_format, one row (unknown project) to fix. */
function csvFor(monday: string) {
  const rows = [
    "fecha,hora_inicio,hora_fin,tipo,cliente_o_prospecto,codigo_proyecto,producto,tipo_actividad,ticket,descripcion",
    `${monday},09:00,11:00,P,,PRY-0101,,DE,,Desarrollo de reportes`,
    `${monday},12:00,13:00,P,,PRY-9999,,AN,,Análisis de requerimientos`,
    `${addDays(monday, 1)},10:00,12:00,AS,,,,CI,,Capacitación de pruebas`,
    `${addDays(monday, 2)},15:00,16:00,RH,,,,,,Evaluación de desempeño`,
  ];
  return { name: "semana.csv", mimeType: "text/csv", buffer: Buffer.from(`${rows.join("\n")}\n`, "utf8") };
}

/** Goes `weeks` weeks ahead with the calendar's arrow. */
async function showWeek(page: Page, weeks: number) {
  const monday = addDays(THIS_MONDAY, 7 * weeks);
  await expect(page.getByTestId("week-calendar")).toBeVisible();
  for (let i = 0; i < weeks; i++) await page.locator(".fc-next-button").click();
  await expect(page.locator(`.fc-timegrid-col[data-date="${monday}"]`)).toBeVisible();
  await expect(page.locator(".fc-timegrid-event")).toHaveCount(0);
  return monday;
}

const local = (page: Page, text?: string) => page.locator(".fc-timegrid-event.sia-local", text ? { hasText: text } : {});
const invalid = (page: Page) => page.locator(".fc-timegrid-event.sia-invalid");
const inSia = (page: Page) => page.locator(".fc-timegrid-event.sia-in-sia");

async function removeWeek(page: Page) {
  await page.getByRole("button", { name: "Remover semana" }).click();
  await expect(page.getByText("¿Deseas remover las actividades de la semana?")).toBeVisible();
  await page.getByRole("dialog").getByRole("button", { name: "Confirmar" }).click();
  await expect(page.getByText("Las actividades se removieron correctamente")).toBeVisible();
  await expect(local(page)).toHaveCount(0);
}

/** The draft kept in this browser: its key (weekCalendar:<user>:<employee>) and value, or nulls. */
async function storedDraft(page: Page): Promise<{ key: string | null; value: string | null }> {
  return page.evaluate(() => {
    const key = Object.keys(localStorage).find((k) => k.startsWith("weekCalendar:")) ?? null;
    return { key, value: key ? localStorage.getItem(key) : null };
  });
}

/** The server's activities of the operator's week (what was really saved). */
async function savedCount(page: Page, monday: string) {
  return page.evaluate(
    async ({ from, to }) => {
      const res = await fetch(`/api/v1/activities?by_begins_at[start_date]=${from}&by_begins_at[end_date]=${to}&per_page=all`);
      return ((await res.json()).activities as unknown[]).length;
    },
    { from: monday, to: addDays(monday, 6) },
  );
}

/** Opens an invalid imported event and gives it an existing project. */
async function fixProject(page: Page, text: string) {
  await local(page, text).click();
  const modal = page.getByTestId("imported-activity-modal");
  await expect(modal.getByText("Editar actividad importada")).toBeVisible();
  await modal.getByTestId("project-picker").getByRole("combobox").fill("PRY-0101");
  await page.getByRole("option", { name: /PRY-0101/ }).click();
  await modal.getByRole("button", { name: "Guardar" }).click();
  await expect(modal).toBeHidden();
  await expect(page.getByText("Las actividades se actualizaron localmente de manera correcta")).toBeVisible();
}

async function saveWeek(page: Page) {
  await page.getByRole("button", { name: "Guardar semana" }).click();
  await expect(page.getByText("Las actividades se guardaron correctamente")).toBeVisible();
  await expect(page.getByRole("button", { name: "Importar actividades localmente (CSV)" })).toBeVisible();
  await expect(local(page)).toHaveCount(0);
}

async function importIcs(page: Page, monday: string) {
  await page.getByRole("button", { name: "Importar actividades localmente (archivo .ics)" }).click();
  const dialog = page.getByTestId("import-dialog");
  await dialog.getByTestId("import-file").setInputFiles(icsFor(monday));
  await expect(dialog.getByText("semana.ics")).toBeVisible();
  await dialog.getByRole("button", { name: "Importar", exact: true }).click();
  await expect(page.getByText("Se importaron correctamente las actividades")).toBeVisible();
  await expect(dialog).toBeHidden();
}

async function importCsv(page: Page, monday: string) {
  await page.getByRole("button", { name: "Importar actividades localmente (CSV)" }).click();
  const dialog = page.getByTestId("import-dialog");
  await expect(dialog.getByRole("link", { name: "Descargar formato CSV" })).toHaveAttribute(
    "href",
    "/api/v1/activities/download_csv_format",
  );
  await dialog.getByTestId("import-file").setInputFiles(csvFor(monday));
  await dialog.getByRole("button", { name: "Importar", exact: true }).click();
  await expect(dialog.getByText("¿Deseas importar las actividades localmente del archivo CSV a la semana actual?")).toBeVisible();
  await dialog.getByRole("button", { name: "Confirmar" }).click();
  await expect(page.getByText("Se importaron correctamente las actividades")).toBeVisible();
  await expect(dialog).toBeHidden();
}

test("an employee imports a week from an .ics file, fixes the invalid event, saves it, and saving it again adds nothing", async ({
  page,
}) => {
  test.setTimeout(120_000);
  await signIn(page, "operator");
  const monday = await showWeek(page, 3);

  // Not an .ics: refused in the dialog.
  await page.getByRole("button", { name: "Importar actividades localmente (archivo .ics)" }).click();
  const dialog = page.getByTestId("import-dialog");
  await dialog
    .getByTestId("import-file")
    .setInputFiles({ name: "notas.txt", mimeType: "text/plain", buffer: Buffer.from("hola") });
  await dialog.getByRole("button", { name: "Importar", exact: true }).click();
  await expect(dialog.getByText("Archivo no válido o no seleccionado.")).toBeVisible();
  await dialog.getByRole("button", { name: "Cancelar" }).click();

  await importIcs(page, monday);
  // Three daily stand-ups, the project work, the unknown project, the training and the interview; the
  // cancelled meeting is skipped.
  await expect(local(page)).toHaveCount(7);
  await expect(local(page, "Daily del equipo")).toHaveCount(3);
  await expect(invalid(page)).toHaveCount(1);
  await expect(invalid(page)).toContainText("Revisión de avance");
  await expect(invalid(page)).toHaveCSS("background-color", "rgb(198, 40, 40)");
  await expect(page.getByRole("button", { name: "Remover semana" })).toBeVisible();
  await expect(page.getByRole("button", { name: "Refrescar actividades" })).toBeVisible();
  // Kept in the browser under weekCalendar:<user>:<employee>, owned by the operator.
  const kept = await storedDraft(page);
  expect(kept.key).toMatch(/^weekCalendar:\d+:\d+$/);
  const stored = JSON.parse(kept.value ?? "null");
  expect(stored).toMatchObject({ importType: "ICS", startOfWeek: monday, endOfWeek: addDays(monday, 6) });
  expect(stored.events).toHaveLength(7);

  // Saving with the red event: refused before anything is sent, naming its day, times, title and why.
  await page.getByRole("button", { name: "Guardar semana" }).click();
  await expect(page.getByTestId("import-errors")).toContainText(
    /\d{2}\/\d{2} 13:00 - 14:00 · Revisión de avance: No se encontró el proyecto/,
  );
  expect(await savedCount(page, monday)).toBe(0);

  await fixProject(page, "Revisión de avance");
  await expect(invalid(page)).toHaveCount(0);
  const before = await storedDraft(page);
  await saveWeek(page);
  await expect(page.locator(".fc-timegrid-event.sia-editable")).toHaveCount(7);
  await expect(page.locator(".fc-timegrid-event.sia-editable", { hasText: "Revisión de avance" })).toHaveCount(1);
  expect(await savedCount(page, monday)).toBe(7);

  // A stale copy of the same saved week (another tab) saved again: the batch finds every import key, adds nothing.
  await page.evaluate(({ key, value }) => localStorage.setItem(key ?? "", value ?? ""), before);
  await page.reload();
  await page.getByTestId("go-to-draft").click();
  await expect(local(page)).toHaveCount(7);
  await saveWeek(page);
  expect(await savedCount(page, monday)).toBe(7);

  // The same file again: every event is already in SIA (brown), so saving sends nothing and adds nothing.
  await importIcs(page, monday);
  await expect(local(page)).toHaveCount(7);
  await expect(inSia(page)).toHaveCount(7);
  await expect(invalid(page)).toHaveCount(0);
  await expect(inSia(page).first()).toHaveCSS("background-color", "rgb(121, 85, 72)");
  await page.getByRole("button", { name: "Guardar semana" }).click();
  // Nothing to save: it says so and leaves draft mode (no «0 cambios sin guardar» left behind).
  await expect(page.getByText(`${messages.savedWeekNone}. ${messages.importAllSaved}`)).toBeVisible();
  await expect(page.getByRole("button", { name: "Importar actividades localmente (CSV)" })).toBeVisible();
  expect(await savedCount(page, monday)).toBe(7);
  await expect(page.locator(".fc-timegrid-event.sia-editable")).toHaveCount(7);
});

test("an employee imports a CSV week, fixes the invalid row, saves it twice without duplicates, and removing a week asks first", async ({
  page,
}) => {
  test.setTimeout(120_000);
  await signIn(page, "operator");
  const monday = await showWeek(page, 5);

  // Bad lines are refused together, under 'Error en importación'; nothing is kept.
  await page.getByRole("button", { name: "Importar actividades localmente (CSV)" }).click();
  const dialog = page.getByTestId("import-dialog");
  const header = "fecha,hora_inicio,hora_fin,tipo,cliente_o_prospecto,codigo_proyecto,producto,tipo_actividad,ticket,descripcion";
  const bad = [
    header,
    `${monday},25:00,26:00,AS,,,,CI,,Hora imposible`,
    `${addDays(monday, 14)},09:00,10:00,AS,,,,CI,,Otra semana`,
  ];
  await dialog
    .getByTestId("import-file")
    .setInputFiles({ name: "mala.csv", mimeType: "text/csv", buffer: Buffer.from(bad.join("\n")) });
  await dialog.getByRole("button", { name: "Importar", exact: true }).click();
  await dialog.getByRole("button", { name: "Confirmar" }).click();
  await expect(dialog.getByTestId("import-errors")).toContainText("Error en importación");
  await expect(dialog.getByTestId("import-errors")).toContainText("Línea 2:");
  await expect(dialog.getByTestId("import-errors")).toContainText("Línea 3:");
  await dialog.getByRole("button", { name: "Cancelar" }).click();
  expect((await storedDraft(page)).key).toBeNull();

  await importCsv(page, monday);
  await expect(local(page)).toHaveCount(4);
  await expect(invalid(page)).toHaveCount(1);
  await expect(invalid(page)).toContainText("Análisis de requerimientos");
  await fixProject(page, "Análisis de requerimientos");
  await saveWeek(page);
  await expect(page.locator(".fc-timegrid-event.sia-editable")).toHaveCount(4);
  expect(await savedCount(page, monday)).toBe(4);

  // The same file again: its rows are already in SIA (brown).
  await importCsv(page, monday);
  await expect(inSia(page)).toHaveCount(4);
  expect(await savedCount(page, monday)).toBe(4);

  // Refresh merges the server's activities (brown, still four); removing the week asks for confirmation.
  await page.getByRole("button", { name: "Refrescar actividades" }).click();
  await expect(page.getByText("Las actividades se actualizaron localmente de manera correcta")).toBeVisible();
  await expect(inSia(page)).toHaveCount(4);
  await page.getByRole("button", { name: "Remover semana" }).click();
  await expect(page.getByText("¿Deseas remover las actividades de la semana?")).toBeVisible();
  await page.getByRole("dialog").getByRole("button", { name: "Cancelar" }).click();
  await expect(inSia(page)).toHaveCount(4);
  await removeWeek(page);
  await expect(page.locator(".fc-timegrid-event.sia-editable")).toHaveCount(4);
  expect((await storedDraft(page)).key).toBeNull();

  // Once more, and «Guardar semana»: nothing new, it says so, and nothing doubles.
  await importCsv(page, monday);
  await page.getByRole("button", { name: "Guardar semana" }).click();
  await expect(page.getByText(`${messages.savedWeekNone}. ${messages.importAllSaved}`)).toBeVisible();
  expect(await savedCount(page, monday)).toBe(4);
  expect((await storedDraft(page)).key).toBeNull();
});

test("Google import is offered only where configured; a red event dragged stays red, the copy icon duplicates it, and a one-day import replaces only that day", async ({
  page,
}) => {
  test.setTimeout(120_000);
  await signIn(page, "operator");
  const monday = await showWeek(page, 7);
  const tuesday = addDays(monday, 1);

  // This server has no Google client configured: Google Calendar is not offered at all
  // (google-connect.spec.ts walks the import where it is).
  await expect(page.getByRole("button", { name: "Importar actividades localmente (archivo .ics)" })).toBeVisible();
  await expect(page.getByRole("button", { name: "Importar actividades localmente (Google Calendar)" })).toHaveCount(0);
  expect((await storedDraft(page)).key).toBeNull();

  await importIcs(page, monday);
  await expect(local(page)).toHaveCount(7);
  await scrollCalendarTo(page, "12:00");

  // Dragging the invalid event moves it; its project is still unknown, so it stays red (a move fixes times only).
  await drag(page, await grip(invalid(page)), await slot(page, monday, "15:00"));
  await expect(page.getByText("Las actividades se actualizaron localmente de manera correcta")).toBeVisible();
  await expect(invalid(page)).toHaveCount(1);
  await expect(local(page, "Revisión de avance")).toContainText("15:00 - 16:00");

  // The copy icon adds a duplicate with a CP- id.
  await drag(page, await copyIconOf(local(page, "Entrevista de candidato")), await slot(page, tuesday, "14:00"));
  await expect(local(page)).toHaveCount(8);
  const tuesdayEvents = page.locator(`.fc-timegrid-col[data-date="${tuesday}"] .fc-timegrid-event.sia-local`);
  await expect(tuesdayEvents).toHaveCount(3);
  const ids = (JSON.parse((await storedDraft(page)).value ?? "{}").events as { id: string }[]).map((e) => e.id);
  expect(ids.filter((id: string) => id.startsWith("CP-"))).toHaveLength(1);

  // Importing Tuesday alone (the all-day cell) replaces Tuesday's events only.
  await page.locator(`.fc-daygrid-day[data-date="${tuesday}"]`).click();
  const dialog = page.getByTestId("import-dialog");
  await expect(
    dialog.getByText(`Importar el día ${tuesday.slice(8, 10)}/${tuesday.slice(5, 7)}/${tuesday.slice(0, 4)}`),
  ).toBeVisible();
  await dialog.getByTestId("import-file").setInputFiles(icsFor(monday));
  await dialog.getByRole("button", { name: "Importar", exact: true }).click();
  await expect(page.getByText("Se importaron correctamente las actividades")).toBeVisible();
  await expect(dialog).toBeHidden();
  await expect(tuesdayEvents).toHaveCount(2);
  await expect(local(page)).toHaveCount(7);
  await expect(local(page, "Revisión de avance")).toContainText("15:00 - 16:00");

  await removeWeek(page);
  await expect(page.locator(".fc-timegrid-event")).toHaveCount(0);
});

test("/app/showGoogleCalendar opens the week's calendar import on the activities page", async ({ page }) => {
  await signIn(page, "operator");
  await page.goto("/app/showGoogleCalendar");
  await expect(page).toHaveURL(/\/app\/activities/);
  await expect(page.getByRole("dialog", { name: "Importar semana desde un archivo de calendario (.ics)" })).toBeVisible();
  await page.getByRole("dialog").getByRole("button", { name: "Cancelar" }).click();
  await expect(page).toHaveURL(/\/app\/activities$/);
});
