/**
 * The weekly grid beside the calendar, walked with the keyboard: a 40-hour week over five projects typed
 * and saved without the mouse, then seen in the calendar and counted by the API; a bad cell refused with
 * its message; an emptied cell's activity removed; a frozen day read-only beside editable ones. Weeks 45
 * to 60 ahead of today, where neither the demo data nor the other walks are.
 */
import { expect as baseExpect, type Page, test } from "@playwright/test";
import { messages } from "../../src/core/messages";
import { addDays, businessToday, mondayOf, sundayOf, zonedTime } from "../../src/core/week";
import { allowFutureActivities, createProject, signIn } from "./fixtures";

test.use({ viewport: { width: 1400, height: 1300 } });
test.describe.configure({ timeout: 180_000 });
allowFutureActivities();
// A shared two-core machine: room to wait for what the person sees.
const expect = baseExpect.configure({ timeout: 30_000 });

const THIS_MONDAY = mondayOf(businessToday());
const weekAhead = (weeks: number) => addDays(THIS_MONDAY, 7 * weeks);
const grid = (page: Page) => page.getByRole("grid");
const cell = (page: Page, row: number, day: number) => page.locator(`[data-cell="${row}-${day}"]`);
const saveButton = (page: Page) => page.getByRole("button", { name: "Guardar", exact: true });

interface Saved {
  id: number;
  project_id: number | null;
  begins_at: string;
  ends_at: string;
}

/** One activity through the API, as the signed-in page. */
async function createActivity(page: Page, projectId: number, day: string, from: number, to: number, description: string) {
  const status = await page.evaluate(
    async (activity) =>
      (
        await fetch("/api/v1/activities", {
          method: "POST",
          headers: { "Content-Type": "application/json" },
          body: JSON.stringify({ activity }),
        })
      ).status,
    {
      action_type: "project",
      project_id: projectId,
      activity_type_catalog_id: 3,
      description,
      begins_at: zonedTime(day, from * 60).toISOString(),
      ends_at: zonedTime(day, to * 60).toISOString(),
    },
  );
  expect(status).toBe(201);
}

/** Five projects, each used once in the week before `monday`: the grid's rows for that week. */
async function fiveRows(page: Page, monday: string, tag: string) {
  const projects = [];
  for (let i = 1; i <= 5; i++) {
    const project = await createProject(page, `Rejilla ${tag} ${i}`);
    await createActivity(page, project.id, addDays(monday, -7), 8 + i, 9 + i, `Uso previo ${i}`);
    projects.push(project);
  }
  return projects;
}

async function savedWeek(page: Page, monday: string): Promise<Saved[]> {
  return page.evaluate(
    async ({ from, to }) => {
      const q = `by_begins_at[start_date]=${from}&by_begins_at[end_date]=${to}&per_page=all`;
      return (await (await fetch(`/api/v1/activities?${q}`)).json()).activities;
    },
    { from: monday, to: sundayOf(monday) },
  );
}

const hoursOf = (rows: Saved[]) =>
  rows.reduce((sum, a) => sum + (Date.parse(a.ends_at) - Date.parse(a.begins_at)) / 3_600_000, 0);

/** Tabs from the top of the page until the grid's first cell has the focus; the keystrokes it took. */
async function tabIntoGrid(page: Page) {
  for (let presses = 1; presses <= 60; presses++) {
    await page.keyboard.press("Tab");
    if (await cell(page, 0, 0).evaluate((el) => el === document.activeElement)) return presses;
  }
  throw new Error("the grid's first cell never took the focus");
}

test("a 40-hour week over five projects, typed and saved without the mouse, is in the calendar and the API", async ({ page }) => {
  await signIn(page, "admin");
  const monday = weekAhead(46);
  await fiveRows(page, monday, "A");
  await page.goto(`/app/activities/grid?semana=${monday}`);
  await expect(grid(page).getByRole("rowheader", { name: /Rejilla A/ })).toHaveCount(5);

  await tabIntoGrid(page);
  // Each day: 2 + 1,5 + 1:30 + 120m + 1 = 8 h, the four ways a cell takes hours.
  const perRow = ["2", "1,5", "1:30", "120m", "1"];
  for (const [row, value] of perRow.entries()) {
    for (let day = 0; day < 5; day++) {
      await page.keyboard.type(value);
      await page.keyboard.press("Tab");
    }
    // From Saturday past Sunday to the next row's Monday.
    if (row < perRow.length - 1) for (const _ of [6, 7]) await page.keyboard.press("Tab");
  }
  await expect(cell(page, 4, 5)).toBeFocused();
  // The arrows move too.
  await page.keyboard.press("ArrowUp");
  await expect(cell(page, 3, 5)).toBeFocused();
  await expect(page.getByTestId(`grid-day-total-${monday}`)).toHaveText("8 h de 8 h");
  await expect(page.getByTestId("grid-week-total")).toContainText("40 h de 40 h");
  await page.keyboard.press("Enter");
  await expect(page.getByText("Las horas de la semana se guardaron")).toBeVisible();

  const saved = await savedWeek(page, monday);
  expect(saved).toHaveLength(25);
  expect(hoursOf(saved)).toBe(40);
  // The first free time from 09:00: each day fills 09:00 to 17:00 in the rows' order.
  const mondays = saved.filter((a) => Date.parse(a.begins_at) < zonedTime(addDays(monday, 1), 0).getTime());
  expect(mondays).toHaveLength(5);
  expect(Math.min(...mondays.map((a) => Date.parse(a.begins_at)))).toBe(zonedTime(monday, 9 * 60).getTime());
  expect(Math.max(...mondays.map((a) => Date.parse(a.ends_at)))).toBe(zonedTime(monday, 17 * 60).getTime());

  // The calendar, opened with the switch (keyboard), opens on the same week (the address names it) and
  // shows the same 25 activities; a reload stays there.
  await page.getByRole("button", { name: "Calendario" }).focus();
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(new RegExp(`/app/activities\\?semana=${monday}$`));
  await expect(page.getByTestId("week-calendar")).toBeVisible();
  await expect(page.locator(`.fc-timegrid-col[data-date="${monday}"]`)).toBeVisible();
  await page.reload();
  await expect(page.locator(`.fc-timegrid-col[data-date="${monday}"]`)).toBeVisible();
  await expect(page.locator(".fc-timegrid-event")).toHaveCount(25);
  await expect(page.getByTestId("week-total")).toContainText("40 h");
});

