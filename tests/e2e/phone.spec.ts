/**
 * SIA on a 390×844 phone, signed in as an administrator: no route scrolls sideways, the app bar keeps its
 * title and the user menu on screen, and a week is logged by taps on the one-day timesheet.
 */
import { expect, type Page, test } from "@playwright/test";
import { INVOICE_PATHS, PAGE_PATHS, SCREENS } from "../../src/core/resources";
import { addDays, businessToday, mondayOf } from "../../src/core/week";
import { audit } from "./axe";
import { scrollCalendarTo, slot } from "./calendar";
import { allowFutureActivities, signIn } from "./fixtures";

// The week logged is next week's, where the demo data never is.
allowFutureActivities();

// Less motion asked for, as in the accessibility walk: a toast that appears while a screen is audited is whole
// at once instead of being measured half faded in (contrast does not depend on motion).
test.use({ viewport: { width: 390, height: 844 }, hasTouch: true, reducedMotion: "reduce" });

/** The id of an existing record of each resource with screens (the demo firm has them all). */
async function existingIds(page: Page) {
  return page.evaluate(
    async (resources) => {
      const ids: Record<string, number> = {};
      for (const resource of resources) {
        const body = await (await fetch(`/api/v1/${resource}?per_page=1`)).json().catch(() => ({}));
        ids[resource] = body[resource]?.[0]?.id ?? 1;
      }
      const invoice = (await (await fetch("/api/v1/invoices?per_page=1")).json()).invoices?.[0];
      return { ids, invoice: { id: (invoice?.id ?? 1) as number, project: (invoice?.project_id ?? 1) as number } };
    },
    SCREENS.map((s) => s.resource as string),
  );
}

/** Every screen of every resource (list, create, edit, show), the invoices under a project, every page and the timesheet's grid. */
function everyRoute(ids: Record<string, number>, invoice: { id: number; project: number }) {
  const paths: string[] = Object.entries(PAGE_PATHS)
    .filter(([name]) => name !== "signIn")
    .map(([, path]) => path);
  // The timesheet's second view (src/timesheet/components/ViewSwitch.tsx), not a page of its own in PAGE_PATHS.
  paths.push(`${PAGE_PATHS.activities}/grid`);
  for (const screen of SCREENS) {
    paths.push(`/app/${screen.base}`);
    for (const subs of Object.values(screen.paths)) {
      for (const sub of subs ?? []) paths.push(`/app/${screen.base}/${sub.replace(":id", String(ids[screen.resource]))}`);
    }
  }
  for (const sub of INVOICE_PATHS) {
    paths.push(`/app/projects/${invoice.project}/invoices${sub ? `/${sub.replace(":invoiceId", String(invoice.id))}` : ""}`);
  }
  return [...new Set(paths)];
}

const pageWidth = (page: Page) =>
  page.evaluate(() => ({ scroll: document.documentElement.scrollWidth, inner: window.innerWidth }));

/** Requests of the page still unanswered, but the realtime stream (always open). */
function inFlight(page: Page) {
  const open = new Set<unknown>();
  const done = (r: unknown) => open.delete(r);
  page.on("request", (r) => {
    if (!r.url().includes("/realtime")) open.add(r);
  });
  page.on("requestfinished", done);
  page.on("requestfailed", done);
  return open;
}

/** Until no request has been open for 300 ms (or 8 s passed): the screen has drawn what it read. */
async function settle(page: Page, open: Set<unknown>) {
  const until = Date.now() + 8_000;
  let quietSince = Date.now();
  while (Date.now() < until) {
    await page.waitForTimeout(100);
    if (open.size > 0) quietSince = Date.now();
    else if (Date.now() - quietSince >= 300) return;
  }
}

/** Opens a path inside the running app, as its links do (a full reload per route would take minutes). */
async function visit(page: Page, path: string) {
  await page.evaluate((to) => {
    window.history.pushState({}, "", to);
    window.dispatchEvent(new PopStateEvent("popstate"));
  }, path);
}

