/**
 * «Capacidad» on the demo firm: an administrator reads it at desktop width (axe clean), filters it by
 * workspace with the keyboard and downloads what is shown as CSV; on a phone it is one section per person
 * that does not scroll sideways; an Operador or Finanzas has no menu entry and is refused at its URL.
 */
import fs from "node:fs";
import { expect, type Page, test } from "@playwright/test";
import { addDays, businessToday, formatDate, mondayOf } from "../../src/core/week";
import { audit } from "./axe";
import { expectNoEnglish, signIn } from "./fixtures";

const TABLE = "Capacidad por empleado y semana";

async function chooseWorkspaceByKeyboard(page: Page) {
  const picker = page.getByRole("combobox", { name: "Espacio de trabajo" });
  await picker.focus();
  await page.keyboard.press("Enter");
  const options = page.getByRole("option");
  await expect(options.nth(1)).toBeVisible();
  const name = ((await options.nth(1).textContent()) ?? "").trim();
  await page.keyboard.press("ArrowDown");
  await page.keyboard.press("Enter");
  await expect(picker).toHaveText(name);
  return name;
}

test("an administrator reads capacity by person and week, filters by workspace and downloads the CSV", async ({ page }) => {
  await signIn(page, "admin");
  await page.getByRole("menuitem", { name: "Capacidad" }).click();
  await expect(page).toHaveURL(/\/app\/capacity$/);
  const table = page.getByRole("table", { name: TABLE });
  await expect(table).toBeVisible({ timeout: 30_000 });

  // 12 weeks back to 8 ahead: 21 weeks, the current one marked.
  const current = mondayOf(businessToday());
  await expect(page.getByTestId("capacity-range")).toHaveText(
    `Semanas del ${formatDate(addDays(current, -84))} al ${formatDate(addDays(current, 62))}`,
  );
  await expect(table.getByRole("columnheader")).toHaveCount(22);
  await expect(table.getByRole("columnheader", { name: /\(actual\)/ })).toHaveCount(1);
  const rows = table.locator("tbody tr");
  expect(await rows.count()).toBeGreaterThan(3);
  // Under-assigned weeks say so with an arrow named for their state, not by colour alone.
  const under = table.locator('td[data-state="under"]').first();
  await expect(under).toBeVisible();
  await expect(under.getByRole("img", { name: "Subasignado" })).toHaveCount(1);
  // Past weeks show the hours logged, split.
  await expect(table.locator(`td[data-week="${addDays(current, -7)}"]`).first()).toContainText(/Reg\. .* h/);
  await expect(table.locator(`td[data-week="${addDays(current, 7)}"]`).first()).not.toContainText("Reg.");
  await expectNoEnglish(page);
  expect(await audit(page, "/app/capacity")).toEqual([]);

  // The table scrolls sideways in a region the keyboard can reach.
  const region = page.getByRole("region", { name: TABLE });
  await region.focus();
  await expect(region).toBeFocused();
  await page.keyboard.press("End");

  const everyone = await rows.count();
  const workspace = await chooseWorkspaceByKeyboard(page);
  await expect.poll(() => rows.count()).toBeLessThan(everyone);
  const shown = await rows.count();
  expect(shown).toBeGreaterThan(0);
  for (const text of await rows.locator("th").allInnerTexts()) expect(text).toContain(workspace);

  const download = page.waitForEvent("download");
  await page.getByRole("button", { name: "Exportar CSV" }).click();
  const file = await download;
  expect(file.suggestedFilename()).toBe(`capacidad_${addDays(current, -84)}_${addDays(current, 56)}.csv`);
  const csv = fs.readFileSync((await file.path()) as string, "utf8");
  expect(csv.startsWith("\uFEFFEmpleado,Espacio de trabajo,Semana (lunes),Horas diarias,Capacidad,Asignadas,Estado,")).toBe(true);
  const lines = csv.trim().split("\r\n").slice(1);
  // One line per person shown and week, all of the workspace chosen.
  expect(lines).toHaveLength(shown * 21);
  for (const line of lines) expect(line).toContain(`,${workspace},`);
  await expect(page.getByText(/Se descargó capacidad_/)).toBeVisible();

  // Earlier weeks with the arrows; «Semanas actuales» comes back.
  await page.getByRole("button", { name: "Cuatro semanas antes" }).click();
  await expect(page.getByTestId("capacity-range")).toHaveText(
    `Semanas del ${formatDate(addDays(current, -112))} al ${formatDate(addDays(current, 34))}`,
  );
  await page.getByRole("button", { name: "Semanas actuales" }).click();
  await expect(table.getByRole("columnheader", { name: /\(actual\)/ })).toHaveCount(1);
});

test.describe("on a phone", () => {
  test.use({ viewport: { width: 390, height: 844 }, hasTouch: true });

  test("each person is a section with their weeks listed; nothing scrolls sideways", async ({ page }) => {
    await signIn(page, "admin");
    await page.goto("/app/capacity");
    const people = page.locator('[data-testid^="capacity-person-"]');
    await expect(people.first()).toBeVisible({ timeout: 30_000 });
    await expect(page.getByRole("table", { name: TABLE })).toHaveCount(0);
    const first = people.first();
    await first.getByRole("button").first().click();
    const weeks = first.getByRole("list");
    await expect(weeks).toBeVisible();
    await expect(weeks.getByRole("listitem")).toHaveCount(21);
    await expect(weeks.getByRole("listitem").first()).toContainText(/Semana del .* de .* h/);
    const width = await page.evaluate(() => ({ scroll: document.documentElement.scrollWidth, inner: window.innerWidth }));
    expect(width.scroll).toBeLessThanOrEqual(width.inner);
    expect(await audit(page, "/app/capacity (teléfono)")).toEqual([]);
  });
});

for (const role of ["operator", "finance"] as const) {
  test(`${role === "operator" ? "an Operador (a plain employee)" : "Finanzas"} has no «Capacidad» entry and is refused at its URL`, async ({
    page,
  }) => {
    await signIn(page, role);
    await expect(page.getByRole("menuitem").first()).toBeVisible();
    await expect(page.getByRole("menuitem", { name: "Capacidad" })).toHaveCount(0);
    await page.goto("/app/capacity");
    await expect(page).toHaveURL(/\/app\/access-denied$/);
    await expect(page.getByText("No tiene los permisos necesarios para acceder a esta página")).toBeVisible();
    await expect(page.getByRole("table", { name: TABLE })).toHaveCount(0);
    expect((await page.request.get("/api/v1/capacity")).status()).toBe(403);
  });
}
