import { expect, test } from "@playwright/test";
import { INVOICE_PATHS, PAGE_PATHS, SCREENS } from "../../src/core/resources";
import { expectNoEnglish, signIn } from "./fixtures";

/** Every path of SPEC §2, with real ids where a screen exists. */
function specPaths(clientId: number) {
  const paths: string[] = [PAGE_PATHS.activities, PAGE_PATHS.showGoogleCalendar, PAGE_PATHS.changelog, PAGE_PATHS.reporting];
  for (const screen of SCREENS) {
    const id = screen.resource === "clients" ? clientId : 1;
    for (const subs of Object.values(screen.paths)) {
      for (const sub of subs ?? []) paths.push(`/app/${screen.base}/${sub.replace(":id", String(id))}`);
    }
  }
  for (const sub of INVOICE_PATHS) paths.push(`/app/projects/1/invoices${sub ? `/${sub.replace(":invoiceId", "1")}` : ""}`);
  return paths;
}

test("every SPEC §2 path opens, in Spanish, without landing on /404", async ({ page }) => {
  test.setTimeout(180_000);
  await signIn(page, "admin");
  const clientId = await page.evaluate(async () => (await (await fetch("/api/v1/clients?per_page=1")).json()).clients[0]?.id ?? 1);
  for (const path of specPaths(clientId)) {
    await page.goto(path);
    await page.waitForLoadState("networkidle");
    expect(page.url(), path).not.toMatch(/\/404$/);
    expect(page.url(), path).not.toMatch(/\/sign_in$/);
    await expect(page.locator("#main-content, main").first(), path).toBeVisible();
    await expectNoEnglish(page);
  }
});

test("an unknown path and a missing record land on /404", async ({ page }) => {
  await signIn(page, "admin");
  await page.goto("/app/no-existe");
  await expect(page).toHaveURL(/\/404$/);
  await expect(page.getByText("Página no encontrada")).toBeVisible();
  await page.goto("/app/clients/show/999999");
  await expect(page).toHaveURL(/\/404$/);
});

test("the changelog page renders CHANGELOG.md", async ({ page }) => {
  await signIn(page, "operator");
  await page.goto("/app/changeLogSia");
  await expect(page.getByRole("heading", { name: "Historial de cambios de SIA" })).toBeVisible();
  await expect(page.getByText("1.40.0").first()).toBeVisible();
});
