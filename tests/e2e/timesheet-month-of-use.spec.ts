/**
 * What a month of real use found in the timesheet, walked as people do: two tabs editing one activity,
 * two browsers saving one imported week differently, red events, the network gone, a dialog closed by
 * accident, a month closed on a week across two months, and the week's navigation by keyboard and date.
 * Each walk has weeks of its own, 26 to 40 weeks ahead (the other timesheet walks use up to 23).
 */
import { expect as baseExpect, type Locator, type Page, test } from "@playwright/test";
import { messages, timesheetMessages } from "../../src/core/messages";
import { addDays, businessToday, mondayOf, sundayOf, zonedTime } from "../../src/core/week";
import { copyIconOf, drag, scrollCalendarTo, slot } from "./calendar";
import { allowFutureActivities, fillDate, signIn } from "./fixtures";

test.use({ viewport: { width: 1400, height: 1300 } });
// Whole walks of several minutes each on a shared machine: room to wait for what the user sees.
test.describe.configure({ timeout: 300_000 });
// Each walk has its own week months ahead, where the demo data never is.
allowFutureActivities();
const expect = baseExpect.configure({ timeout: 30_000 });

const THIS_MONDAY = mondayOf(businessToday());
const weekAhead = (weeks: number) => addDays(THIS_MONDAY, 7 * weeks);
const dmy = (date: string) => `${date.slice(8, 10)}/${date.slice(5, 7)}/${date.slice(0, 4)}`;

/** Jumps to a far week with «Ir a fecha», as a person would instead of clicking the arrow 30 times. */
async function goToWeek(page: Page, monday: string) {
  await expect(page.getByTestId("week-calendar")).toBeVisible();
  await fillDate(page, "Ir a fecha", addDays(monday, 2));
  await expect(page.locator(`.fc-timegrid-col[data-date="${monday}"]`)).toBeVisible();
  await scrollCalendarTo(page, "08:00");
}

const at = (date: string, time: string) => {
  const [h, m] = time.split(":").map(Number);
  return zonedTime(date, h * 60 + m).toISOString();
};

interface Row {
  id: number;
  description: string;
  action_type: string;
  begins_at: string;
  ends_at: string;
}

async function createActivity(page: Page, body: Record<string, unknown>): Promise<Row> {
  return page.evaluate(async (activity) => {
    const res = await fetch("/api/v1/activities", {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ activity }),
    });
    if (res.status !== 201) throw new Error(`create: ${res.status} ${await res.text()}`);
    return (await res.json()).activity;
  }, body);
}

async function weekRows(page: Page, monday: string): Promise<Row[]> {
  return page.evaluate(
    async ({ from, to }) => {
      const res = await fetch(`/api/v1/activities?by_begins_at[start_date]=${from}&by_begins_at[end_date]=${to}&per_page=all`);
      return (await res.json()).activities;
    },
    { from: monday, to: addDays(monday, 6) },
  );
}

const eventOf = (page: Page, text: string) => page.locator(".fc-timegrid-event:not(.fc-event-dragging)", { hasText: text });
const local = (page: Page, text?: string) => page.locator(".fc-timegrid-event.sia-local", text ? { hasText: text } : {});

async function newActivity(page: Page, date: string, time: string) {
  await page.mouse.click(...(Object.values(await slot(page, date, time)) as [number, number]));
  const modal = page.getByTestId("activity-modal");
  await expect(modal.getByText("Nueva actividad")).toBeVisible();
  return modal;
}

async function chooseActionType(page: Page, modal: Locator, label: string) {
  await modal
    .getByRole("combobox", { name: /^Tipo (Proyecto|Soporte|Preventa|Actividad interna|Recursos humanos|Vacaciones)$/ })
    .click();
  await page.getByRole("option", { name: label, exact: true }).click();
}

const CSV_HEADER =
  "fecha,hora_inicio,hora_fin,tipo,cliente_o_prospecto,codigo_proyecto,producto,tipo_actividad,ticket,descripcion";
const csvFile = (rows: string[]) => ({
  name: "semana.csv",
  mimeType: "text/csv",
  buffer: Buffer.from(`${[CSV_HEADER, ...rows].join("\n")}\n`, "utf8"),
});

