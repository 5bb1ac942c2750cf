/**
 * The draft week as people use it, against the real server: it belongs to whoever made it, for the
 * employee it was made for (two people on one browser; an administrator switching employees); edits and
 * deletions of activities already in SIA reach the server with the week; importing keeps the saved week in
 * view and a re-import leaves no stale copies; refusals name the day, the field and the reason; a closed
 * week looks closed; «Copiar semana anterior» asks first. Works weeks well ahead of today, one per test.
 */
import { expect, type Page, test } from "@playwright/test";
import { messages } from "../../src/core/messages";
import { addDays, businessToday, mondayOf, zonedTime } from "../../src/core/week";
import { drag, scrollCalendarTo, slot } from "./calendar";
import { allowFutureActivities, signIn, signOut } from "./fixtures";

// These walks log weeks ahead of today, where the demo data never is.
allowFutureActivities();

test.use({ viewport: { width: 1400, height: 1300 } });

const THIS_MONDAY = mondayOf(businessToday());
const OTHER = "Luis Fernando Martínez Ochoa";
const ANOTHER = "Mariana López Villaseñor";

const local = (page: Page, text?: string) => page.locator(".fc-timegrid-event.sia-local", text ? { hasText: text } : {});
const brown = (page: Page) => page.locator(".fc-timegrid-event.sia-in-sia");
const invalid = (page: Page) => page.locator(".fc-timegrid-event.sia-invalid");
const saveButton = (page: Page) => page.getByRole("button", { name: "Guardar semana" });
const csvButton = (page: Page) => page.getByRole("button", { name: "Importar actividades localmente (CSV)" });

/** A CSV week (GET activities/download_csv_format): internal and HR rows, and optionally an unknown project. */
function csvFor(monday: string, options: { unknownProject?: boolean; tag?: string } = {}) {
  const tag = options.tag ?? "";
  const rows = [
    "fecha,hora_inicio,hora_fin,tipo,cliente_o_prospecto,codigo_proyecto,producto,tipo_actividad,ticket,descripcion",
    `${monday},12:00,13:00,AS,,,,CI,,Capacitación interna${tag}`,
    `${addDays(monday, 1)},15:00,16:00,RH,,,,,,Evaluación de desempeño${tag}`,
    ...(options.unknownProject ? [`${addDays(monday, 2)},10:00,11:00,P,,PRY-9999,,AN,,Proyecto inexistente${tag}`] : []),
  ];
  return { name: "semana.csv", mimeType: "text/csv", buffer: Buffer.from(`${rows.join("\n")}\n`, "utf8") };
}

async function showWeek(page: Page, weeks: number) {
  const monday = addDays(THIS_MONDAY, 7 * weeks);
  await expect(page.getByTestId("week-calendar")).toBeVisible();
  for (let i = 0; i < weeks; i++) await page.locator(".fc-next-button").click();
  await expect(page.locator(`.fc-timegrid-col[data-date="${monday}"]`)).toBeVisible();
  return monday;
}

async function importCsv(page: Page, monday: string, options?: Parameters<typeof csvFor>[1]) {
  await csvButton(page).click();
  const dialog = page.getByTestId("import-dialog");
  await dialog.getByTestId("import-file").setInputFiles(csvFor(monday, options));
  await dialog.getByRole("button", { name: "Importar", exact: true }).click();
  await dialog.getByRole("button", { name: "Confirmar" }).click();
  await expect(page.getByText("Se importaron correctamente las actividades")).toBeVisible();
  await expect(dialog).toBeHidden();
}

async function saveWeek(page: Page) {
  await saveButton(page).click();
  await expect(page.getByText("Las actividades se guardaron correctamente")).toBeVisible();
  await expect(csvButton(page)).toBeVisible();
}

async function pickEmployee(page: Page, name: string) {
  await page.getByRole("combobox", { name: "Empleado" }).click();
  await page.getByRole("option", { name }).click();
}

/** The server's activities of a week (what was really saved), as the signed-in user may read them. */
async function savedWeek(page: Page, monday: string, employeeId?: number) {
  return page.evaluate(
    async ({ from, to, employee }) => {
      const q = `by_begins_at[start_date]=${from}&by_begins_at[end_date]=${to}&per_page=all${employee ? `&by_employee=${employee}` : ""}`;
      const res = await fetch(`/api/v1/activities?${q}`);
      return (await res.json()).activities as { id: number; description: string; employee_id: number }[];
    },
    { from: monday, to: addDays(monday, 6), employee: employeeId },
  );
}

