import { expect, type Page, test } from "@playwright/test";
import { messages } from "../../src/core/messages";
import { createProject, expectNoEnglish, fillDate, pickedDate, signIn } from "./fixtures";

/** An invoice of the project made through the API, dated as finance captured it. */
async function createInvoice(page: Page, projectId: number, date: string) {
  return page.evaluate(
    async ({ projectId, date }) => {
      const res = await fetch("/api/v1/invoices", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ invoice: { project_id: projectId, percentage_value: 10, date_of_invoice: date } }),
      });
      return (await res.json()).invoice as { id: number };
    },
    { projectId, date },
  );
}

test("an administrator's comment, responsible and ETA on a project's state change stay where people look", async ({ page }) => {
  test.setTimeout(120_000);
  await signIn(page, "admin");
  const run = Date.now().toString(36);
  const project = await createProject(page, `Historia ${run}`); // dated 15/01/2030
  await page.goto(`/app/projects/${project.id}`);
  await expect(page.getByText(project.name).first()).toBeVisible();
  await expect(page.locator(".ra-field-rape_name")).toContainText("—");

  // «Guardar comentario», as the project's page offers it.
  const note = `Llamar al cliente el lunes ${run}`;
  await page.getByRole("textbox", { name: "Nuevo comentario" }).fill(note);
  await page.getByRole("button", { name: "Guardar comentario" }).click();
  await expect(page.getByText("Comentario guardado")).toBeVisible();

  // The next state change, with a responsible and, first, an ETA before the project's date.
  await page.getByRole("button", { name: "Enviar propuesta" }).click();
  const dialog = page.getByRole("dialog");
  await dialog.getByRole("textbox", { name: "Comentario" }).fill("Propuesta enviada al cliente");
  await dialog.getByRole("combobox", { name: "Responsable (RAPE)" }).click();
  const option = page.getByRole("option").first();
  const responsible = ((await option.textContent()) ?? "").trim();
  await option.click();
  await fillDate(page, "Fecha estimada de entrega", "2030-01-10");
  const tooEarly = messages.etaBeforeProjectDate("2030-01-15");
  await expect(dialog.getByText(tooEarly)).toBeVisible();
  await dialog.getByRole("button", { name: "Confirmar" }).click();
  await expect(dialog).toBeVisible();
  await expect(dialog.getByText(tooEarly)).toBeVisible();

  await fillDate(page, "Fecha estimada de entrega", "2030-02-20");
  await expect(dialog.getByText(tooEarly)).toHaveCount(0);
  await dialog.getByRole("button", { name: "Confirmar" }).click();
  await expect(dialog).toHaveCount(0);
  await expect(page.getByText("Proyecto en Propuesta")).toBeVisible();

  // The responsible is the project's «Responsable (RAPE)»; the change log keeps the comment and the change.
  await expect(page.locator(".ra-field-rape_name")).toContainText(responsible);
  const log = page.getByRole("table", { name: "Bitácora de cambios" });
  await expect(log.getByRole("row").filter({ hasText: note })).toHaveCount(1);
  await expect(log.getByRole("row").filter({ hasText: "Responsable (RAPE)" })).toContainText(responsible);
  await page.reload();
  await expect(page.getByRole("table", { name: "Bitácora de cambios" }).getByRole("row").filter({ hasText: note })).toHaveCount(
    1,
  );
  await expectNoEnglish(page);
});

test("an invoice's state dialogs show its own billing date and say when saving changes it", async ({ page }) => {
  test.setTimeout(120_000);
  await signIn(page, "admin");
  const run = Date.now().toString(36);
  const project = await createProject(page, `Fechas de factura ${run}`);
  const invoice = await createInvoice(page, project.id, "2026-11-30");
  await page.goto(`/app/projects/${project.id}/invoices/${invoice.id}`);
  const dateField = page.locator(".ra-field-date_of_invoice");
  await expect(dateField).toContainText("30/11/2026");

  // «Enviar» today: the date shown is the invoice's, and saving keeps it.
  await page.getByRole("button", { name: "Enviar", exact: true }).click();
  const dialog = page.getByRole("dialog");
  await expect.poll(() => pickedDate(page, "Fecha de facturación")).toBe("30/11/2026");
  await expect(dialog.getByText("Se conserva la fecha de facturación de la factura")).toBeVisible();
  await dialog.getByRole("textbox", { name: "Comentario" }).fill("Enviada al cliente");
  await dialog.getByRole("button", { name: "Confirmar" }).click();
  await expect(dialog).toHaveCount(0);
  await expect(page.getByText("Factura en Enviada")).toBeVisible();
  await expect(dateField).toContainText("30/11/2026");
  const log = page.getByRole("table", { name: "Bitácora de cambios" });
  await expect(log.getByRole("row").filter({ hasText: "Enviada" })).toHaveCount(1);
  // Only the row of its creation: the state change did not touch the billing date.
  await expect(log.getByRole("row").filter({ hasText: "Fecha de facturación" })).toHaveCount(1);

  // «Resolver» with another date: the dialog says what changes before saving.
  await page.getByRole("button", { name: "Resolver" }).click();
  await expect.poll(() => pickedDate(page, "Fecha de facturación")).toBe("30/11/2026");
  await fillDate(page, "Fecha de facturación", "2026-12-01");
  await expect(dialog.getByText("La fecha de facturación cambiará de 30/11/2026 a 01/12/2026")).toBeVisible();
  await dialog.getByRole("textbox", { name: "Comentario" }).fill("Pagada");
  await dialog.getByRole("button", { name: "Confirmar" }).click();
  await expect(dialog).toHaveCount(0);
  await expect(dateField).toContainText("01/12/2026");
  await expectNoEnglish(page);
});

test("an Operador opening a project's invoice screens is told «Acceso denegado»", async ({ page }) => {
  await signIn(page, "operator");
  const projectId = await page.evaluate(
    async () => (await (await fetch("/api/v1/projects?per_page=1")).json()).projects[0].id as number,
  );
  for (const path of ["invoices/new_invoice", "invoices"]) {
    await page.goto(`/app/projects/${projectId}/${path}`);
    await expect(page.getByText("Acceso denegado").first()).toBeVisible();
  }
});
