import { expect, test } from "@playwright/test";
import { createProject, expectNoEnglish, signIn } from "./fixtures";

test("finance invoices a project up to 100 %, is refused beyond it and resolves an invoice with its folio", async ({
  page,
  browser,
}) => {
  test.setTimeout(120_000);
  // An administrator creates a fresh project (no invoices yet) through the API.
  const admin = await browser.newPage();
  await signIn(admin, "admin");
  const run = Date.now().toString(36);
  const project = await createProject(admin, `Facturación por etapas ${run}`);
  await admin.close();

  await signIn(page, "finance");
  await page.goto(`/app/projects/${project.id}`);
  await expect(page.getByText(project.name).first()).toBeVisible();
  // Finanzas: read-only project, but the invoicing action and the invoices are there.
  await expect(page.getByRole("button", { name: "Facturación" })).toBeVisible();
  await expect(page.getByRole("link", { name: "Editar" })).toHaveCount(0);
  // «100% facturas ya realizadas» cannot be marked before the invoices reach 100 %.
  await page.getByRole("button", { name: "Facturación" }).click();
  const invoicing = page.getByRole("dialog");
  await expect(invoicing.getByRole("checkbox", { name: "100% facturas ya realizadas" })).toBeDisabled();
  await expect(invoicing.getByTestId("invoiced-percentage")).toContainText("suman 0 %");
  await invoicing.getByRole("button", { name: "Cancelar" }).click();
  await expect(invoicing).toHaveCount(0);
  await page.getByRole("link", { name: "Facturas" }).click();
  await expect(page).toHaveURL(new RegExp(`/app/projects/${project.id}/invoices$`));
  await expect(page.getByText("Falta por facturar: 100 %")).toBeVisible();
  await expectNoEnglish(page);

  const addInvoice = async (value: string) => {
    await page.getByRole("link", { name: "Nueva factura" }).click();
    await expect(page).toHaveURL(new RegExp(`/app/projects/${project.id}/invoices/new_invoice$`));
    const percentage = page.getByRole("spinbutton", { name: "Porcentaje" });
    await expect(percentage).toHaveValue("1");
    await percentage.fill(value);
    await page.getByRole("button", { name: "Guardar" }).click();
  };

  await addInvoice("60");
  await expect(page).toHaveURL(new RegExp(`/app/projects/${project.id}/invoices$`));
  await expect(page.getByText("Falta por facturar: 40 %")).toBeVisible();
  await expect(page.getByText("Facturado: 60 %")).toBeVisible();

  // Beyond what is missing: the server refuses and its message is shown.
  await addInvoice("50");
  await expect(page.getByText(/queda 40 % por facturar/).first()).toBeVisible();
  await expect(page).toHaveURL(/\/new_invoice$/);
  await page.getByRole("spinbutton", { name: "Porcentaje" }).fill("40");
  await page.getByRole("button", { name: "Guardar" }).click();
  await expect(page).toHaveURL(new RegExp(`/app/projects/${project.id}/invoices$`));
  await expect(page.getByText("Falta por facturar: 0 %")).toBeVisible();
  await expect(page.getByText("Facturado: 100 %")).toBeVisible();
  await expect(page.getByRole("row")).toHaveCount(3);
  // At 100 % no new invoice is offered, and its path says why.
  await expect(page.getByText("Proyecto facturado al 100 %")).toBeVisible();
  await expect(page.getByRole("link", { name: "Nueva factura" })).toHaveCount(0);
  await page.goto(`/app/projects/${project.id}/invoices/new_invoice`);
  await expect(page.getByText("El proyecto ya está facturado al 100 %: no admite más facturas")).toBeVisible();
  await expect(page.getByRole("spinbutton", { name: "Porcentaje" })).toHaveCount(0);
  await page.goto(`/app/projects/${project.id}/invoices`);

  // Resolve the first invoice with a folio.
  await page.getByRole("cell", { name: "60 %" }).click();
  await expect(page).toHaveURL(new RegExp(`/app/projects/${project.id}/invoices/\\d+$`));
  await page.getByRole("button", { name: "Resolver" }).click();
  const dialog = page.getByRole("dialog");
  await dialog.getByRole("button", { name: "Confirmar" }).click();
  await expect(dialog.getByText("Por favor, agregue un comentario")).toBeVisible();
  await dialog.getByRole("textbox", { name: "Comentario" }).fill("Pagada por el cliente");
  await dialog.getByRole("textbox", { name: "Folio" }).fill(`F-${run}-001`);
  await dialog.getByRole("button", { name: "Confirmar" }).click();
  await expect(dialog).toHaveCount(0);
  await expect(page.getByText("Resuelto").first()).toBeVisible();
  await expect(page.locator("#main-content").getByText(`F-${run}-001`).first()).toBeVisible();
  const trail = page.getByRole("table", { name: "Bitácora de cambios" });
  await expect(trail.getByRole("cell", { name: "Resuelto" })).toBeVisible();
  await expect(page.getByRole("button", { name: "Resolver" })).toHaveCount(0);
  await expectNoEnglish(page);

  // Resolved with its folio: read-only. No Editar; its edit path leads back to the detail with the reason.
  const firstUrl = page.url();
  await expect(page.getByRole("link", { name: "Editar" })).toHaveCount(0);
  await page.goto(firstUrl.replace(/\/invoices\/(\d+)$/, "/invoices/update/$1"));
  await expect(page.getByText("la factura está resuelta: solo cambia con un cambio de estado")).toBeVisible();
  await expect(page).toHaveURL(firstUrl);
  await expect(page.getByRole("button", { name: "Eliminar" })).toHaveCount(0);

  // The second invoice: the same folio is refused (any case, outer spaces); resolved without one, the
  // folio is captured once afterwards while percentage and date stay as they were.
  await page.getByRole("link", { name: "Facturas del proyecto" }).click();
  await page.getByRole("cell", { name: "40 %" }).click();
  await page.getByRole("button", { name: "Resolver" }).click();
  await dialog.getByRole("textbox", { name: "Comentario" }).fill("Pagada");
  await dialog.getByRole("textbox", { name: "Folio" }).fill(` f-${run}-001 `);
  await dialog.getByRole("button", { name: "Confirmar" }).click();
  await expect(dialog.getByText(/ya está registrado en otra factura/)).toBeVisible();
  await dialog.getByRole("textbox", { name: "Folio" }).fill("");
  await dialog.getByRole("button", { name: "Confirmar" }).click();
  await expect(dialog).toHaveCount(0);
  await expect(page.getByText("Resuelto").first()).toBeVisible();
  await page.getByRole("link", { name: "Editar" }).click();
  await expect(page).toHaveURL(/\/invoices\/update\/\d+$/);
  await expect(page.getByRole("spinbutton", { name: "Porcentaje" })).toBeDisabled();
  await expect(page.getByRole("button", { name: "Eliminar" })).toHaveCount(0);
  await page.getByRole("textbox", { name: "Folio" }).fill(`F-${run}-002`);
  await page.getByRole("button", { name: "Guardar" }).click();
  await expect(page).toHaveURL(/\/invoices\/\d+$/);
  await expect(page.locator("#main-content").getByText(`F-${run}-002`).first()).toBeVisible();
  await expect(page.getByRole("link", { name: "Editar" })).toHaveCount(0);
  await expectNoEnglish(page);

  // At 100 % the project can be marked «100% facturas ya realizadas».
  await page.getByRole("link", { name: "Volver al proyecto" }).click();
  await expect(page).toHaveURL(new RegExp(`/app/projects/${project.id}$`));
  await page.getByRole("button", { name: "Facturación" }).click();
  await expect(invoicing.getByTestId("invoiced-percentage")).toContainText("suman 100 %");
  await invoicing.getByRole("checkbox", { name: "100% facturas ya realizadas" }).check();
  await invoicing.getByRole("button", { name: "Guardar" }).click();
  await expect(invoicing).toHaveCount(0);
  await expect(page.locator(".ra-field-invoice_action_label")).toContainText("100% facturas ya realizadas");
});