async function employeeIdOf(page: Page, name: string) {
  return page.evaluate(async (n) => {
    const res = await fetch(`/api/v1/employees?per_page=all&q=${encodeURIComponent(n)}`);
    return ((await res.json()).employees as { id: number; name: string }[]).find((e) => e.name === n)?.id as number;
  }, name);
}

/** Activities made directly through the API (already in SIA when the week is shown). */
async function createActivities(page: Page, rows: { day: string; from: number; to: number; description: string }[]) {
  for (const row of rows) {
    const status = await page.evaluate(
      async (body) => {
        const res = await fetch("/api/v1/activities", {
          method: "POST",
          headers: { "Content-Type": "application/json" },
          body: JSON.stringify({ activity: body }),
        });
        return res.status;
      },
      {
        begins_at: zonedTime(row.day, row.from * 60).toISOString(),
        ends_at: zonedTime(row.day, row.to * 60).toISOString(),
        action_type: "internal",
        description: row.description,
      },
    );
    expect(status).toBe(201);
  }
}

test("two people on one browser: the operator's draft is never offered to Finanzas, and waits for the operator", async ({
  page,
}) => {
  await signIn(page, "operator");
  const monday = await showWeek(page, 9);
  await importCsv(page, monday);
  await expect(local(page)).toHaveCount(2);
  await expect(saveButton(page)).toBeVisible();
  await signOut(page);

  await signIn(page, "finance");
  await showWeek(page, 9);
  await expect(csvButton(page)).toBeVisible();
  await expect(saveButton(page)).toHaveCount(0);
  await expect(local(page)).toHaveCount(0);
  await expect(page.getByText("Capacitación interna")).toHaveCount(0);
  // Nothing of the operator's draft was read, nor removed.
  const keys = await page.evaluate(() => Object.keys(localStorage).filter((k) => k.startsWith("weekCalendar")));
  expect(keys).toHaveLength(1);
  await signOut(page);

  await signIn(page, "operator");
  await showWeek(page, 9);
  await expect(local(page)).toHaveCount(2);
  await saveWeek(page);
  expect((await savedWeek(page, monday)).map((a) => a.description).sort()).toEqual([
    "Capacitación interna",
    "Evaluación de desempeño",
  ]);
});

test("an administrator's draft for one employee is never shown or saved for another", async ({ page }) => {
  await signIn(page, "admin");
  await pickEmployee(page, OTHER);
  const monday = await showWeek(page, 11);
  await importCsv(page, monday);
  await expect(local(page)).toHaveCount(2);

  await pickEmployee(page, ANOTHER);
  await expect(saveButton(page)).toHaveCount(0);
  await expect(local(page)).toHaveCount(0);
  await expect(csvButton(page)).toBeVisible();

  await pickEmployee(page, OTHER);
  await expect(local(page)).toHaveCount(2);
  await saveWeek(page);
  const other = await employeeIdOf(page, OTHER);
  const another = await employeeIdOf(page, ANOTHER);
  expect(await savedWeek(page, monday, other)).toHaveLength(2);
  expect(await savedWeek(page, monday, another)).toHaveLength(0);
});

