/**
 * The timesheet in a browser that is not on Mexico City's clock (Cancún is an hour ahead all year): the
 * calendar's columns are the browser's days, and the week it asks for is the one it shows, Monday to
 * Sunday. Naming the browser's Monday midnight by the firm's date made it Sunday there, and the week
 * came back empty.
 */
import { expect, test } from "@playwright/test";
import { addDays, businessToday, mondayOf } from "../../src/core/week";
import { signIn } from "./fixtures";

const TODAY = businessToday();
const MONDAY = mondayOf(TODAY);

test.use({ timezoneId: "America/Cancun" });

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