async function importCsv(page: Page, file: ReturnType<typeof csvFile>) {
  await page.getByRole("button", { name: "Importar actividades localmente (CSV)" }).click();
  const dialog = page.getByTestId("import-dialog");
  await dialog.getByTestId("import-file").setInputFiles(file);
  await dialog.getByRole("button", { name: "Importar", exact: true }).click();
  await dialog.getByRole("button", { name: "Confirmar" }).click();
  await expect(page.getByText("Se importaron correctamente las actividades")).toBeVisible();
  await expect(dialog).toBeHidden();
}

test("two tabs change different fields of one activity: the retry after the conflict keeps both changes", async ({ browser }) => {
  const monday = weekAhead(26);
  const first = await (await browser.newContext({ viewport: { width: 1400, height: 1300 } })).newPage();
  const second = await (await browser.newContext({ viewport: { width: 1400, height: 1300 } })).newPage();
  await signIn(first, "operator");
  await signIn(second, "operator");
  const suffix = Date.now().toString(36);
  const activity = await createActivity(first, {
    begins_at: at(monday, "09:00"),
    ends_at: at(monday, "10:00"),
    action_type: "internal",
    description: `Original ${suffix}`,
  });

  for (const page of [first, second]) {
    await goToWeek(page, monday);
    await eventOf(page, `Original ${suffix}`).click();
    await expect(page.getByTestId("activity-modal").getByText("Editar actividad")).toBeVisible();
  }

  // Tab 1 changes the description.
  const one = first.getByTestId("activity-modal");
  await one.getByLabel("Descripción").fill(`De la pestaña 1 ${suffix}`);
  await one.getByRole("button", { name: "Guardar" }).click();
  await expect(first.getByText(messages.activityEdited)).toBeVisible();

  // Tab 2 changes only the end time: refused, and its form now shows tab 1's description.
  const two = second.getByTestId("activity-modal");
  await two.getByLabel("Fin").fill("11:00");
  await two.getByRole("button", { name: "Guardar" }).click();
  await expect(two.getByTestId("activity-error")).toContainText(messages.staleVersionRetry);
  await expect(two.getByLabel("Descripción")).toHaveValue(`De la pestaña 1 ${suffix}`);
  await expect(two.getByLabel("Fin")).toHaveValue("11:00");

  await two.getByRole("button", { name: "Guardar" }).click();
  await expect(second.getByText(messages.activityEdited)).toBeVisible();
  const [saved] = (await weekRows(second, monday)).filter((r) => r.id === activity.id);
  expect(saved.description).toBe(`De la pestaña 1 ${suffix}`);
  expect(saved.ends_at).toBe(at(monday, "11:00"));
});

test("two browsers save one imported week differently: the second sees the conflict and chooses", async ({ browser }) => {
  const monday = weekAhead(27);
  const first = await (await browser.newContext({ viewport: { width: 1400, height: 1300 } })).newPage();
  const second = await (await browser.newContext({ viewport: { width: 1400, height: 1300 } })).newPage();
  const suffix = Date.now().toString(36);
  const file = csvFile([`${monday},09:00,10:00,AS,,,,CI,,Planeación ${suffix}`, `${monday},11:00,12:00,RH,,,,,,Curso ${suffix}`]);
  for (const page of [first, second]) {
    await signIn(page, "operator");
    await goToWeek(page, monday);
    await importCsv(page, file);
  }

  // The second sets the first event to Vacaciones; the first saves the week as imported.
  await local(second, `Planeación ${suffix}`).click();
  const modal = second.getByTestId("imported-activity-modal");
  await chooseActionType(second, modal, "Vacaciones");
  await modal.getByRole("button", { name: "Guardar" }).click();
  await expect(modal).toBeHidden();

  await first.getByRole("button", { name: "Guardar semana" }).click();
  await expect(first.getByText(messages.activitiesSaved)).toBeVisible();

  await second.getByRole("button", { name: "Guardar semana" }).click();
  const failure = second.getByTestId("import-errors");
  await expect(failure).toContainText(timesheetMessages.importKeyConflictTitle);
  await expect(failure).toContainText(timesheetMessages.importKeyTaken);
  await expect(second.getByText(messages.activitiesSaved)).toHaveCount(0);
  // Nothing of the second's was written yet: the stored one is still the first's.
  expect((await weekRows(second, monday)).find((r) => r.begins_at === at(monday, "09:00"))?.action_type).toBe("internal");

  await failure.getByRole("button", { name: "Conservar lo de esta ventana" }).click();
  await expect(second.getByText(timesheetMessages.importKeyKeptMine)).toBeVisible();
  await second.getByRole("button", { name: "Guardar semana" }).click();
  await expect(second.getByText(messages.activitiesSaved)).toBeVisible();
  const rows = await weekRows(second, monday);
  expect(rows).toHaveLength(2);
  expect(rows.find((r) => r.begins_at === at(monday, "09:00"))?.action_type).toBe("vacation");
  expect(rows.find((r) => r.begins_at === at(monday, "11:00"))?.description).toBe(`Curso ${suffix}`);
});

