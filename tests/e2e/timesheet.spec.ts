/**
 * The weekly timesheet against the real server and demo data: create by clicking a slot, move, resize,
 * duplicate with the copy icon, delete through the trash, all-day and overlap refusals, closing the
 * week, and an admin looking at another employee's frozen week. Works in next week (no demo activities).
 */
import { expect, type Page, test } from "@playwright/test";
import { addDays, businessToday, mondayOf } from "../../src/core/week";
import { copyIconOf, drag, grip, scrollCalendarTo, slot } from "./calendar";
import { ACCOUNTS, allowFutureActivities, DEMO_PASSWORD, signIn } from "./fixtures";

// These walks log weeks ahead of today, where the demo data never is.
allowFutureActivities();

test.use({ viewport: { width: 1400, height: 1300 } });

const NEXT_MONDAY = addDays(mondayOf(businessToday()), 7);
const TUESDAY = addDays(NEXT_MONDAY, 1);
const WEDNESDAY = addDays(NEXT_MONDAY, 2);

async function showNextWeek(page: Page) {
  await expect(page.getByTestId("week-calendar")).toBeVisible();
  await page.locator(".fc-next-button").click();
  await expect(page.locator(`.fc-timegrid-col[data-date="${NEXT_MONDAY}"]`)).toBeVisible();
  // Slots from 08:00 on visible at the top of the calendar's scroller.
  await scrollCalendarTo(page, "08:00");
}

// Not the copy FullCalendar draws under the pointer while a drag or resize is on (its mirror).
const eventOf = (page: Page, text: string) =>
  page.locator(".fc-timegrid-event:not(.fc-event-dragging):not(.fc-event-mirror)", { hasText: text });

async function createBySlot(page: Page, date: string, time: string, description: string) {
  await page.mouse.click(...(Object.values(await slot(page, date, time)) as [number, number]));
  const modal = page.getByTestId("activity-modal");
  await expect(modal).toBeVisible();
  await modal
    .getByRole("combobox", { name: /^Tipo (Proyecto|Soporte|Preventa|Actividad interna|Recursos humanos|Vacaciones)$/ })
    .click();
  await page.getByRole("option", { name: "Actividad interna" }).click();
  await modal.getByLabel("Descripción").fill(description);
  await modal.getByRole("button", { name: "Guardar" }).click();
  await expect(page.getByText("Todas las actividades se agregaron correctamente")).toBeVisible();
  await expect(modal).toBeHidden();
  await expect(eventOf(page, description)).toHaveCount(1);
}

