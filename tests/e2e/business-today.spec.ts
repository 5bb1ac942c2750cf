/**
 * The default dates of the project and invoice state dialogs are the firm's day (America/Mexico_City):
 * with the browser's clock at 19:30 in Mexico City (already tomorrow in UTC) they still say today.
 */
import { expect, type Locator, type Page, test } from "@playwright/test";
import { businessToday } from "../../src/core/week";
import { signIn } from "./fixtures";

const TODAY = businessToday();
/** 19:30 of the firm's today: 01:30 UTC of the next day. */
const EVENING = new Date(`${TODAY}T19:30:00-06:00`);

async function expectDate(field: Locator, date: string) {
  const [year, month, day] = date.split("-");
  await expect(field.getByRole("spinbutton", { name: "Día" })).toHaveText(day);
  await expect(field.getByRole("spinbutton", { name: "Mes" })).toHaveText(month);
  await expect(field.getByRole("spinbutton", { name: "Año" })).toHaveText(year);
}

async function evening(page: Page) {
  // Date.now() and new Date() say 19:30; timers keep running.
  await page.clock.setFixedTime(EVENING);
  expect(await page.evaluate(() => new Date().toISOString().slice(0, 10))).not.toBe(TODAY);
}

test("after 18:00 in Mexico City the project dialog defaults to today, the invoice dialog to its own billing date", async ({
  page,
}) => {
  await signIn(page, "admin");
  await evening(page);
  const { projectId, invoiceId } = await page.evaluate(async () => {
    const projects = (await (await fetch("/api/v1/projects?per_page=all")).json()).projects as {
      id: number;
      permitted_events: unknown[];
    }[];
    const invoices = (await (await fetch("/api/v1/invoices?per_page=all")).json()).invoices as {
      id: number;
      project_id: number;
      permitted_events?: unknown[];
      state: string;
      date_of_invoice: string | null;
    }[];
    const invoice = invoices.find((i) => i.state === "pendiente" || i.state === "enviada");
    return {
      projectId: projects.find((p) => p.permitted_events.length > 0)?.id,
      invoiceId: invoice ? { id: invoice.id, project: invoice.project_id, date: invoice.date_of_invoice } : null,
    };
  });
  expect(projectId).toBeTruthy();

  await page.goto(`/app/projects/${projectId}`);
  const actions = page.locator(".MuiCard-root").filter({ has: page.getByRole("heading", { name: "Cambiar estado" }) });
  await actions.getByRole("button").first().click();
  const dialog = page.getByRole("dialog");
  await expectDate(dialog.getByRole("group", { name: "Fecha", exact: true }), TODAY);
  await dialog.getByRole("button", { name: "Cancelar" }).click();

  expect(invoiceId).toBeTruthy();
  await page.goto(`/app/projects/${invoiceId?.project}/invoices/${invoiceId?.id}`);
  const invoiceActions = page.locator(".MuiCard-root").filter({ has: page.getByRole("heading", { name: "Cambiar estado" }) });
  await invoiceActions.getByRole("button").first().click();
  // The billing date is the invoice's own, never replaced by the day of the state change; today when it has none.
  await expectDate(
    page.getByRole("dialog").getByRole("group", { name: "Fecha de facturación", exact: true }),
    invoiceId?.date ?? TODAY,
  );
});