test("a red event is not saved until it is fixed; an AS row without a type is not red", async ({ page }) => {
  const monday = weekAhead(28);
  const suffix = Date.now().toString(36);
  await signIn(page, "operator");
  await goToWeek(page, monday);
  await importCsv(
    page,
    csvFile([
      `${monday},09:00,10:00,P,,PRY-9999,,AN,,Proyecto inexistente ${suffix}`,
      `${monday},11:00,12:00,AS,,,,,,Junta sin tipo ${suffix}`,
    ]),
  );
  await expect(page.locator(".fc-timegrid-event.sia-invalid")).toHaveCount(1);
  await expect(page.getByTestId("saved-week-info")).toContainText("1 por corregir");

  await page.getByRole("button", { name: "Guardar semana" }).click();
  const failure = page.getByTestId("import-errors");
  await expect(failure).toContainText(timesheetMessages.invalidBeforeSaveTitle);
  await expect(failure).toContainText(`Proyecto inexistente ${suffix}`);
  await expect(page.getByText(messages.activitiesSaved)).toHaveCount(0);
  expect(await weekRows(page, monday)).toHaveLength(0);

  // Fixed in its dialog (a project that exists), the week saves.
  await local(page, `Proyecto inexistente ${suffix}`).click();
  const modal = page.getByTestId("imported-activity-modal");
  await modal.getByTestId("project-picker").getByRole("combobox").fill("PRY-0101");
  await page.getByRole("option", { name: /PRY-0101/ }).click();
  await modal.getByRole("button", { name: "Guardar" }).click();
  await expect(modal).toBeHidden();
  await page.getByRole("button", { name: "Guardar semana" }).click();
  await expect(page.getByText(messages.activitiesSaved)).toBeVisible();
  expect(await weekRows(page, monday)).toHaveLength(2);
});

test("offline: a save says «Sin conexión» at once, a cancelled one is never sent, a week save waits and says so", async ({
  page,
}) => {
  const monday = weekAhead(29);
  const suffix = Date.now().toString(36);
  await signIn(page, "operator");
  await goToWeek(page, monday);

  await page.context().setOffline(true);
  const modal = await newActivity(page, monday, "09:00");
  await chooseActionType(page, modal, "Recursos humanos");
  await modal.getByLabel("Descripción").fill(`Sin red ${suffix}`);
  await modal.getByRole("button", { name: "Guardar" }).click();
  await expect(modal.getByTestId("activity-error")).toContainText("Sin conexión");
  await modal.getByRole("button", { name: "Cancelar" }).click();
  await expect(modal).toBeHidden();
  await page.context().setOffline(false);

  // Back online, another activity goes through; the cancelled one never does.
  const next = await newActivity(page, monday, "11:00");
  await chooseActionType(page, next, "Recursos humanos");
  await next.getByLabel("Descripción").fill(`Con red ${suffix}`);
  await next.getByRole("button", { name: "Guardar" }).click();
  await expect(page.getByText(messages.activitiesAllAdded)).toHaveCount(1);
  await expect(eventOf(page, `Con red ${suffix}`)).toBeVisible();
  expect((await weekRows(page, monday)).map((r) => r.description)).toEqual([`Con red ${suffix}`]);

  // A week save offline waits, visibly, and goes through when the network is back.
  const other = weekAhead(30);
  await goToWeek(page, other);
  await importCsv(page, csvFile([`${other},09:00,10:00,RH,,,,,,Semana sin red ${suffix}`]));
  await page.context().setOffline(true);
  await page.getByRole("button", { name: "Guardar semana" }).click();
  await expect(page.getByTestId("week-save-offline")).toContainText(timesheetMessages.offlineWeekSave);
  await expect(page.getByTestId("saved-week-progress")).toBeVisible();
  await page.context().setOffline(false);
  await expect(page.getByText(messages.activitiesSaved)).toBeVisible();
  await expect(page.getByTestId("week-save-offline")).toHaveCount(0);
  expect(await weekRows(page, other)).toHaveLength(1);
});

