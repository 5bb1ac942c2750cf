/**
 * Accessibility: axe-core (WCAG 2.1 A and AA) on every screen of the app and on its dialogs, as an
 * administrator, and the timesheet as an operator. Any serious or critical violation fails, listed with its
 * rule and the elements it hit. The routes come from the same table as the router (src/core/resources.ts).
 */
import { expect, type Locator, type Page, test } from "@playwright/test";
import { INVOICE_PATHS, PAGE_PATHS, SCREENS } from "../../src/core/resources";
import { addDays, businessToday, mondayOf } from "../../src/core/week";
import { audit } from "./axe";
import { scrollCalendarTo, slot } from "./calendar";
import { signIn } from "./fixtures";

/** The id of some record of each resource, and an invoice with its project (the demo firm has them all). */
async function existingIds(page: Page) {
  return page.evaluate(
    async (resources) => {
      const ids: Record<string, number> = {};
      for (const resource of resources) {
        const res = await fetch(`/api/v1/${resource}?per_page=1`);
        const body = res.ok ? await res.json() : {};
        ids[resource] = body[resource]?.[0]?.id ?? 1;
      }
      const invoice = (await (await fetch("/api/v1/invoices?per_page=1")).json()).invoices?.[0];
      return {
        ids,
        invoice: invoice ? { id: invoice.id as number, project: invoice.project_id as number } : { id: 1, project: 1 },
      };
    },
    SCREENS.map((s) => s.resource as string),
  );
}

/** Every screen: the pages, each resource's list, create, edit and show paths, and a project's invoices. */
function allPaths(ids: Record<string, number>, invoice: { id: number; project: number }) {
  const paths: string[] = Object.values(PAGE_PATHS).filter((p) => p.startsWith("/app/"));
  for (const screen of SCREENS) {
    for (const subs of Object.values(screen.paths)) {
      for (const sub of subs ?? []) paths.push(`/app/${screen.base}/${sub.replace(":id", String(ids[screen.resource]))}`);
    }
  }
  for (const sub of INVOICE_PATHS) {
    paths.push(`/app/projects/${invoice.project}/invoices${sub ? `/${sub.replace(":invoiceId", String(invoice.id))}` : ""}`);
  }
  return [...new Set(paths)];
}

/** Waits until the screen has its data: no request pending and no progress shown. */
async function settle(page: Page) {
  await page.waitForLoadState("networkidle");
  await expect(page.locator("#main-content, main").first()).toBeVisible();
  // Loading spinners are indeterminate; a progress with a value (the week's total) is content.
  await expect(page.locator("[role=progressbar]:not([aria-valuenow])")).toHaveCount(0, { timeout: 20_000 });
}

/** Opens a dialog, audits it alone, closes it with Escape. */
async function auditDialog(page: Page, where: string, open: () => Promise<unknown>, dialog?: Locator) {
  const shown = dialog ?? page.getByRole("dialog");
  // A click that lands while the last dialog is still fading out is lost: try again until it opens.
  await expect(async () => {
    await open();
    await expect(shown.first()).toBeVisible({ timeout: 3_000 });
  }).toPass({ timeout: 20_000 });
  await page.waitForLoadState("networkidle");
  const found = await audit(page, `${where} (diálogo)`, ".MuiDialog-root, [role=dialog]");
  await page.keyboard.press("Escape");
  await expect(shown).toHaveCount(0);
  // Until its fade ends the closing dialog's backdrop still takes the next click.
  await expect(page.locator(".MuiDialog-root")).toHaveCount(0);
  return found;
}

const NEXT_MONDAY = addDays(mondayOf(businessToday()), 7);

/** The timesheet and its dialogs: a new activity, the imports, the day's menu, copying a week. */
async function auditTimesheet(page: Page, who: string) {
  const found: string[] = [];
  await navigate(page, PAGE_PATHS.activities);
  await expect(page.getByTestId("week-calendar")).toBeVisible({ timeout: 30_000 });
  await page.locator(".fc-next-button").click();
  await expect(page.locator(`.fc-timegrid-col[data-date="${NEXT_MONDAY}"]`)).toBeVisible();
  await settle(page);
  found.push(...(await audit(page, `${who} ${PAGE_PATHS.activities}`)));
  await scrollCalendarTo(page, "08:00");
  found.push(
    ...(await auditDialog(
      page,
      `${who} nueva actividad`,
      async () => page.mouse.click(...(Object.values(await slot(page, NEXT_MONDAY, "09:00")) as [number, number])),
      page.getByTestId("activity-modal"),
    )),
  );
  // The same dialog on its «Glosario» tab: a long table, scrolled from the keyboard too.
  found.push(
    ...(await auditDialog(
      page,
      `${who} nueva actividad, glosario`,
      async () => {
        if (!(await page.getByTestId("activity-modal").isVisible()))
          await page.mouse.click(...(Object.values(await slot(page, NEXT_MONDAY, "09:00")) as [number, number]));
        await page.getByTestId("activity-modal").getByRole("tab", { name: "Glosario" }).click();
        await expect(page.getByTestId("activity-modal").getByRole("table").first()).toBeVisible();
      },
      page.getByTestId("activity-modal"),
    )),
  );
  for (const name of [/Importar actividades localmente \(CSV\)/, /Importar actividades localmente \(archivo \.ics\)/]) {
    found.push(...(await auditDialog(page, `${who} ${name.source}`, () => page.getByRole("button", { name }).click())));
  }
  // «Importar el día» names the all-day row; its dialog opens from that row's cell of a day.
  found.push(
    ...(await auditDialog(page, `${who} importar el día`, () =>
      page.locator(`.fc-daygrid-day[data-date="${NEXT_MONDAY}"]`).click(),
    )),
  );
  const copy = page.getByRole("button", { name: "Copiar semana anterior" });
  if (await copy.isEnabled()) {
    await copy.click();
    // With nothing to copy the page says so; with a week behind, the dialog asks.
    const dialog = page.getByRole("dialog");
    if (await dialog.isVisible({ timeout: 3_000 }).catch(() => false)) {
      found.push(...(await audit(page, `${who} copiar semana (diálogo)`, "[role=dialog]")));
      await page.keyboard.press("Escape");
    }
  }
  return found;
}