test("edits and deletions of activities already in SIA are saved with the week; importing keeps them in view", async ({
  page,
}) => {
  await signIn(page, "operator");
  const monday = addDays(THIS_MONDAY, 7 * 13);
  await createActivities(page, [
    { day: monday, from: 8, to: 10, description: "Junta de arranque" },
    { day: addDays(monday, 1), from: 9, to: 11, description: "Revisión semanal" },
  ]);
  await showWeek(page, 13);
  await expect(page.getByTestId("week-total")).toHaveText("Total de la semana: 4 h");

  await importCsv(page, monday);
  // The saved week stays in view (brown) beside the import: 4 h + 2 h.
  await expect(brown(page)).toHaveCount(2);
  await expect(page.getByTestId("week-total")).toHaveText("Total de la semana: 6 h");

  // A brown activity's description changed in the draft, and the calendar shows it.
  await brown(page).filter({ hasText: "Junta de arranque" }).click();
  let modal = page.getByRole("dialog");
  await modal.getByLabel("Descripción").fill("Junta de arranque con el cliente");
  await modal.getByRole("button", { name: "Guardar" }).click();
  await expect(modal).toBeHidden();
  await expect(brown(page).filter({ hasText: "Junta de arranque con el cliente" })).toHaveCount(1);

  // Another one deleted in the draft.
  await brown(page).filter({ hasText: "Revisión semanal" }).click();
  modal = page.getByRole("dialog");
  await modal.getByRole("button", { name: "Eliminar" }).click();
  await modal.getByRole("button", { name: "Eliminar" }).last().click();
  await expect(modal).toBeHidden();
  await expect(page.getByText("Revisión semanal")).toHaveCount(0);

  // An imported event edited shows its new description, not the imported title.
  await local(page, "Capacitación interna").click();
  modal = page.getByTestId("imported-activity-modal");
  await modal.getByLabel("Descripción").fill("Capacitación de seguridad");
  await modal.getByRole("button", { name: "Guardar" }).click();
  await expect(modal).toBeHidden();
  await expect(local(page, "Capacitación de seguridad")).toHaveCount(1);

  // An empty slot opens the form while a week is kept; the new activity joins the draft.
  await scrollCalendarTo(page, "16:00");
  const at = await slot(page, addDays(monday, 3), "17:00");
  await page.mouse.click(at.x, at.y);
  modal = page.getByRole("dialog");
  await modal
    .getByRole("combobox", { name: /^Tipo (Proyecto|Soporte|Preventa|Actividad interna|Recursos humanos|Vacaciones)$/ })
    .click();
  await page.getByRole("option", { name: "Actividad interna" }).click();
  await modal.getByLabel("Descripción").fill("Documentación escrita a mano");
  await modal.getByRole("button", { name: "Guardar" }).click();
  await expect(modal).toBeHidden();
  await expect(local(page, "Documentación escrita a mano")).toHaveCount(1);

  await saveWeek(page);
  const saved = (await savedWeek(page, monday)).map((a) => a.description).sort();
  expect(saved).toEqual([
    "Capacitación de seguridad",
    "Documentación escrita a mano",
    "Evaluación de desempeño",
    "Junta de arranque con el cliente",
  ]);

  // A re-import of the same file: what was saved shows once (brown), nothing blocks the save, nothing doubles.
  await importCsv(page, monday);
  await expect(page.getByText("Evaluación de desempeño")).toHaveCount(1);
  await expect(page.getByText("Capacitación de seguridad")).toHaveCount(1);
  await expect(invalid(page)).toHaveCount(0);
  await saveButton(page).click();
  await expect(page.getByText(`${messages.savedWeekNone}. ${messages.importAllSaved}`)).toBeVisible();
  await expect(saveButton(page)).toHaveCount(0);
  expect(await savedWeek(page, monday)).toHaveLength(4);
});

test("a refused save names the day, the field and the reason and saves nothing; a dragged red event stays red", async ({
  page,
}) => {
  await signIn(page, "operator");
  const monday = await showWeek(page, 15);
  await importCsv(page, monday, { unknownProject: true });
  await expect(invalid(page)).toHaveCount(1);

  await scrollCalendarTo(page, "09:00");
  const event = invalid(page);
  const box = await event.boundingBox();
  if (!box) throw new Error("sin evento");
  const target = await slot(page, addDays(monday, 3), "10:00");
  await drag(page, { x: box.x + box.width / 2, y: box.y + 8 }, { x: target.x, y: target.y + 8 });
  await expect(page.getByText("Las actividades se actualizaron localmente de manera correcta")).toBeVisible();
  await expect(invalid(page)).toHaveCount(1);

  await saveButton(page).click();
  const errors = page.getByTestId("import-errors");
  await expect(errors).toBeVisible();
  await expect(errors).toContainText(
    /(lun|mar|mié|jue|vie|sáb|dom)\.? \d{2}\/\d{2} \d{2}:\d{2} - \d{2}:\d{2} · .+: No se encontró el proyecto/,
  );
  expect(await savedWeek(page, monday)).toHaveLength(0);
  await expect(saveButton(page)).toBeVisible();
});

