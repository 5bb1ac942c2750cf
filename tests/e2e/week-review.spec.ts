/**
 * A week sent to review, end to end: an employee (the demo Operador, of Desarrollo) sends two ended weeks;
 * the boss of Desarrollo (the demo administrator) returns one with a reason; the employee reads it, fixes
 * that week and sends it again; the boss approves both at once, and the weeks show closed. At desktop and at
 * phone width, each in its own past weeks (where no other walk writes), with axe on every screen it passes.
 */
import { type Browser, expect, type Page, test } from "@playwright/test";
import { addDays, businessToday, formatDate, mondayOf } from "../../src/core/week";
import { audit } from "./axe";
import { expectNoEnglish, signIn } from "./fixtures";

const THIS_MONDAY = mondayOf(businessToday());
const PHONE = { viewport: { width: 390, height: 844 }, hasTouch: true } as const;

async function signedIn(browser: Browser, role: "operator" | "admin", phone: boolean): Promise<Page> {
  const context = await browser.newContext({ ...(phone ? PHONE : {}), reducedMotion: "reduce" });
  const page = await context.newPage();
  await signIn(page, role);
  return page;
}

/** The employee opens that week on the timesheet (on a phone, its actions are folded). */
async function openWeek(page: Page, monday: string, phone: boolean) {
  await page.goto(`/app/activities?semana=${monday}`);
  await expect(page.getByTestId("week-calendar")).toBeVisible({ timeout: 30_000 });
  if (phone) {
    const fold = page.getByTestId("phone-actions");
    if ((await fold.getAttribute("aria-expanded")) !== "true") await fold.click();
  }
}

async function sendToReview(page: Page, monday: string, phone: boolean) {
  await openWeek(page, monday, phone);
  await page.getByRole("button", { name: "Enviar semana a revisión" }).click();
  const dialog = page.getByRole("dialog");
  await expect(dialog).toContainText(
    `¿Enviar a revisión la semana del ${formatDate(monday)} al ${formatDate(addDays(monday, 6))}?`,
  );
  await expect(dialog).toContainText(/Registraste .+ h de .+ h esperadas\./);
  // Days with no hours are named, and do not stop it.
  await expect(dialog.getByTestId("submit-empty-days")).toContainText("Días sin horas:");
  expect(await audit(page, "enviar semana a revisión", '[role="dialog"]')).toEqual([]);
  await dialog.getByRole("button", { name: "Enviar semana a revisión" }).click();
  await expect(page.getByText("La semana se envió a revisión")).toBeVisible();
  await expect(page.getByTestId("week-in-review")).toBeVisible();
  await expect(page.getByRole("button", { name: "Enviar semana a revisión" })).toHaveCount(0);
}

/** An internal activity on `day` through the API, as the signed-in page; its answer's status. */
const logInternal = (page: Page, day: string, from: string, to: string, description: string) =>
  page.evaluate(
    async (a) =>
      (
        await fetch("/api/v1/activities", {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({
            activity: {
              action_type: "internal",
              description: a.description,
              begins_at: `${a.day}T${a.from}:00-06:00`,
              ends_at: `${a.day}T${a.to}:00-06:00`,
            },
          }),
        })
      ).status,
    { day, from, to, description },
  );

/** The row (desktop) or card (phone) of the employee's week on «Semanas por revisar». */
const reviewOf = (page: Page, monday: string, phone: boolean) =>
  page
    .getByTestId(phone ? "review-card" : "review-row")
    .filter({ hasText: "Jorge Hernández Castillo" })
    .filter({
      hasText: formatDate(monday),
    });

