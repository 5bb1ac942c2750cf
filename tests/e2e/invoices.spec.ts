import { expect, test } from "@playwright/test";
import { expectNoEnglish, signIn } from "./fixtures";

test("finance invoices a project up to 100 %, is refused beyond it and resolves an invoice with its folio", async ({
  page,
  browser,
}) => {
  test.setTimeout(120_000);
  // An administrator creates a fresh project (no invoices yet) through the API.
  const admin = await browser.newPage();
  await signIn(admin, "admin");
  const project = await admin.evaluate(
    async (name) => {
      const clients = await (await fetch("/api/v1/clients?per_page=1")).json();
      const res = await fetch("/api/v1/projects", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ project: { name, client_id: clients.clients[0].id } }),
      });
      return (await res.json()).project as { id: number; name: string };
    },
    `Facturación por etapas ${Date.now().toString(36)}`,
  );
  await admin.close();

  await signIn(page, "finance");
  await page.goto(`/app/projects/${project.id}`);
  await expect(page.getByText(project.name).first()).toBeVisible();
  // Finanzas: read-only project, but the invoicing action and the invoices are there.
  await expect(page.getByRole("button", { name: "Facturación" })).toBeVisible();
  await expect(page.getByRole("link", { name: "Editar" })).toHaveCount(0);
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

  // Resolve the first invoice with a folio.
  await page.getByRole("cell", { name: "60 %" }).click();
  await expect(page).toHaveURL(new RegExp(`/app/projects/${project.id}/invoices/\\d+$`));
  await page.getByRole("button", { name: "Resolver" }).click();
  const dialog = page.getByRole("dialog");
  await dialog.getByRole("button", { name: "Confirmar" }).click();
  await expect(dialog.getByText("Por favor, agregue un comentario")).toBeVisible();
  await dialog.getByRole("textbox", { name: "Comentario" }).fill("Pagada por el cliente");
  await dialog.getByRole("textbox", { name: "Folio" }).fill("F-2024-001");
  await dialog.getByRole("button", { name: "Confirmar" }).click();
  await expect(dialog).toHaveCount(0);
  await expect(page.getByText("Resuelto").first()).toBeVisible();
  await expect(page.locator("#main-content").getByText("F-2024-001").first()).toBeVisible();
  const trail = page.getByRole("table", { name: "Bitácora de cambios" });
  await expect(trail.getByRole("cell", { name: "Resuelto" })).toBeVisible();
  await expect(page.getByRole("button", { name: "Resolver" })).toHaveCount(0);
  await expectNoEnglish(page);

  // Resolved: the folio is now editable.
  await page.getByRole("link", { name: "Editar" }).click();
  await expect(page).toHaveURL(/\/invoices\/update\/\d+$/);
  await expect(page.getByRole("textbox", { name: "Folio" })).toBeEnabled();
});
