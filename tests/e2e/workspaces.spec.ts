import { expect, test } from "@playwright/test";
import { expectNoEnglish, signIn } from "./fixtures";

test("an administrator creates a workspace with a boss, toggles its notification and deletes it", async ({ page }) => {
  const suffix = Date.now().toString(36);
  const name = `Diseño Ñandú ${suffix}`;
  await signIn(page, "admin");
  await page.getByRole("menuitem", { name: "Espacios de trabajo", exact: true }).click();
  await expect(page).toHaveURL(/\/app\/workspaces$/);
  await expectNoEnglish(page);

  await page.getByRole("link", { name: "Crear" }).click();
  await expect(page).toHaveURL(/\/app\/workspaces\/new$/);
  await page.getByLabel("Nombre", { exact: true }).fill(name);
  await page.getByRole("button", { name: "Agregar" }).click();
  await page.getByRole("combobox", { name: "Empleado" }).fill("Ricardo Morales");
  await page.getByRole("option", { name: "Ricardo Morales Juárez" }).click();
  await page.getByRole("button", { name: "Guardar" }).click();
  await expect(page.getByText("Elemento guardado")).toBeVisible();
  await expect(page).toHaveURL(/\/app\/workspaces\/show\/\d+$/);
  await expect(page.getByRole("cell", { name: "Ricardo Morales Juárez" })).toBeVisible();
  await expect(page.getByText("Sin empleados")).toBeVisible();
  await expectNoEnglish(page);
  const id = Number(page.url().split("/").pop());

  await page.getByRole("menuitem", { name: "Espacios de trabajo", exact: true }).click();
  await page.getByPlaceholder("Buscar por nombre").fill(`diseno nandu ${suffix}`);
  await expect(page.getByRole("cell", { name, exact: true })).toBeVisible();
  const toggle = page
    .getByRole("switch", { name: `Notificaciones de ${name}` })
    .or(page.getByRole("checkbox", { name: `Notificaciones de ${name}` }));
  await expect(toggle).not.toBeChecked();
  await toggle.click();
  await expect(page.getByText("Notificaciones activadas")).toBeVisible();
  await expect(toggle).toBeChecked();
  const stored = await page.evaluate(async (wid) => (await (await fetch(`/api/v1/workspaces/${wid}`)).json()).workspace, id);
  expect(stored.is_notifiable).toBe(true);
  await expect(page).toHaveURL(/\/app\/workspaces(\?.*)?$/);

  // Only id and name sort.
  await expect(page.getByRole("columnheader", { name: "Nombre" }).getByRole("button")).toHaveCount(1);
  await expect(page.getByRole("columnheader", { name: "Empleados" }).getByRole("button")).toHaveCount(0);

  await page
    .getByRole("row", { name: new RegExp(name) })
    .getByRole("button", { name: "Eliminar" })
    .click();
  await page.getByRole("dialog").getByRole("button", { name: "Confirmar" }).click();
  await expect(page.getByRole("cell", { name, exact: true })).toHaveCount(0);
});

test("a workspace's view lists its employees", async ({ page }) => {
  await signIn(page, "admin");
  const ws = await page.evaluate(async () => (await (await fetch("/api/v1/workspaces?search=Soporte")).json()).workspaces[0]);
  await page.goto(`/app/workspaces/show/${ws.id}`);
  await expect(page.getByRole("cell", { name: "Daniela Castro Ibarra" })).toBeVisible();
});