test("no route scrolls sideways at 390 px, and the app bar keeps its title and «Cerrar sesión» on screen", async ({ page }) => {
  test.setTimeout(600_000);
  const open = inFlight(page);
  await signIn(page, "admin");
  const { ids, invoice } = await existingIds(page);
  const routes = everyRoute(ids, invoice);
  expect(routes.length).toBeGreaterThan(40);
  const wide: string[] = [];
  const faults: string[] = [];
  for (const path of routes) {
    await visit(page, path);
    await settle(page, open);
    if (path !== PAGE_PATHS.notFound) await expect(page.locator("#main-content, main").first(), path).toBeVisible();
    expect(page.url(), path).not.toMatch(/\/sign_in$/);
    const { scroll, inner } = await pageWidth(page);
    if (scroll > inner) wide.push(`${path}: ${scroll} px`);
    // The phone's layout has its own failures (a table that scrolls with nothing to focus): axe here too.
    faults.push(...(await audit(page, path)));
  }
  expect(wide, "routes wider than the phone").toEqual([]);
  expect(faults, faults.join("\n")).toEqual([]);

  // The title is whole (not cut with an ellipsis) and the user menu opens fully on screen.
  await page.goto(PAGE_PATHS.reporting);
  const title = page.locator("#react-admin-title");
  await expect(title).not.toBeEmpty();
  const cut = await title.evaluate((el) => {
    const text = (el.querySelector("*") ?? el) as HTMLElement;
    return text.scrollWidth > text.clientWidth + 1;
  });
  expect(cut, "title cut").toBe(false);
  await page.getByRole("button", { name: "Perfil" }).tap();
  const signOut = page.getByRole("menuitem", { name: "Cerrar sesión" });
  await expect(signOut).toBeVisible();
  const box = await signOut.boundingBox();
  expect(box && box.x >= 0 && box.x + box.width <= 390, `«Cerrar sesión» at ${JSON.stringify(box)}`).toBe(true);
});

const NEXT_MONDAY = addDays(mondayOf(businessToday()), 7);
const NEXT_TUESDAY = addDays(NEXT_MONDAY, 1);
const dayColumn = (page: Page, date: string) => page.locator(`.fc-timegrid-col[data-date="${date}"]`);

/** A finger swiped across the calendar, right to left (the next day) or left to right (the previous). */
async function swipe(page: Page, direction: "next" | "previous") {
  const box = await page.getByTestId("week-calendar").boundingBox();
  if (!box) throw new Error("no calendar");
  const y = box.y + 200;
  const [from, to] = direction === "next" ? [box.x + box.width - 40, box.x + 40] : [box.x + 40, box.x + box.width - 40];
  const cdp = await page.context().newCDPSession(page);
  await cdp.send("Input.dispatchTouchEvent", { type: "touchStart", touchPoints: [{ x: from, y }] });
  for (let i = 1; i <= 5; i++)
    await cdp.send("Input.dispatchTouchEvent", { type: "touchMove", touchPoints: [{ x: from + ((to - from) * i) / 5, y }] });
  await cdp.send("Input.dispatchTouchEvent", { type: "touchEnd", touchPoints: [] });
  await cdp.detach();
}

/** A tap on the day's slot at `time`, the full-screen form filled by taps and typing, and saved. */
async function logByTap(page: Page, date: string, time: string, description: string) {
  await scrollCalendarTo(page, time);
  const { x, y } = await slot(page, date, time);
  await page.touchscreen.tap(x, y);
  const modal = page.getByTestId("activity-modal");
  await expect(modal).toBeVisible();
  // Full screen: the form has the phone's whole width, and its times are whole («09:00», not «09:(»).
  const paper = await modal.locator(".MuiDialog-paper").boundingBox();
  expect(paper?.width).toBe(390);
  const start = modal.getByLabel("Inicio", { exact: true });
  await expect(start).toHaveValue(time);
  const cut = await start.evaluate((input: HTMLInputElement) => input.scrollWidth > input.clientWidth);
  expect(cut, "start time cut").toBe(false);
  await modal
    .getByRole("combobox", { name: /^Tipo (Proyecto|Soporte|Preventa|Actividad interna|Recursos humanos|Vacaciones)$/ })
    .tap();
  await page.getByRole("option", { name: "Actividad interna" }).tap();
  await modal.getByLabel("Descripción").fill(description);
  await modal.getByRole("button", { name: "Guardar" }).tap();
  await expect(modal).toBeHidden();
  await expect(page.locator(".fc-timegrid-event", { hasText: description })).toHaveCount(1);
}