test("a bad cell is refused with its message, and emptying a cell removes its activity", async ({ page }) => {
  await signIn(page, "admin");
  const monday = weekAhead(48);
  // A project logged this week only: no recent use keeps its row, the screen does.
  const first = await createProject(page, "Rejilla B sola");
  await createActivity(page, first.id, monday, 10, 12, "Para vaciar");
  // The switch remembers the person's view: the calendar's address opens the grid from now on.
  await page.getByRole("button", { name: "Cuadrícula" }).focus();
  await page.keyboard.press("Enter");
  // It opens on the week the calendar showed (this one).
  await expect(page).toHaveURL(new RegExp(`/app/activities/grid\\?semana=${mondayOf(businessToday())}$`));
  await page.goto("/app/activities");
  await expect(page).toHaveURL(/\/app\/activities\/grid$/);
  await expect(page.getByRole("button", { name: "Cuadrícula" })).toHaveAttribute("aria-pressed", "true");
  await page.goto(`/app/activities/grid?semana=${monday}`);
  const row = grid(page)
    .getByRole("row")
    .filter({ has: page.getByRole("rowheader", { name: new RegExp(first.name) }) });
  const mondayCell = row.getByRole("gridcell").first().locator("input");
  await expect(mondayCell).toHaveValue("2");

  const tuesday = row.getByRole("gridcell").nth(1).locator("input");
  await tuesday.focus();
  await page.keyboard.type("dos horas");
  await expect(row.getByRole("alert")).toHaveText(messages.gridHoursInvalid);
  await expect(tuesday).toHaveAttribute("aria-invalid", "true");
  await expect(saveButton(page)).toBeDisabled();
  await page.keyboard.press("Enter");
  expect(await savedWeek(page, monday)).toHaveLength(1);
  await page.keyboard.press("ControlOrMeta+a");
  await page.keyboard.press("Backspace");
  await expect(row.getByRole("alert")).toHaveCount(0);

  await page.keyboard.press("ArrowLeft");
  await expect(mondayCell).toBeFocused();
  // More than a working day in one day stands out in its total (20 typed for 2).
  await page.keyboard.press("ControlOrMeta+a");
  await page.keyboard.type("20");
  await expect(page.getByTestId(`grid-day-total-${monday}`)).toHaveAttribute("data-state", "over");
  await page.keyboard.press("ControlOrMeta+a");
  await page.keyboard.press("Backspace");
  await expect(mondayCell).toHaveValue("");
  await expect(page.getByTestId(`grid-day-total-${monday}`)).not.toHaveAttribute("data-state", "over");
  await page.keyboard.press("Enter");
  await expect(page.getByText("Las horas de la semana se guardaron")).toBeVisible();
  expect(await savedWeek(page, monday)).toHaveLength(0);
  // Its row stays on screen, empty, where the person can type again.
  await expect(row).toHaveCount(1);
  await expect(mondayCell).toHaveValue("");
});

