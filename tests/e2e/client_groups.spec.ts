import { expect, test } from "@playwright/test";
import { expectNoEnglish, signIn } from "./fixtures";

test("an administrator creates a client group, finds it and renames it", async ({ page }) => {
  const name = `Grupo Norte ${Date.now().toString(36)}`;
  await signIn(page, "admin");
  await page.getByRole("menuitem", { name: "Grupos de clientes", exact: true }).click();
  await expect(page).toHaveURL(/\/app\/client_group$/);
  await expectNoEnglish(page);

  await page.getByRole("link", { name: "Crear" }).click();
  await expect(page).toHaveURL(/\/app\/client_group\/new$/);
  await page.getByLabel("Nombre", { exact: true }).fill(name);
  await page.getByRole("button", { name: "Guardar" }).click();
  await expect(page.getByText("Grupo de Cliente", { exact: true })).toBeVisible();
  await expect(page).toHaveURL(/\/app\/client_group\/show\/\d+$/);
  await expect(page.getByText("El grupo no tiene clientes")).toBeVisible();
  await expectNoEnglish(page);
  const id = page.url().split("/").pop();

  await page.getByRole("menuitem", { name: "Grupos de clientes", exact: true }).click();
  await page.getByPlaceholder("Buscar por nombre").fill(name);
  await expect(page.getByRole("cell", { name })).toBeVisible();
  await expect(page.getByText("1–1 de 1")).toBeVisible();
  await page.getByRole("cell", { name }).click();
  await expect(page).toHaveURL(new RegExp(`/app/client_group/show/${id}$`));

  await page.getByRole("link", { name: "Editar" }).click();
  await expect(page).toHaveURL(new RegExp(`/app/client_group/update/${id}$`));
  await page.getByLabel("Nombre", { exact: true }).fill(`${name} renombrado`);
  await page.getByRole("button", { name: "Guardar" }).click();
  await expect(page.getByText("Grupo de Cliente", { exact: true })).toBeVisible();
  await expect(page.locator("#main-content").getByText(`${name} renombrado`)).toBeVisible();
});

test("a group's show page lists its clients with links to them", async ({ page }) => {
  await signIn(page, "admin");
  const group = await page.evaluate(async () => {
    const res = await fetch("/api/v1/client_groups?per_page=1&by_column[column]=clients_count&by_column[order]=desc");
    const { id } = (await res.json()).client_groups[0];
    return (await (await fetch(`/api/v1/client_groups/${id}`)).json()).client_group as {
      id: number;
      clients: { id: number; name: string }[];
    };
  });
  expect(group.clients.length).toBeGreaterThan(0);
  await page.goto(`/app/client_group/show/${group.id}`);
  const first = group.clients[0];
  const link = page.locator("#main-content").getByRole("link", { name: first.name, exact: true });
  await expect(link).toHaveAttribute("href", `/app/clients/show/${first.id}`);
  await link.click();
  await expect(page).toHaveURL(new RegExp(`/app/clients/show/${first.id}$`));
});

test("client groups are an administrators' section", async ({ page }) => {
  await signIn(page, "operator");
  await expect(page.getByRole("menuitem", { name: "Grupos de clientes", exact: true })).toHaveCount(0);
});