for (const phone of [false, true]) {
  test(`${phone ? "on a phone: " : ""}an employee sends two weeks, the boss returns one with a reason, it is fixed and sent again, and both are approved at once`, async ({
    browser,
  }) => {
    test.slow();
    // Weeks a year back and more, one pair per width.
    const first = addDays(THIS_MONDAY, -7 * (phone ? 62 : 60));
    const second = addDays(first, -7);
    const employee = await signedIn(browser, "operator", phone);
    const boss = await signedIn(browser, "admin", phone);

    await sendToReview(employee, first, phone);
    await sendToReview(employee, second, phone);
    // In review, the week is read-only: the server refuses a new activity in it.
    const refused = await logInternal(employee, addDays(first, 1), "19:00", "20:00", "Corrección");
    expect(refused).toBe(422);

    // The boss: the menu names the screen and counts what waits.
    if (phone) await boss.goto("/app/week_reviews");
    else {
      await boss.goto("/app/activities");
      await expect(boss.getByTestId("menu-reviews")).toBeVisible({ timeout: 30_000 });
      await boss.getByRole("menuitem", { name: "Semanas por revisar" }).click();
    }
    await expect(boss).toHaveURL(/\/app\/week_reviews$/);
    const firstRow = reviewOf(boss, first, phone);
    await expect(firstRow).toHaveCount(1, { timeout: 30_000 });
    await expect(firstRow).toContainText(/ h de .+ h/);
    expect(await audit(boss, `/app/week_reviews${phone ? " (teléfono)" : ""}`)).toEqual([]);
    await expectNoEnglish(boss);

    // Opened read-only.
    await firstRow
      .getByRole("button", { name: `Ver la semana del ${formatDate(first)} de Jorge Hernández Castillo`, exact: true })
      .click();
    const view = boss.getByRole("dialog");
    await expect(view).toContainText(`Semana del ${formatDate(first)} al ${formatDate(addDays(first, 6))}`);
    await expect(view.getByTestId("review-history")).toContainText("Enviada a revisión por Jorge Hernández Castillo");
    await view.getByRole("button", { name: "Cerrar" }).click();

    // Returned with a reason (required).
    await firstRow
      .getByRole("button", { name: `Devolver la semana del ${formatDate(first)} de Jorge Hernández Castillo` })
      .click();
    const ask = boss.getByRole("dialog");
    const confirm = ask.getByRole("button", { name: "Devolver" });
    await expect(confirm).toBeDisabled();
    const reason = `Falta el martes ${Date.now().toString(36)}`;
    await ask.getByRole("textbox", { name: "Motivo" }).fill(reason);
    expect(await audit(boss, "devolver semana", '[role="dialog"]')).toEqual([]);
    await confirm.click();
    await expect(boss.getByText("La semana se devolvió a su empleado")).toBeVisible();
    await expect(firstRow).toHaveCount(0);

    // The employee reads why, in the bell and on the week, fixes it and sends it again.
    await employee.reload();
    await employee.getByTestId("bell").click();
    await expect(employee.getByRole("menuitem").filter({ hasText: reason })).toBeVisible();
    await employee.getByRole("menuitem").filter({ hasText: reason }).click();
    await expect(employee).toHaveURL(new RegExp(`semana=${first}`));
    await expect(employee.getByTestId("week-returned")).toContainText(reason);
    expect(await audit(employee, `semana devuelta${phone ? " (teléfono)" : ""}`)).toEqual([]);
    const fixed = await logInternal(employee, addDays(first, 1), "09:00", "17:00", "Corrección del martes");
    expect(fixed).toBe(201);
    await sendToReview(employee, first, phone);
    await expect(employee.getByTestId("week-returned")).toHaveCount(0);

    // Both approved at once.
    await boss.reload();
    const rows = [reviewOf(boss, first, phone), reviewOf(boss, second, phone)];
    for (const row of rows) {
      await expect(row).toHaveCount(1, { timeout: 30_000 });
      await row.getByRole("checkbox").check();
    }
    await boss.getByRole("button", { name: "Aprobar seleccionadas (2)" }).click();
    await expect(boss.getByText("Se aprobaron 2 semanas")).toBeVisible();
    for (const row of rows) await expect(row).toHaveCount(0);
    // Among the approved ones, with who approved them; the returned one's history keeps the reason.
    await boss.getByRole("button", { name: "Aprobadas" }).click();
    for (const row of rows) await expect(row).toContainText("Alejandra Ramírez Torres");
    await rows[0].getByRole("button", { name: `Ver la semana del ${formatDate(first)} de Jorge Hernández Castillo` }).click();
    await expect(boss.getByRole("dialog").getByTestId("review-history")).toContainText(reason);
    await boss.getByRole("dialog").getByRole("button", { name: "Cerrar" }).click();

    // Closed for the employee, as an administrator's freeze closes it, and said who approved it.
    await openWeek(employee, first, phone);
    await expect(employee.getByTestId("week-closed")).toBeVisible();
    await expect(employee.getByTestId("week-approved")).toContainText(
      `Aprobada por Alejandra Ramírez Torres el ${formatDate(businessToday())}`,
    );
    await expectNoEnglish(employee);

    await employee.context().close();
    await boss.context().close();
  });
}

test("an Operador who leads no workspace has no «Semanas por revisar» and sees no one's weeks there", async ({ page }) => {
  await signIn(page, "operator");
  await expect(page.getByRole("menuitem").first()).toBeVisible();
  await expect(page.getByRole("menuitem", { name: "Semanas por revisar" })).toHaveCount(0);
  const answer = await page.evaluate(async () => (await fetch("/api/v1/week_reviews")).json());
  expect(answer).toEqual({ week_reviews: [], reviewer: false });
});