test("a frozen day's cells are read-only while the other days stay editable", async ({ page }) => {
  await signIn(page, "admin");
  // A week across two months whose Sunday's month is closed.
  let monday = weekAhead(50);
  while (monday.slice(5, 7) === sundayOf(monday).slice(5, 7)) monday = addDays(monday, 7);
  const sunday = sundayOf(monday);
  await fiveRows(page, monday, "C");
  const freezeMonth = (verb: string) =>
    page.evaluate(
      async ({ date, verb }) => {
        const { employees } = await (await fetch("/api/v1/employees?per_page=all")).json();
        const me = (employees as { id: number; name: string }[]).find((e) => e.name === "Alejandra Ramírez Torres");
        const res = await fetch(`/api/v1/activities/${verb}`, {
          method: "PUT",
          headers: { "Content-Type": "application/json" },
          body: JSON.stringify({ by_begins_at: { start_date: date }, by_employee: me?.id }),
        });
        return res.status;
      },
      { date: sunday, verb },
    );
  const closed = await freezeMonth("close_month_activities");
  expect(closed).toBe(200);
  await page.goto(`/app/activities/grid?semana=${monday}`);
  await expect(grid(page).getByRole("rowheader", { name: /Rejilla C/ })).toHaveCount(5);
  await expect(cell(page, 0, 6)).toHaveAttribute("readonly", "");
  await expect(cell(page, 0, 0)).not.toHaveAttribute("readonly", "");
  await cell(page, 0, 6).focus();
  await page.keyboard.type("3");
  await expect(cell(page, 0, 6)).toHaveValue("");
  await cell(page, 0, 0).focus();
  await page.keyboard.type("3");
  await page.keyboard.press("Enter");
  await expect(page.getByText("Las horas de la semana se guardaron")).toBeVisible();
  expect(hoursOf(await savedWeek(page, monday))).toBe(3);
  expect(await freezeMonth("open_month_activities")).toBe(200);
});

test("a row added with «Añadir fila» stays pinned with no recent activity, and its hours are saved to it", async ({ page }) => {
  await signIn(page, "admin");
  const monday = weekAhead(58);
  const project = await createProject(page, `Rejilla fija ${Date.now().toString(36)}`);
  await page.goto(`/app/activities/grid?semana=${monday}`);
  await expect(page.getByText("Sin proyectos recientes")).toBeVisible();

  await page.getByRole("button", { name: "Añadir fila" }).click();
  const modal = page.getByTestId("activity-modal");
  await expect(modal.getByRole("heading", { name: "Añadir una fila a la cuadrícula" })).toBeVisible();
  // The grid places the hours: the form asks for no day and no times.
  await expect(modal.getByTestId("activity-day")).toBeHidden();
  await modal.getByRole("combobox", { name: /^Proyecto/ }).fill(project.name);
  await page.getByRole("option", { name: new RegExp(project.name) }).click();
  await modal.getByRole("combobox", { name: /^Tipo de actividad/ }).click();
  await page.getByRole("option").first().click();
  await modal.getByLabel("Descripción").fill("Trabajo de la fila fija");
  await modal.getByRole("button", { name: "Añadir fila" }).click();
  await expect(modal).toBeHidden();

  const row = grid(page)
    .getByRole("row")
    .filter({ has: page.getByRole("rowheader", { name: new RegExp(project.name) }) });
  await expect(row.getByTestId("grid-pin")).toHaveAttribute("aria-pressed", "true");
  // Kept for the person: a week later, with nothing logged near it, the row is still offered.
  await page.goto(`/app/activities/grid?semana=${addDays(monday, 7)}`);
  await expect(row).toBeVisible();
  await page.goto(`/app/activities/grid?semana=${monday}`);
  await row.getByRole("gridcell").nth(2).locator("input").fill("3,5");
  await page.keyboard.press("Enter");
  await expect(page.getByText("Las horas de la semana se guardaron")).toBeVisible();
  const saved = await savedWeek(page, monday);
  expect(saved).toHaveLength(1);
  expect(saved[0].project_id).toBe(project.id);
  expect(hoursOf(saved)).toBe(3.5);
  // One row for the pin and the saved activity: the same thing logged against.
  await expect(row).toHaveCount(1);

  // The key * in a cell unpins its row; with no activity near that week, it is no longer offered there.
  await row.getByRole("gridcell").nth(3).locator("input").focus();
  await page.keyboard.press("*");
  await expect(row.getByTestId("grid-pin")).toHaveAttribute("aria-pressed", "false");
  await page.goto(`/app/activities/grid?semana=${addDays(monday, 35)}`);
  await expect(page.getByText("Sin proyectos recientes")).toBeVisible();
});

test("a part-timer's grid expects their own hours: their «Horas por día», from their start date", async ({ page }) => {
  await signIn(page, "admin");
  const monday = weekAhead(62);
  const name = `Medio tiempo ${Date.now().toString(36)}`;
  const status = await page.evaluate(
    async (employee) =>
      (
        await fetch("/api/v1/employees", {
          method: "POST",
          headers: { "Content-Type": "application/json" },
          body: JSON.stringify({ employee }),
        })
      ).status,
    { name, daily_hours: 4, start_on: addDays(monday, 2) },
  );
  expect(status).toBe(201);
  await page.goto(`/app/activities/grid?semana=${monday}`);
  await page.getByRole("combobox", { name: "Empleado" }).click();
  await page.getByRole("option", { name }).click();
  // Nothing expected before they started; 4 h on each working day after.
  await expect(page.getByTestId(`grid-day-total-${monday}`)).toHaveText("0 h de 0 h");
  await expect(page.getByTestId(`grid-day-total-${addDays(monday, 2)}`)).toHaveText("0 h de 4 h");
  await expect(page.getByTestId("grid-week-total")).toContainText("0 h de 12 h");
});