test("an imported event with no length arrives red, saying why, before anyone tries to save", async ({ page }) => {
  await signIn(page, "operator");
  const monday = await showWeek(page, 16);
  await csvButton(page).click();
  const dialog = page.getByTestId("import-dialog");
  const rows = [
    "fecha,hora_inicio,hora_fin,tipo,cliente_o_prospecto,codigo_proyecto,producto,tipo_actividad,ticket,descripcion",
    `${monday},09:00,10:00,RH,,,,,,Con duración`,
    `${monday},14:00,14:00,RH,,,,,,Sin duración`,
  ];
  await dialog
    .getByTestId("import-file")
    .setInputFiles({ name: "semana.csv", mimeType: "text/csv", buffer: Buffer.from(`${rows.join("\n")}\n`, "utf8") });
  await dialog.getByRole("button", { name: "Importar", exact: true }).click();
  await dialog.getByRole("button", { name: "Confirmar" }).click();
  await expect(page.getByText("Se importaron correctamente las actividades")).toBeVisible();
  await expect(invalid(page)).toHaveCount(1);
  await expect(invalid(page)).toContainText("Sin duración");
  await invalid(page).click();
  const modal = page.getByTestId("imported-activity-modal");
  await expect(modal.getByTestId("imported-activity-errors")).toContainText(messages.importZeroLength);
});

test("a closed week looks closed: no imports, no new activity, its activities read-only", async ({ page }) => {
  await signIn(page, "admin");
  await pickEmployee(page, OTHER);
  const monday = addDays(THIS_MONDAY, 7 * 17);
  await showWeek(page, 17);
  await page.getByRole("button", { name: "Cerrar semana" }).click();
  await page.getByRole("dialog").getByRole("button", { name: "Confirmar" }).click();
  await expect(page.getByTestId("week-closed")).toBeVisible();
  await expect(csvButton(page)).toBeDisabled();
  await expect(page.getByRole("button", { name: "Copiar semana anterior" })).toBeDisabled();

  await scrollCalendarTo(page, "10:00");
  const at = await slot(page, addDays(monday, 2), "11:00");
  await page.mouse.click(at.x, at.y);
  await expect(page.getByText("La semana está cerrada: sus actividades ya no se pueden modificar.")).toBeVisible();
  await expect(page.getByRole("dialog")).toHaveCount(0);

  await page.getByRole("button", { name: "Abrir semana" }).click();
  await page.getByRole("dialog").getByRole("button", { name: "Confirmar" }).click();
  await expect(page.getByTestId("week-closed")).toHaveCount(0);
  await expect(csvButton(page)).toBeEnabled();
});

test("an Operador cannot close a week that has not started", async ({ page }) => {
  await signIn(page, "operator");
  await showWeek(page, 19);
  await expect(page.getByRole("button", { name: "Cerrar semana" })).toHaveCount(0);
  const status = await page.evaluate(
    async (date) => {
      const res = await fetch("/api/v1/activities/close_activities", {
        method: "PUT",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ by_begins_at: { start_date: date } }),
      });
      return res.status;
    },
    addDays(THIS_MONDAY, 7 * 19),
  );
  expect(status).toBe(422);
});

test("«Copiar semana anterior» asks first, and says what happened when everything was skipped", async ({ page }) => {
  await signIn(page, "operator");
  const source = addDays(THIS_MONDAY, 7 * 20);
  await createActivities(page, [
    { day: source, from: 9, to: 10, description: "Seguimiento A" },
    { day: addDays(source, 1), from: 9, to: 10, description: "Seguimiento B" },
  ]);
  const monday = await showWeek(page, 21);
  const copy = page.getByRole("button", { name: "Copiar semana anterior" });

  await copy.click();
  let dialog = page.getByTestId("copy-week-dialog");
  await expect(dialog).toBeVisible();
  await dialog.getByRole("button", { name: "Cancelar" }).click();
  expect(await savedWeek(page, monday)).toHaveLength(0);

  await copy.click();
  dialog = page.getByTestId("copy-week-dialog");
  await dialog.getByTestId("copy-week-confirm").click();
  await expect(page.locator(".fc-timegrid-event.sia-editable")).toHaveCount(2);
  expect(await savedWeek(page, monday)).toHaveLength(2);

  // Again: everything would be skipped (the times are taken); it says so, and nothing can be confirmed.
  await copy.click();
  dialog = page.getByTestId("copy-week-dialog");
  await expect(dialog.getByTestId("copy-week-confirm")).toBeDisabled();
  await expect(dialog).toContainText("No se copiaron 2 actividades");
  await expect(page.getByText("Todas las actividades se agregaron correctamente")).toHaveCount(0);
  await dialog.getByRole("button", { name: "Cancelar" }).click();
  expect(await savedWeek(page, monday)).toHaveLength(2);
});
