import { expect, type Page, test } from "@playwright/test";
import { APP_VERSION } from "../../src/core/constants";
import { INVOICE_PATHS, PAGE_PATHS, SCREENS } from "../../src/core/resources";
import { expectNoEnglish, signIn } from "./fixtures";

/** The id of some existing record of each resource (the demo firm has them all). */
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

/** Every path of SPEC §2, with real ids. */
function specPaths(ids: Record<string, number>, invoice: { id: number; project: number }) {
  const paths: string[] = [PAGE_PATHS.activities, PAGE_PATHS.showGoogleCalendar, PAGE_PATHS.changelog, PAGE_PATHS.reporting];
  for (const screen of SCREENS) {
    for (const subs of Object.values(screen.paths)) {
      for (const sub of subs ?? []) paths.push(`/app/${screen.base}/${sub.replace(":id", String(ids[screen.resource]))}`);
    }
  }
  for (const sub of INVOICE_PATHS) {
    paths.push(`/app/projects/${invoice.project}/invoices${sub ? `/${sub.replace(":invoiceId", String(invoice.id))}` : ""}`);
  }
  return paths;
}

test("every SPEC §2 path opens, in Spanish, without landing on /404", async ({ page }) => {
  test.setTimeout(240_000);
  await signIn(page, "admin");
  const { ids, invoice } = await existingIds(page);
  for (const path of specPaths(ids, invoice)) {
    await page.goto(path);
    await page.waitForLoadState("networkidle");
    expect(page.url(), path).not.toMatch(/\/404$/);
    expect(page.url(), path).not.toMatch(/\/sign_in$/);
    await expect(page.locator("#main-content, main").first(), path).toBeVisible();
    await expectNoEnglish(page);
  }
});

test("an unknown path, and a record that does not exist on any detail screen, land on /404", async ({ page }) => {
  test.setTimeout(120_000);
  await signIn(page, "admin");
  await page.goto("/app/no-existe");
  await expect(page).toHaveURL(/\/404$/);
  await expect(page.getByText("Página no encontrada")).toBeVisible();
  for (const screen of SCREENS) {
    const show = screen.paths.show?.[0];
    if (!show) continue;
    await page.goto(`/app/${screen.base}/${show.replace(":id", "987654")}`);
    await expect(page, `${screen.base} ${show}`).toHaveURL(/\/404$/);
  }
});

test("the changelog page renders CHANGELOG.md", async ({ page }) => {
  await signIn(page, "operator");
  await page.goto("/app/changeLogSia");
  await expect(page.getByRole("heading", { name: "Historial de cambios de SIA" })).toBeVisible();
  await expect(page.getByText(APP_VERSION).first()).toBeVisible();
});
