/**
 * The weekly timesheet with the keyboard alone (no mouse after signing in): the time grid takes focus and
 * its arrows move a visible slot, Enter creates there, an event's arrows move it, Shift+arrows resize it,
 * Ctrl+D duplicates it, Delete removes it after the same confirmation as the trash, N opens a new
 * activity at the next free slot and ? lists the shortcuts. Home takes the cursor to the day's «Importar el
 * día», whose file becomes a draft week; a key moves the draft's event and «Guardar semana» saves the week.
 * What the screen shows is what the API holds.
 */
import { expect as baseExpect, type Page, test } from "@playwright/test";
import type { Activity } from "../../src/core/activity";
import { dayName } from "../../src/core/messages";
import { addDays, businessToday, mondayOf } from "../../src/core/week";
import { allowFutureActivities, signIn } from "./fixtures";

allowFutureActivities();
test.use({ viewport: { width: 1400, height: 1300 } });
// A long walk, on machines that may be busy.
test.setTimeout(180_000);
const expect = baseExpect.configure({ timeout: 25_000 });

// Four weeks ahead: no demo data, and apart from the other walks (timesheet-import.spec.ts logs the
// operator's week three ahead).
const MONDAY = addDays(mondayOf(businessToday()), 28);
const TUESDAY = addDays(MONDAY, 1);
const WEDNESDAY = addDays(MONDAY, 2);
const compact = (date: string) => date.replaceAll("-", "");

/** A one-event .ics file (as a calendar program writes it) for Wednesday 09:00–10:00 in Mexico City. */
const icsFile = () => ({
  name: "miercoles.ics",
  mimeType: "text/calendar",
  buffer: Buffer.from(
    [
      "BEGIN:VCALENDAR",
      "VERSION:2.0",
      "PRODID:-//SIA e2e//ES",
      "BEGIN:VEVENT",
      `UID:tecla-importada-${WEDNESDAY}@sia.e2e`,
      `DTSTAMP:${compact(WEDNESDAY)}T000000Z`,
      `DTSTART:${compact(WEDNESDAY)}T150000Z`,
      `DTEND:${compact(WEDNESDAY)}T160000Z`,
      "SUMMARY:AS|OT|Tecla importada",
      "END:VEVENT",
      "END:VCALENDAR",
      "",
    ].join("\r\n"),
    "utf8",
  ),
});

const at = (date: string, time: string) => Date.parse(`${date}T${time}:00-06:00`);
const eventOf = (page: Page, text: string) => page.locator(".fc-timegrid-event", { hasText: text });

async function weekFromApi(page: Page): Promise<Activity[]> {
  const me = await (await page.request.get("/api/v1/sessions/current")).json();
  const res = await page.request.get(
    `/api/v1/activities?by_begins_at[start_date]=${MONDAY}&by_begins_at[end_date]=${addDays(MONDAY, 6)}&by_employee=${me.user.employee.id}&per_page=100`,
  );
  expect(res.status()).toBe(200);
  const body = await res.json();
  return (body.activities ?? body) as Activity[];
}
const span = (a: Activity) => [Date.parse(a.begins_at), Date.parse(a.ends_at)];

/** Fills the open activity dialog with the keyboard: type «Actividad interna», a description, Guardar. */
async function fillInternal(page: Page, description: string) {
  const modal = page.getByTestId("activity-modal");
  await expect(modal).toBeVisible();
  const type = modal.getByRole("combobox", {
    name: /^Tipo (Proyecto|Soporte|Preventa|Actividad interna|Recursos humanos|Vacaciones)$/,
  });
  await type.focus();
  await page.keyboard.press("ArrowDown");
  await page.getByRole("option", { name: "Actividad interna" }).focus();
  await page.keyboard.press("Enter");
  await expect(type).toContainText("Actividad interna");
  await modal.getByLabel("Descripción").focus();
  await page.keyboard.type(description);
  await modal.getByRole("button", { name: "Guardar" }).focus();
  await page.keyboard.press("Enter");
  await expect(modal).toBeHidden();
  await expect(eventOf(page, description)).toHaveCount(1);
}