test("the activity dialog shows the whole date and asks before a click outside or Escape throws away what was typed", async ({
  page,
}) => {
  const monday = weekAhead(31);
  await signIn(page, "operator");
  await goToWeek(page, monday);
  let modal = await newActivity(page, monday, "09:00");

  // The day shows its whole dd/mm/aaaa: the year is inside the field, not cut off; the times stay inside
  // the dialog.
  const content = await modal.locator(".MuiDialogContent-root").boundingBox();
  const end = await modal.getByLabel("Fin").boundingBox();
  expect(content && end && end.x + end.width <= content.x + content.width).toBe(true);
  const day = modal.getByRole("group", { name: "Fecha", exact: true });
  await expect(day.getByRole("spinbutton", { name: "Año" })).toHaveText(monday.slice(0, 4));
  const field = await modal.getByTestId("activity-day").boundingBox();
  const year = await day.getByRole("spinbutton", { name: "Año" }).boundingBox();
  // The year ends inside the field, before the calendar icon's room.
  expect(field && year && year.x + year.width <= field.x + field.width - 32).toBe(true);

  await modal.getByLabel("Descripción").fill("Algo escrito");
  await page.keyboard.press("Escape");
  const ask = page.getByRole("dialog").filter({ hasText: "¿Descartar lo que escribió?" });
  await expect(ask).toBeVisible();
  await ask.getByRole("button", { name: "Seguir editando" }).click();
  await expect(ask).toBeHidden();
  await expect(modal.getByLabel("Descripción")).toHaveValue("Algo escrito");

  // A click on the backdrop asks too; «Descartar» closes.
  await page.mouse.click(5, 5);
  await expect(ask).toBeVisible();
  await ask.getByRole("button", { name: "Descartar" }).click();
  await expect(modal).toBeHidden();

  // Nothing typed: Escape closes at once.
  modal = await newActivity(page, monday, "09:00");
  await page.keyboard.press("Escape");
  await expect(modal).toBeHidden();
  await expect(ask).toHaveCount(0);
});

test("closing a month names it, and on a week across two months offers the other", async ({ page }) => {
  // The first week at least 32 weeks ahead whose Sunday falls in the next month.
  let monday = weekAhead(32);
  while (monday.slice(5, 7) === sundayOf(monday).slice(5, 7)) monday = addDays(monday, 7);
  const sunday = sundayOf(monday);
  const monthName = (date: string) =>
    new Intl.DateTimeFormat("es-MX", { month: "long", year: "numeric", timeZone: "UTC" }).format(
      new Date(`${date.slice(0, 7)}-01T12:00:00Z`),
    );
  await signIn(page, "admin");
  await goToWeek(page, monday);

  await page.getByRole("button", { name: "Cerrar mes" }).click();
  const ask = page.getByTestId("freeze-month");
  await expect(ask).toContainText(`¿Deseas cerrar el mes de ${monthName(monday)} para `);
  await ask.getByRole("radio", { name: monthName(sunday) }).check();
  await expect(ask).toContainText(`¿Deseas cerrar el mes de ${monthName(sunday)} para `);
  await page.getByRole("dialog").getByRole("button", { name: "Confirmar" }).click();
  await expect(page.getByText(messages.monthClosed)).toBeVisible();

  // The next month is closed, the Monday's is not.
  await goToWeek(page, addDays(monday, 7));
  await expect(page.getByTestId("week-closed")).toBeVisible();
  await goToWeek(page, addDays(monday, -7));
  await expect(page.getByTestId("week-closed")).toHaveCount(0);

  // Reopened from a week of that month alone: no choice to make, the month is named.
  await goToWeek(page, addDays(monday, 7));
  await page.getByRole("button", { name: "Abrir mes" }).click();
  await expect(page.getByTestId("freeze-month")).toContainText(`¿Deseas abrir el mes de ${monthName(sunday)} para `);
  await expect(page.getByTestId("freeze-month").getByRole("radio")).toHaveCount(0);
  await page.getByRole("dialog").getByRole("button", { name: "Confirmar" }).click();
  await expect(page.getByText(messages.monthOpened)).toBeVisible();
  await expect(page.getByTestId("week-closed")).toHaveCount(0);
});

