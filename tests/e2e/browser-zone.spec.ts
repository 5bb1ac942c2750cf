/**
 * The timesheet in a browser that is not on Mexico City's clock (Cancún is an hour ahead all year): the
 * calendar's columns are the browser's days, and the week it asks for is the one it shows, Monday to
 * Sunday. Naming the browser's Monday midnight by the firm's date made it Sunday there, and the week
 * came back empty.
 */
import { expect, test } from "@playwright/test";
import { addDays, businessToday, mondayOf } from "../../src/core/week";
import { drag, grip, scrollCalendarTo, slot } from "./calendar";
import { allowFutureActivities, signIn } from "./fixtures";

const TODAY = businessToday();
const MONDAY = mondayOf(TODAY);

test.use({ timezoneId: "America/Cancun" });
// The zone walks log weeks ahead of today, where the demo data never is.
allowFutureActivities();

test("in Cancún the timesheet opens on this week, Monday to Sunday, and asks for that week", async ({ page }) => {
  // Noon in Mexico City, 13:00 in Cancún: the same day in both.
  await page.clock.setFixedTime(new Date(`${TODAY}T12:00:00-06:00`));
  await signIn(page, "operator");
  const weekRequest = page.waitForRequest((request) =>
    /\/api\/v1\/activities\?.*by_begins_at/.test(decodeURIComponent(request.url())),
  );
  await page.goto("/app/activities");
  const url = decodeURIComponent((await weekRequest).url());
  expect(url).toContain(`by_begins_at[start_date]=${MONDAY}`);
  expect(url).toContain(`by_begins_at[end_date]=${addDays(MONDAY, 6)}`);
  await expect(page.getByTestId(`day-header-${MONDAY}`)).toBeVisible();
  await expect(page.getByTestId(`day-header-${addDays(MONDAY, 6)}`)).toBeVisible();
});

/**
 * The calendar runs on the firm's clock (a FullCalendar named time zone): in a browser in Cancún or in
 * UTC each activity is drawn at its Mexico City time in its Mexico City day's column, even near midnight
 * (23:15 in Mexico City is already the next day in both), and a drag saves the time it shows.
 */
for (const [zone, weeksAhead] of [
  ["America/Cancun", 2],
  ["UTC", 3],
] as const) {
  test.describe(`a browser in ${zone}`, () => {
    test.use({ timezoneId: zone, viewport: { width: 1400, height: 1300 } });

    test(`draws each activity in its Mexico City day and hour, and a drag saves what it shows (${zone})`, async ({ page }) => {
      const monday = addDays(MONDAY, 7 * weeksAhead);
      const thursday = addDays(monday, 3);
      const friday = addDays(monday, 4);
      await signIn(page, "operator");
      const me = await (await page.request.get("/api/v1/sessions/current")).json();
      const tag = zone === "UTC" ? "utc" : "cancun";
      const plan = [
        { day: friday, from: "20:00", to: "21:00", text: `viernes noche ${tag}` },
        { day: friday, from: "23:15", to: "23:45", text: `casi medianoche ${tag}` },
        { day: monday, from: "00:15", to: "01:00", text: `madrugada ${tag}` },
      ];
      const ids: Record<string, number> = {};
      for (const a of plan) {
        const res = await page.request.post("/api/v1/activities", {
          data: {
            activity: {
              employee_id: me.user.employee.id,
              action_type: "internal",
              begins_at: `${a.day}T${a.from}:00-06:00`,
              ends_at: `${a.day}T${a.to}:00-06:00`,
              description: a.text,
            },
          },
        });
        expect(res.status(), await res.text()).toBe(201);
        ids[a.text] = (await res.json()).activity.id;
      }
      await page.goto("/app/activities");
      await expect(page.getByTestId("week-calendar")).toBeVisible({ timeout: 30_000 });
      for (let i = 0; i < weeksAhead; i++) await page.locator(".fc-next-button").click();
      await expect(page.locator(`.fc-timegrid-col[data-date="${monday}"]`)).toBeVisible();
      for (const a of plan) {
        const event = page.locator(`.fc-timegrid-col[data-date="${a.day}"] .fc-timegrid-event`, { hasText: a.text });
        await expect(event).toHaveCount(1);
        await expect(event).toContainText(`${a.from} - ${a.to}`);
      }
      // The day headers count each activity on the day it is drawn in.
      await expect(page.getByTestId(`day-hours-${friday}`)).toHaveText(/1(,|\.)5/);
      await expect(page.getByTestId(`day-hours-${monday}`)).toHaveText(/0(,|\.)75/);

      // Drag Friday's 20:00 block to Thursday 18:00: it saves 18:00 Mexico City time.
      await scrollCalendarTo(page, "17:00");
      const friday8pm = page.locator(".fc-timegrid-event:not(.fc-event-dragging)", { hasText: plan[0].text });
      await scrollCalendarTo(page, "17:00");
      await drag(page, await grip(friday8pm), await slot(page, thursday, "18:00"));
      await expect(
        page.locator(`.fc-timegrid-col[data-date="${thursday}"] .fc-timegrid-event`, { hasText: plan[0].text }),
      ).toContainText("18:00 - 19:00");
      await expect(async () => {
        const saved = await (await page.request.get(`/api/v1/activities/${ids[plan[0].text]}`)).json();
        expect(Date.parse(saved.activity.begins_at)).toBe(Date.parse(`${thursday}T18:00:00-06:00`));
        expect(Date.parse(saved.activity.ends_at)).toBe(Date.parse(`${thursday}T19:00:00-06:00`));
      }).toPass();
      // Its week is left as it was found: the .ics import walk (timesheet-import.spec) needs it empty.
      for (const id of Object.values(ids)) expect((await page.request.delete(`/api/v1/activities/${id}`)).status()).toBe(200);
    });
  });
}
