import { expect, type Page, test } from "@playwright/test";
import { expectNoEnglish, pickNewFolder, signIn } from "./fixtures";

/** A drive folder made through the API: its URL. */
async function newFolderUrl(page: Page, name: string): Promise<string> {
  return page.evaluate(async (folderName) => {
    const res = await fetch("/api/v1/drive/folders", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ folder: { name: folderName } }),
    });
    return (await res.json()).folder.url as string;
  }, name);
}

test("an administrator creates, finds without accents, edits and deletes a client", async ({ page }) => {
  const suffix = Date.now().toString(36);
  const name = `Tortillería Doña Ñeli ${suffix}`;
  await signIn(page, "admin");
  await page.getByRole("menuitem", { name: "Clientes", exact: true }).click();
  await expect(page).toHaveURL(/\/app\/clients$/);
  await expectNoEnglish(page);

  await page.getByRole("link", { name: "Crear" }).click();
  await expect(page).toHaveURL(/\/app\/clients\/new$/);
  const code = page.getByRole("textbox", { name: "Código" });
  await expect(code).not.toHaveValue("0");
  await expect(code).toHaveValue(/^\d+$/);
  await page.getByRole("textbox", { name: "Nombre", exact: true }).fill(name);
  await page.getByRole("textbox", { name: "RFC" }).fill("TDN010101AB1");
  await page.getByRole("textbox", { name: "Correo electrónico" }).fill("compras@tortilleria.mx");
  await pickNewFolder(page, `Clientes e2e ${suffix}`);
  await page.getByRole("button", { name: "Guardar" }).click();
  await expect(page.getByText("Cliente Creado")).toBeVisible();
  await expect(page).toHaveURL(/\/app\/clients\/show\/\d+$/);
  await expect(page.locator("#main-content").getByText(name, { exact: true }).first()).toBeVisible();
  await expectNoEnglish(page);
  const id = page.url().split("/").pop();

  await page.getByRole("menuitem", { name: "Clientes", exact: true }).click();
  await page.getByPlaceholder("Buscar por nombre, código o RFC").fill(`tortilleria dona neli ${suffix}`);
  await expect(page.getByRole("cell", { name })).toBeVisible();
  await expect(page.getByText("1–1 de 1")).toBeVisible();
  await page.getByRole("cell", { name }).click();
  await expect(page).toHaveURL(new RegExp(`/app/clients/show/${id}$`));

  await page.getByRole("link", { name: "Editar" }).click();
  await expect(page).toHaveURL(new RegExp(`/app/clients/update/${id}$`));
  await page.getByRole("textbox", { name: "Correo electrónico" }).fill("facturas@tortilleria.mx");
  await page.getByRole("button", { name: "Guardar" }).click();
  await expect(page.getByText("Cliente Actualizado")).toBeVisible();
  await expect(page.getByText("facturas@tortilleria.mx")).toBeVisible();

  await page.goto(`/app/clients/update/${id}`);
  await page.getByRole("button", { name: "Eliminar" }).click();
  await page
    .getByRole("dialog")
    .getByRole("button", { name: /Confirmar|Eliminar|Sí/ })
    .click();
  // Back on the list, the search the user had typed is still applied: the deleted client is gone.
  await expect(page).toHaveURL(/\/app\/clients(\?.*)?$/);
  await expect(page.getByText("No se encontraron Clientes con los filtros actuales.")).toBeVisible();
  await expect(page.getByRole("cell", { name })).toHaveCount(0);
});

test("a server-side error is shown per field in Spanish", async ({ page }) => {
  await signIn(page, "admin");
  const url = await newFolderUrl(page, `Código ocupado ${Date.now().toString(36)}`);
  const created = await page.evaluate(async (folderUrl) => {
    const res = await fetch("/api/v1/clients", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ client: { name: "Código ocupado", drive_root_url: folderUrl } }),
    });
    return (await res.json()).client;
  }, url);
  await page.goto("/app/clients/new");
  await expect(page.getByRole("textbox", { name: "Código" })).toHaveValue(/^\d+$/);
  await page.getByRole("textbox", { name: "Nombre", exact: true }).fill("Otro con el mismo código");
  await page.getByRole("textbox", { name: "Código" }).fill(created.client_code);
  await pickNewFolder(page, `Otra carpeta ${Date.now().toString(36)}`);
  await page.getByRole("button", { name: "Guardar" }).click();
  await expect(page.getByText("Error en los parametros Código: ya está en uso")).toBeVisible();
  await expect(page).toHaveURL(/\/app\/clients\/new$/);
});

test("Operador reads clients but has neither the create nor the CSV button", async ({ page }) => {
  await signIn(page, "operator");
  await page.getByRole("menuitem", { name: "Clientes", exact: true }).click();
  await expect(page).toHaveURL(/\/app\/clients$/);
  await expect(page.getByRole("row").nth(1)).toBeVisible();
  await expect(page.getByRole("link", { name: "Crear" })).toHaveCount(0);
  await expect(page.getByRole("button", { name: "Exportar CSV" })).toHaveCount(0);
  // Nor the group filter: client groups are the administrators' section.
  await expect(page.getByRole("combobox", { name: "Grupo de clientes" })).toHaveCount(0);
  await expectNoEnglish(page);
});

test("an administrator filters the client list by group on screen and exports it", async ({ page }) => {
  await signIn(page, "admin");
  const { group, members } = await page.evaluate(async () => {
    const groups = (await (await fetch("/api/v1/client_groups?per_page=all")).json()).client_groups as {
      id: number;
      name: string;
    }[];
    for (const g of groups) {
      const clients = (await (await fetch(`/api/v1/clients?per_page=all&by_client_group=${g.id}`)).json()).clients as {
        name: string;
      }[];
      if (clients.length > 0) return { group: g.name, members: clients.map((c) => c.name) };
    }
    throw new Error("no group with clients in the demo data");
  });
  await page.getByRole("menuitem", { name: "Clientes", exact: true }).click();
  await page.getByRole("combobox", { name: "Grupo de clientes" }).click();
  await page.getByRole("option", { name: group, exact: true }).click();
  await expect(page.getByText(`1–${Math.min(10, members.length)} de ${members.length}`)).toBeVisible();
  for (const name of members.slice(0, 10)) await expect(page.getByRole("cell", { name, exact: true })).toBeVisible();
  const download = page.waitForEvent("download");
  await page.getByRole("button", { name: "Exportar CSV" }).click();
  expect((await download).suggestedFilename()).toMatch(/\.csv$/);
  await expectNoEnglish(page);
});