test("an employee creates, moves, resizes, duplicates and deletes activities; all-day and overlaps are refused; closing the week locks it", async ({
  page,
  request,
}) => {
  test.setTimeout(150_000);
  const suffix = Date.now().toString(36);
  const first = `Junta ${suffix}`;
  const second = `Revisión ${suffix}`;
  await signIn(page, "operator");
  // Its week starts open and empty, also when the walk runs again (a retry, --repeat-each).
  const session = await request.post("/api/v1/sessions", { data: { email: ACCOUNTS.admin, password: DEMO_PASSWORD } });
  const token = (await session.json()).token as string;
  const employeeId = await page.evaluate(async () => (await (await fetch("/api/v1/sessions/current")).json()).user.employee.id);
  const week = { by_begins_at: { start_date: NEXT_MONDAY }, by_employee: employeeId };
  const admin = { authorization: `Bearer ${token}` };
  expect((await request.put("/api/v1/activities/open_activities", { headers: admin, data: week })).status()).toBe(200);
  const left = await page.request.get(
    `/api/v1/activities?by_begins_at[start_date]=${NEXT_MONDAY}&by_begins_at[end_date]=${addDays(NEXT_MONDAY, 6)}&by_employee=${employeeId}&per_page=100`,
  );
  for (const a of (await left.json()).activities as { id: number }[])
    expect((await page.request.delete(`/api/v1/activities/${a.id}`)).status()).toBe(200);
  await page.reload();
  await showNextWeek(page);
  await expect(page.getByText("Importar el día")).toBeVisible();

  // Create by clicking a slot: an hour from the slot clicked.
  await createBySlot(page, NEXT_MONDAY, "10:00", first);
  await expect(eventOf(page, first)).toContainText("10:00 - 11:00");
  await expect(page.getByTestId(`day-hours-${NEXT_MONDAY}`)).toHaveText("1 h");
  await expect(page.getByTestId("week-total")).toContainText("1 h");

  // Drag to another slot: moved, and still there after a reload.
  await drag(page, await grip(eventOf(page, first)), await slot(page, NEXT_MONDAY, "11:30"));
  await expect(page.getByText("La actividad se edito correctamente")).toBeVisible();
  await expect(eventOf(page, first)).toContainText("11:30 - 12:30");
  await page.reload();
  await showNextWeek(page);
  await expect(eventOf(page, first)).toContainText("11:30 - 12:30");

  // Resize from the bottom edge: half an hour longer.
  const event = eventOf(page, first);
  await event.hover();
  const box = await event.boundingBox();
  if (!box) throw new Error("event not visible");
  const lane = await page.locator('.fc-timegrid-slot-lane[data-time="12:45:00"]').boundingBox();
  await drag(page, { x: box.x + box.width / 2, y: box.y + box.height - 2 }, { x: box.x + box.width / 2, y: (lane?.y ?? 0) + 2 });
  await expect(eventOf(page, first)).toContainText("11:30 - 13:00");
  await expect(page.getByText("La actividad se edito correctamente")).toBeVisible();
  await expect(page.getByTestId(`day-hours-${NEXT_MONDAY}`)).toHaveText("1.5 h");

  // Duplicate by dragging the copy icon to Tuesday.
  // The calendar draws the event anew once the resize's save is read: measure the icon once it is there.
  await expect(eventOf(page, first).locator(".sia-copy-icon")).toBeVisible();
  await expect(async () => {
    expect(await eventOf(page, first).locator(".sia-copy-icon").boundingBox()).not.toBeNull();
  }).toPass();
  await drag(page, await copyIconOf(eventOf(page, first)), await slot(page, TUESDAY, "09:00"));
  await expect(page.getByText("Todas las actividades se agregaron correctamente")).toBeVisible();
  await expect(eventOf(page, first)).toHaveCount(2);
  const copy = page.locator(`.fc-timegrid-col[data-date="${TUESDAY}"] .fc-timegrid-event`, { hasText: first });
  await expect(copy).toContainText("09:00 - 10:30");

  // Dropping on the all-day row is refused with SPEC §5's message.
  const allDay = await page.locator(`.fc-daygrid-day[data-date="${WEDNESDAY}"]`).boundingBox();
  if (!allDay) throw new Error("no all-day cell");
  await drag(page, await grip(copy), { x: allDay.x + allDay.width / 2, y: allDay.y + allDay.height / 2 });
  await expect(
    page.getByText(
      'Se necesita crear la actividad dando click en la casilla "todo el dia" o duplicarla arrastrándola del icono.',
    ),
  ).toBeVisible();
  await expect(copy).toContainText("09:00 - 10:30");

  // Delete the copy through the trash, after confirming.
  const trash = await page.getByTestId("trash").boundingBox();
  if (!trash) throw new Error("no trash");
  await drag(page, await grip(copy), { x: trash.x + trash.width / 2, y: trash.y + trash.height / 2 });
  await page.getByRole("dialog").getByRole("button", { name: "Confirmar" }).click();
  await expect(page.getByText("La actividad se eliminó correctamente")).toBeVisible();
  await expect(eventOf(page, first)).toHaveCount(1);

  // Overlap: a second activity, then dropping the first onto it is prevented; the server refuses too.
  await createBySlot(page, NEXT_MONDAY, "08:30", second);
  await drag(page, await grip(eventOf(page, first)), await slot(page, NEXT_MONDAY, "08:45"));
  await expect(eventOf(page, first)).toContainText("11:30 - 13:00");
  const refused = await page.evaluate(
    async ({ date }) => {
      const list = await (
        await fetch(`/api/v1/activities?by_begins_at[start_date]=${date}&by_begins_at[end_date]=${date}&per_page=all`)
      ).json();
      const [a, b] = list.activities;
      const res = await fetch(`/api/v1/activities/${a.id}`, {
        method: "PUT",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ activity: { begins_at: b.begins_at, ends_at: b.ends_at, lock_version: a.lock_version } }),
      });
      return { status: res.status, body: await res.json() };
    },
    { date: NEXT_MONDAY },
  );
  expect(refused.status).toBe(422);
  expect(JSON.stringify(refused.body)).toContain("Hay eventos con fechas en conflictos");

  // Edit through the modal.
  const modal = page.getByTestId("activity-modal");
  // Right after a refused drag FullCalendar may still be animating the revert: retry the click.
  await expect(async () => {
    await eventOf(page, second).click();
    await expect(modal).toBeVisible({ timeout: 2000 });
  }).toPass();
  await modal.getByLabel("Descripción").fill(`${second} editada`);
  await modal.getByRole("button", { name: "Guardar" }).click();
  await expect(page.getByText("La actividad se edito correctamente")).toBeVisible();
  await expect(eventOf(page, `${second} editada`)).toHaveCount(1);

  // A week that has not begun cannot be closed by its employee (it could not be logged afterwards); an
  // administrator closes it: red and read-only.
  await expect(page.getByRole("button", { name: "Cerrar semana" })).toHaveCount(0);
  const closed = await request.put("/api/v1/activities/close_activities", { headers: admin, data: week });
  expect(closed.status()).toBe(200);
  await page.reload();
  await showNextWeek(page);
  await expect(page.getByTestId("week-closed")).toBeVisible();
  await expect(eventOf(page, first)).toHaveClass(/sia-locked/);
  await expect(eventOf(page, first)).not.toHaveClass(/fc-event-draggable/);
  await expect(eventOf(page, first)).toHaveCSS("background-color", "rgb(211, 47, 47)");
  await drag(page, await grip(eventOf(page, first)), await slot(page, NEXT_MONDAY, "10:15"));
  await expect(eventOf(page, first)).toContainText("11:30 - 13:00");
  await expect(async () => {
    await eventOf(page, first).click();
    await expect(modal.getByText("Actividad (solo lectura)")).toBeVisible({ timeout: 2000 });
  }).toPass();
  await expect(modal.getByRole("button", { name: "Guardar" })).toHaveCount(0);
  // The administrator opens the week again: the next walks work in it.
  const opened = await request.put("/api/v1/activities/open_activities", { headers: admin, data: week });
  expect(opened.status()).toBe(200);
});

