import { expect, test } from "@playwright/test";
import { expectNoEnglish, signIn } from "./fixtures";

test("an administrator opens «Integraciones» and tests the drive's connection", async ({ page }) => {
  await signIn(page, "admin");
  await page.getByRole("menuitem", { name: "Integraciones" }).click();
  await expect(page).toHaveURL(/\/app\/integrations$/);
  const table = page.getByRole("table", { name: "Integraciones" });
  for (const header of ["Servicio", "Adaptador", "Estado", "Variables"]) {
    await expect(table.getByRole("columnheader", { name: header })).toBeVisible();
  }
  const drive = page.getByTestId("integration-documents");
  await expect(drive).toContainText("Drive (documentos)");
  await expect(drive).toContainText("Predeterminado local");
  await expect(drive).toContainText("DOCUMENTS_ADAPTER");
  await expect(page.getByTestId("integration-mail")).toContainText("Correo saliente");
  await expect(page.getByTestId("integration-tickets")).toContainText("AZURE_DEVOPS_ORG_URL");
  await expect(page.getByTestId("integration-calendarReader")).toContainText("Importación de calendario");

  await drive.getByRole("button", { name: "Probar conexión: Drive (documentos)" }).click();
  await expect(drive.getByRole("status")).toHaveText("Conexión correcta");
  await expectNoEnglish(page);
});

test("an Operador has no «Integraciones» entry and is refused at its URL", async ({ page }) => {
  await signIn(page, "operator");
  await expect(page.getByRole("menuitem").first()).toBeVisible();
  await expect(page.getByRole("menuitem", { name: "Integraciones" })).toHaveCount(0);
  await page.goto("/app/integrations");
  // As on the resources' screens: react-admin's «Acceso denegado» page.
  await expect(page).toHaveURL(/\/app\/access-denied$/);
  await expect(page.getByText("No tiene los permisos necesarios para acceder a esta página")).toBeVisible();
  await expect(page.getByRole("table", { name: "Integraciones" })).toHaveCount(0);
});
