import { expect, test } from "@playwright/test";
import { expectNoEnglish, signIn } from "./fixtures";

test("an administrator changes the default customer in the settings form", async ({ page }) => {
  await signIn(page, "admin");
  const other = await page.evaluate(async () => {
    const settings = (await (await fetch("/api/v1/app_settings/1")).json()).app_setting;
    const clients = (await (await fetch("/api/v1/clients?per_page=5&by_column[column]=name")).json()).clients as {
      id: number;
      name: string;
    }[];
    return clients.find((c) => c.id !== settings.default_customer_id)!;
  });
  await page.getByRole("menuitem", { name: "Configuración", exact: true }).click();
  await expect(page).toHaveURL(/\/app\/app_settings$/);
  await expectNoEnglish(page);
  const customer = page.getByRole("combobox", { name: "Cliente predeterminado", exact: true });
  await expect(customer).not.toHaveValue("");
  await expect(page.getByRole("combobox", { name: "Espacio de trabajo predeterminado", exact: true })).toBeVisible();
  await expect(page.getByRole("combobox", { name: "Cliente excluido de soporte", exact: true })).toBeVisible();
  await customer.click();
  await customer.fill(other.name);
  await page.getByRole("option", { name: other.name, exact: true }).click();
  await page.getByRole("button", { name: "Guardar" }).click();
  await expect(page.getByText("Elemento guardado")).toBeVisible();
  const saved = await page.evaluate(async () => (await (await fetch("/api/v1/app_settings/1")).json()).app_setting);
  expect(saved.default_customer_id).toBe(other.id);
  await page.reload();
  await expect(customer).toHaveValue(other.name);
});

test("Operador has no settings entry", async ({ page }) => {
  await signIn(page, "operator");
  await expect(page.getByRole("menuitem", { name: "Configuración", exact: true })).toHaveCount(0);
});