test("an admin sees another employee's older, frozen week in red", async ({ page }) => {
  await signIn(page, "admin");
  await expect(page.getByTestId("week-calendar")).toBeVisible();
  await page.getByRole("combobox", { name: "Empleado" }).click();
  await page.getByRole("option", { name: "Jorge Hernández Castillo" }).click();
  for (let i = 0; i < 6; i++) await page.locator(".fc-prev-button").click();
  await expect(page.locator(".fc-timegrid-event.sia-locked").first()).toBeVisible();
  await expect(page.locator(".fc-timegrid-event.sia-editable")).toHaveCount(0);
  await expect(page.locator(".fc-timegrid-event.sia-locked").first()).toHaveCSS("background-color", "rgb(211, 47, 47)");
  await expect(page.getByRole("button", { name: "Abrir semana" })).toBeVisible();
  await expect(page.getByRole("button", { name: "Cerrar mes" })).toBeVisible();
});

test("the glossary lists the title formats and the activity-type codes", async ({ page }) => {
  await signIn(page, "operator");
  await showNextWeek(page);
  await page.mouse.click(...(Object.values(await slot(page, addDays(NEXT_MONDAY, 4), "11:00")) as [number, number]));
  const modal = page.getByTestId("activity-modal");
  await modal.getByRole("tab", { name: "Glosario" }).click();
  await expect(modal.getByTestId("glossary")).toContainText("S|cliente|producto|tipo|descripción");
  await expect(modal.getByTestId("glossary")).toContainText("EO");
  await modal.getByRole("button", { name: "Cancelar" }).click();
});

test("an admin copies the previous week into next week and downloads the CSVs", async ({ page }) => {
  await signIn(page, "admin");
  await showNextWeek(page);
  await expect(page.locator(".fc-timegrid-event")).toHaveCount(0);
  await page.getByRole("button", { name: "Copiar semana anterior" }).click();
  // It asks first, saying what would be copied.
  await expect(page.getByTestId("copy-week-dialog")).toBeVisible();
  await page.getByTestId("copy-week-confirm").click();
  await expect(page.getByText(/^Se copi(ó|aron)/)).toBeVisible();
  await expect(page.locator(".fc-timegrid-event.sia-editable").first()).toBeVisible();
  await expect(page.getByTestId("week-total")).not.toHaveText("Total de la semana: 0 h");

  const csv = page.waitForEvent("download");
  await page.getByRole("button", { name: "Descargar CSV" }).click();
  expect((await csv).suggestedFilename()).toMatch(/\.csv$/);
  await expect(page.getByText("Se descargo el csv de las actividades")).toBeVisible();
  const personal = page.waitForEvent("download");
  await page.getByRole("button", { name: "Reporte personal" }).click();
  expect((await personal).suggestedFilename()).toBe("reporte_personal_actividades.csv");
});

test("an admin closes another employee's month and sees it red and locked, then reopens it", async ({ page }) => {
  await signIn(page, "admin");
  await expect(page.getByTestId("week-calendar")).toBeVisible();
  await page.getByRole("combobox", { name: "Empleado" }).click();
  await page.getByRole("option", { name: "Jorge Hernández Castillo" }).click();
  // Last week: always open (only weeks older than four are closed) and full of demo activities.
  await page.locator(".fc-prev-button").click();
  await expect(page.locator(".fc-timegrid-event.sia-editable").first()).toBeVisible();
  await expect(page.locator(".fc-timegrid-event.sia-locked")).toHaveCount(0);

  await page.getByRole("button", { name: "Cerrar mes" }).click();
  await page.getByRole("dialog").getByRole("button", { name: "Confirmar" }).click();
  await expect(page.locator(".fc-timegrid-event.sia-locked").first()).toBeVisible();
  await expect(page.locator(".fc-timegrid-event.sia-locked").first()).toHaveCSS("background-color", "rgb(211, 47, 47)");
  await expect(page.locator(".fc-timegrid-event.sia-locked").first()).not.toHaveClass(/fc-event-draggable/);

  await page.getByRole("button", { name: "Abrir mes" }).click();
  await page.getByRole("dialog").getByRole("button", { name: "Confirmar" }).click();
  await expect(page.locator(".fc-timegrid-event.sia-locked")).toHaveCount(0);
  await expect(page.locator(".fc-timegrid-event.sia-editable").first()).toBeVisible();
});