test("a week logged on the phone: one day at a time, taps, the full-screen form, the week's total in sight", async ({ page }) => {
  test.setTimeout(180_000);
  const suffix = Date.now().toString(36);
  await signIn(page, "admin");
  // The calendar is loaded lazily: on a busy machine it takes longer than the usual 10 s.
  await expect(page.locator(".fc-timeGridDay-view")).toBeVisible({ timeout: 30_000 });
  // It opens on today, not on the week's Monday.
  await expect(dayColumn(page, businessToday())).toBeVisible();
  // The header's actions are folded behind one button.
  const copyWeek = page.getByRole("button", { name: "Copiar semana anterior" });
  await expect(copyWeek).toBeHidden();
  await page.getByTestId("phone-actions").tap();
  await expect(copyWeek).toBeVisible();
  await page.getByTestId("phone-actions").tap();
  await expect(copyWeek).toBeHidden();

  // The arrows go a day at a time, to next Monday, and are named so.
  await expect(page.locator(".fc-next-button")).toHaveAccessibleName("Día siguiente");
  for (let i = 0; i < 9 && !(await dayColumn(page, NEXT_MONDAY).isVisible()); i++) await page.locator(".fc-next-button").tap();
  await expect(dayColumn(page, NEXT_MONDAY)).toBeVisible();
  await expect(page.locator(".fc-timegrid-col[data-date]")).toHaveCount(1);
  await logByTap(page, NEXT_MONDAY, "09:00", `Planeación ${suffix}`);
  await logByTap(page, NEXT_MONDAY, "11:00", `Revisión ${suffix}`);

  // A swipe to Tuesday, one more, and back again.
  await swipe(page, "next");
  await expect(dayColumn(page, NEXT_TUESDAY)).toBeVisible();
  await logByTap(page, NEXT_TUESDAY, "10:00", `Soporte ${suffix}`);
  await swipe(page, "previous");
  await expect(dayColumn(page, NEXT_MONDAY)).toBeVisible();
  await expect(page.getByTestId(`day-hours-${NEXT_MONDAY}`)).toHaveText("2 h");

  // The week's total counts the three days' hours and stays on screen with the day scrolled down.
  await page.mouse.wheel(0, 600);
  await expect(page.getByTestId("week-total")).toContainText("3 h");
  await expect(page.getByTestId("week-total")).toBeInViewport();

  const saved = await page.evaluate(
    async ({ from, to, suffix }) => {
      const list = await (
        await fetch(`/api/v1/activities?by_begins_at[start_date]=${from}&by_begins_at[end_date]=${to}&per_page=all`)
      ).json();
      const mine = (list.activities as { id: number; description: string; begins_at: string; ends_at: string }[]).filter((a) =>
        a.description?.endsWith(suffix),
      );
      // Next week is where the desktop walks start from an empty week: what this walk logged goes.
      for (const a of mine) await fetch(`/api/v1/activities/${a.id}`, { method: "DELETE" });
      return mine
        .map((a) => [a.description.split(" ")[0], new Date(a.ends_at).getTime() - new Date(a.begins_at).getTime()])
        .sort();
    },
    { from: NEXT_MONDAY, to: NEXT_TUESDAY, suffix },
  );
  expect(saved).toEqual([
    ["Planeación", 3_600_000],
    ["Revisión", 3_600_000],
    ["Soporte", 3_600_000],
  ]);
});