test("an employee logs a week with the keyboard alone", async ({ page }) => {
  await signIn(page, "operator");
  // Its week starts empty, also when the walk runs again (--repeat-each) after a run that left it filled.
  for (const a of await weekFromApi(page)) expect((await page.request.delete(`/api/v1/activities/${a.id}`)).status()).toBe(200);
  await page.reload();
  // The timesheet is a lazy chunk: slow on a busy machine.
  await expect(page.getByTestId("week-calendar")).toBeVisible({ timeout: 40_000 });
  // Four weeks ahead with the calendar's «next» button.
  await page.locator(".fc-next-button").focus();
  for (let i = 0; i < 4; i++) await page.keyboard.press("Enter");
  await expect(page.locator(`.fc-timegrid-col[data-date="${MONDAY}"]`)).toBeVisible();

  // The grid is one Tab stop after the toolbar's buttons; its cursor starts on Monday 09:00.
  await page.keyboard.press("Tab");
  await expect(page.locator(".fc-timegrid-body")).toBeFocused();
  const cursor = page.getByTestId("slot-cursor");
  await expect(cursor).toHaveAttribute("data-date", MONDAY);
  await expect(cursor).toHaveAttribute("data-time", "09:00");
  await expect(cursor).toBeVisible();

  // `?` lists the shortcuts; Escape closes the list and gives the grid its focus back.
  await page.keyboard.press("?");
  const help = page.getByRole("dialog", { name: "Atajos de teclado" });
  await expect(help).toContainText("Duplicar la actividad");
  await page.keyboard.press("Escape");
  await expect(help).toBeHidden();
  await expect(page.locator(".fc-timegrid-body")).toBeFocused();

  // Enter on Monday 10:00 creates an hour there.
  await page.keyboard.press("ArrowDown");
  await page.keyboard.press("ArrowDown");
  await page.keyboard.press("ArrowDown");
  await page.keyboard.press("ArrowDown");
  await expect(cursor).toHaveAttribute("data-time", "10:00");
  await page.keyboard.press("Enter");
  await fillInternal(page, "Tecla uno");
  await expect(eventOf(page, "Tecla uno")).toContainText("10:00 - 11:00");

  // N: the next free slot from the cursor (10:00 is taken until 11:00).
  await page.locator(".fc-timegrid-body").focus();
  await page.keyboard.press("n");
  await fillInternal(page, "Tecla dos");
  await expect(eventOf(page, "Tecla dos")).toContainText("11:00 - 12:00");

  // The first event: up 15 minutes and back; further down would overlap «Tecla dos» (11:00–12:00), and
  // is refused as the drag refuses it.
  const first = eventOf(page, "Tecla uno");
  await first.focus();
  await page.keyboard.press("ArrowUp");
  await expect(first).toContainText("09:45 - 10:45");
  await page.keyboard.press("ArrowDown");
  await expect(first).toContainText("10:00 - 11:00");
  await page.keyboard.press("ArrowDown");
  await expect(page.getByText("La actividad no se movió: ese horario ya está ocupado.")).toBeVisible();
  await expect(first).toContainText("10:00 - 11:00");
  // Shift+↑: a slot shorter; → : to Tuesday, keeping the focus.
  await page.keyboard.press("Shift+ArrowUp");
  await expect(first).toContainText("10:00 - 10:45");
  await page.keyboard.press("ArrowRight");
  await expect(
    page.locator(`.fc-timegrid-col[data-date="${TUESDAY}"] .fc-timegrid-event`, { hasText: "Tecla uno" }),
  ).toContainText("10:00 - 10:45");
  await expect(first).toBeFocused();
  // Its name says where it is now (the day, then the times and the title), for a screen reader.
  await expect(first).toHaveAccessibleName(new RegExp(`^${dayName(TUESDAY)}\\s*10:00 - 10:45\\s*Tecla uno$`));

  // Ctrl+D: a copy right after it, the same length.
  await page.keyboard.press("Control+d");
  await expect(eventOf(page, "Tecla uno")).toHaveCount(2);
  await expect(eventOf(page, "Tecla uno").filter({ hasText: "10:45 - 11:30" })).toHaveCount(1);

  // Four quick presses, each before the previous one is answered: the copy ends an hour later, none of
  // them refused as another person's change (each is sent at the version the previous answer gave).
  const copy = eventOf(page, "Tecla uno").filter({ hasText: "10:45 - 11:30" });
  await copy.focus();
  for (let i = 0; i < 4; i++) await page.keyboard.press("ArrowDown");
  await expect(eventOf(page, "Tecla uno").filter({ hasText: "11:45 - 12:30" })).toHaveCount(1);
  await expect(page.getByText(/Otro usuario/)).toHaveCount(0);

  // Delete «Tecla dos» with the trash's confirmation.
  await eventOf(page, "Tecla dos").focus();
  await page.keyboard.press("Delete");
  const confirm = page.getByRole("dialog", { name: "Eliminar actividad" });
  await expect(confirm).toBeVisible();
  await confirm.getByRole("button", { name: "Confirmar" }).focus();
  await page.keyboard.press("Enter");
  await expect(eventOf(page, "Tecla dos")).toHaveCount(0);
  // The focus stays in the week (on its grid), not at the top of the page.
  await expect(page.locator(".fc-timegrid-body")).toBeFocused();

  // Home: Wednesday's «Importar el día» (→ twice, from Monday); ↓ back to the slot it left, Home again.
  await page.keyboard.press("ArrowRight");
  await page.keyboard.press("ArrowRight");
  await page.keyboard.press("Home");
  await expect(cursor).toHaveAttribute("data-date", WEDNESDAY);
  await expect(cursor).toHaveAttribute("data-time", "all-day");
  await expect(cursor).toBeVisible();
  await page.keyboard.press("ArrowDown");
  await expect(cursor).toHaveAttribute("data-time", "10:00");
  await page.keyboard.press("Home");
  await expect(cursor).toHaveAttribute("data-time", "all-day");
  // Enter there does what its click does: the day's import, whose file is chosen with Enter too.
  await page.keyboard.press("Enter");
  const dayImport = page.getByRole("dialog", { name: /^Importar el día/ });
  await expect(dayImport).toBeVisible();
  await dayImport.getByRole("button", { name: "Elegir archivo" }).focus();
  const chooser = page.waitForEvent("filechooser");
  await page.keyboard.press("Enter");
  await (await chooser).setFiles(icsFile());
  await expect(dayImport.getByText("miercoles.ics")).toBeVisible();
  await dayImport.getByRole("button", { name: "Importar", exact: true }).focus();
  await page.keyboard.press("Enter");
  await expect(dayImport).toBeHidden();
  // The import is a draft week: its event moves with the keys like any other (15 minutes later).
  const imported = page.locator(".fc-timegrid-event.sia-local", { hasText: "Tecla importada" });
  await expect(imported).toContainText("09:00 - 10:00");
  await imported.focus();
  await page.keyboard.press("ArrowDown");
  await expect(imported).toContainText("09:15 - 10:15");
  // «Guardar semana» with Enter saves the whole week in one request.
  await page.getByRole("button", { name: "Guardar semana" }).focus();
  await page.keyboard.press("Enter");
  await expect(page.getByText("Las actividades se guardaron correctamente")).toBeVisible();
  await expect(page.locator(".fc-timegrid-event.sia-local")).toHaveCount(0);

  // The API holds what the screen shows.
  await expect(async () => {
    const week = (await weekFromApi(page)).filter((a) => a.description?.startsWith("Tecla"));
    expect(week.map((a) => [a.description, ...span(a)]).sort((x, y) => Number(x[1]) - Number(y[1]))).toEqual([
      ["Tecla uno", at(TUESDAY, "10:00"), at(TUESDAY, "10:45")],
      ["Tecla uno", at(TUESDAY, "11:45"), at(TUESDAY, "12:30")],
      ["Tecla importada", at(WEDNESDAY, "09:15"), at(WEDNESDAY, "10:15")],
    ]);
  }).toPass();
});