/**
 * Opens a path inside the running app (no reload: the router follows the history), as a link would, and waits
 * until the screen is drawn and its address stays put. The app may send a path elsewhere once it has the
 * record (a quotation that can no longer be edited opens its page): the audit then covers where it landed,
 * which must be a screen of the app, never the 404 page or the sign-in.
 */
async function navigate(page: Page, path: string) {
  await page.evaluate((to) => {
    window.history.pushState({}, "", to);
    window.dispatchEvent(new PopStateEvent("popstate"));
  }, path);
  await expect(async () => {
    const before = page.url();
    await settle(page);
    // A redirect follows the record's answer: the address must hold still a moment with the screen drawn.
    await page.waitForTimeout(400);
    expect(page.url()).toBe(before);
  }).toPass({ timeout: 30_000 });
  const landed = new URL(page.url()).pathname;
  expect(landed, path).toMatch(/^\/app(\/|$)/);
  expect(landed, path).not.toMatch(/\/(404|sign_in)$/);
  if (landed !== path) test.info().annotations.push({ type: "redirect", description: `${path} → ${landed}` });
}

// Less motion asked for, as some users do: a toast that appears during an audit is whole at once instead
// of being measured half faded in (contrast does not depend on motion).
test.use({ reducedMotion: "reduce" });

// One sign-in for every screen: the page is shared by the tests below, run in order.
test.describe
  .serial("as an administrator", () => {
    let page: Page;
    let paths: string[] = [];
    let ids: Record<string, number> = {};

    test.beforeAll(async ({ browser }) => {
      test.setTimeout(120_000);
      page = await browser.newPage({ reducedMotion: "reduce" });
      await signIn(page, "admin");
      const found = await existingIds(page);
      ids = found.ids;
      paths = allPaths(found.ids, found.invoice);
    });
    test.afterAll(async () => page?.context().close());

    test("every screen has no serious or critical WCAG 2.1 AA violation", async () => {
      test.setTimeout(paths.length * 60_000);
      const found: string[] = [];
      for (const path of paths) {
        await navigate(page, path);
        await settle(page);
        expect(page.url(), path).not.toMatch(/\/(404|sign_in)$/);
        found.push(...(await audit(page, path)));
      }
      expect(found, found.join("\n")).toEqual([]);
    });

    test("the timesheet's dialogs, a confirmation and an import have none", async () => {
      test.setTimeout(300_000);
      const found = await auditTimesheet(page, "admin");
      await navigate(page, `/app/client_group/update/${ids.client_groups}`);
      await settle(page);
      found.push(...(await auditDialog(page, "borrar grupo", () => page.getByRole("button", { name: "Eliminar" }).click())));
      await navigate(page, "/app/holydays");
      await settle(page);
      found.push(
        ...(await auditDialog(page, "importar días festivos", () =>
          page
            .getByRole("button", { name: /Importar/ })
            .first()
            .click(),
        )),
      );
      expect(found, found.join("\n")).toEqual([]);
    });
  });

test("the timesheet has no serious or critical WCAG 2.1 AA violation, as an operator", async ({ page }) => {
  test.setTimeout(300_000);
  await signIn(page, "operator");
  // Less motion asked for: MUI's transitions are off (the app bar's shadow has none).
  expect(await page.locator("header.MuiAppBar-root").evaluate((el) => getComputedStyle(el).transitionProperty)).toBe("none");
  const found = await auditTimesheet(page, "operador");
  expect(found, found.join("\n")).toEqual([]);
});

test("a dialog closed with Escape gives the focus back to the button that opened it", async ({ page }) => {
  await signIn(page, "operator");
  await expect(page.getByTestId("week-calendar")).toBeVisible({ timeout: 30_000 });
  await settle(page);
  // Opened from the keyboard, as someone without a mouse would: focus, Enter, then Escape.
  const opener = page.getByRole("button", { name: "Importar actividades localmente (CSV)" });
  await opener.focus();
  await page.keyboard.press("Enter");
  const dialog = page.getByTestId("import-dialog");
  await expect(dialog).toBeVisible();
  // The focus is inside the dialog while it is open.
  await expect(dialog.locator(":focus")).toHaveCount(1);
  await page.keyboard.press("Escape");
  await expect(dialog).toHaveCount(0);
  await expect(opener).toBeFocused();
});