test("dates read dd/mm/aaaa, the week's arrows have names, and the keyboard reaches them", async ({ page }) => {
  const monday = weekAhead(36);
  const suffix = Date.now().toString(36);
  await signIn(page, "operator");
  // A source week with one activity, and the target week with its time already taken: the copy skips it.
  await createActivity(page, {
    begins_at: at(addDays(monday, -7), "09:00"),
    ends_at: at(addDays(monday, -7), "10:00"),
    action_type: "internal",
    description: `Fuente ${suffix}`,
  });
  await createActivity(page, {
    begins_at: at(monday, "09:00"),
    ends_at: at(monday, "10:00"),
    action_type: "internal",
    description: `Ocupado ${suffix}`,
  });
  await createActivity(page, {
    begins_at: at(addDays(monday, 2), "11:00"),
    ends_at: at(addDays(monday, 2), "12:00"),
    action_type: "internal",
    description: `Segundo horario ${suffix}`,
  });
  await goToWeek(page, monday);
  await page.getByRole("button", { name: "Copiar semana anterior" }).click();
  const dialog = page.getByTestId("copy-week-dialog");
  await expect(dialog).toContainText(new RegExp(`\\d{2}/\\d{2}/\\d{4} 09:00 - 10:00 Fuente ${suffix}`));
  await expect(dialog).not.toContainText(/\d{4}-\d{2}-\d{2}/);
  await dialog.getByRole("button", { name: "Cancelar" }).click();

  // «Importar el día» names the day as people write it.
  await page.locator(`.fc-daygrid-day[data-date="${addDays(monday, 1)}"]`).click();
  await expect(page.getByText(`Importar el día ${dmy(addDays(monday, 1))}`)).toBeVisible();
  await page.getByTestId("import-dialog").getByRole("button", { name: "Cancelar" }).click();
  // Until its fade ends the closing dialog's backdrop takes the next press (the drag below would not start).
  await expect(page.locator(".MuiDialog-root")).toHaveCount(0);

  // A copy dropped on a taken slot says why nothing was added.
  await drag(page, await copyIconOf(eventOf(page, `Ocupado ${suffix}`)), await slot(page, addDays(monday, 2), "11:00"));
  await expect(page.getByText(timesheetMessages.copySlotTaken)).toBeVisible();
  expect(await weekRows(page, monday)).toHaveLength(2);

  // «Ir a fecha» shows the whole date it was given.
  const jump = page.getByRole("group", { name: "Ir a fecha", exact: true });
  const jumpBox = await page.getByTestId("go-to-date").boundingBox();
  const jumpYear = await jump.getByRole("spinbutton", { name: "Año" }).boundingBox();
  expect(jumpBox && jumpYear && jumpYear.x + jumpYear.width <= jumpBox.x + jumpBox.width - 32).toBe(true);

  const previous = page.getByRole("button", { name: "Semana anterior", exact: true });
  await previous.focus();
  await page.keyboard.press("Enter");
  await expect(page.locator(`.fc-timegrid-col[data-date="${addDays(monday, -7)}"]`)).toBeVisible();
  await page.getByRole("button", { name: "Semana siguiente", exact: true }).click();
  await expect(page.locator(`.fc-timegrid-col[data-date="${monday}"]`)).toBeVisible();
});
