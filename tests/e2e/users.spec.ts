import { expect, test } from "@playwright/test";
import { expectNoEnglish, signIn } from "./fixtures";

test("an administrator filters users by role, creates one and lands on the user list", async ({ page }) => {
  const suffix = Date.now().toString(36);
  const name = `Núñez Operación ${suffix}`;
  const email = `nunez.${suffix}@sia.local`;
  await signIn(page, "admin");
  await page.getByRole("menuitem", { name: "Usuarios", exact: true }).click();
  await expect(page).toHaveURL(/\/app\/users$/);
  await expect(page.getByRole("cell", { name: "operador@sia.local" })).toBeVisible();
  await expectNoEnglish(page);

  // Role filter: Finanzas keeps the finance user and drops the operator.
  await page.getByRole("combobox", { name: "Rol" }).click();
  await page.getByRole("option", { name: "Finanzas" }).click();
  await expect(page.getByRole("cell", { name: "finanzas@sia.local" })).toBeVisible();
  await expect(page.getByRole("cell", { name: "operador@sia.local" })).toHaveCount(0);
  await page.getByRole("combobox", { name: "Rol" }).click();
  await page.getByRole("listbox").getByText("Todos", { exact: true }).click();
  await expect(page.getByRole("cell", { name: "operador@sia.local" })).toBeVisible();

  await page.getByRole("link", { name: "Crear" }).click();
  await expect(page).toHaveURL(/\/app\/users\/new_user$/);
  await page.getByLabel("Nombre", { exact: true }).fill(name);
  await page.getByLabel("Correo electrónico").fill(email);
  // The confirmation must match (the shared zod schema, inline).
  await page.getByLabel("Contraseña", { exact: true }).fill("secreta-123");
  await page.getByLabel("Confirmar contraseña").fill("otra-cosa-1");
  await page.getByRole("button", { name: "Guardar" }).click();
  await expect(page.getByText("no coincide con la contraseña")).toBeVisible();
  await page.getByLabel("Confirmar contraseña").fill("secreta-123");
  await page.getByRole("button", { name: "Guardar" }).click();
  await expect(page.getByText("Usuario guardado")).toBeVisible();
  await expect(page).toHaveURL(/\/app\/users(\?.*)?$/);
  await page.getByPlaceholder("Buscar por nombre o correo").fill(`nunez operacion ${suffix}`);
  await expect(page.getByRole("cell", { name: email })).toBeVisible();
  await expectNoEnglish(page);

  // A repeated e-mail comes back from the server, per field.
  await page.goto("/app/users/new_user");
  await page.getByLabel("Nombre", { exact: true }).fill(`Otro ${suffix}`);
  await page.getByLabel("Correo electrónico").fill(email);
  await page.getByLabel("Contraseña", { exact: true }).fill("secreta-123");
  await page.getByLabel("Confirmar contraseña").fill("secreta-123");
  await page.getByRole("button", { name: "Guardar" }).click();
  await expect(page.getByText("Error en los parametros Correo electrónico: ya está en uso")).toBeVisible();
  await expect(page).toHaveURL(/\/app\/users\/new_user$/);
});

test("a non-administrator opens Mi perfil, saves only the Azure token (shown as «Guardado») and returns to their own view", async ({
  page,
}) => {
  await signIn(page, "operator");
  const me = await page.evaluate(async () => (await (await fetch("/api/v1/sessions/current")).json()).user);
  await page.getByRole("button", { name: "Perfil" }).click();
  await page.getByRole("menuitem", { name: "Mi perfil" }).click();
  await expect(page).toHaveURL(new RegExp(`/app/users/show_not_admin/${me.id}$`));
  await expect(page.locator("#main-content").getByText("operador@sia.local")).toBeVisible();
  await expectNoEnglish(page);

  await page.getByRole("link", { name: "Editar token de Azure" }).click();
  await expect(page).toHaveURL(new RegExp(`/app/users/update/${me.id}$`));
  await expect(page.getByLabel("Nombre", { exact: true })).toHaveCount(0);
  await expect(page.getByLabel("Contraseña", { exact: true })).toHaveCount(0);
  await page.getByLabel("Token de Azure DevOps").fill("pat-operador-123");
  await page.getByRole("button", { name: "Guardar" }).click();
  await expect(page.getByText("Usuario guardado")).toBeVisible();
  await expect(page).toHaveURL(new RegExp(`/app/users/show_not_admin/${me.id}$`));
  // Write-only: the profile says a token is saved, never which.
  await expect(page.locator("#main-content").getByText("Guardado", { exact: true })).toBeVisible();
  await expect(page.getByText("pat-operador-123")).toHaveCount(0);

  // Someone else's user is not theirs to open.
  await page.goto(`/app/users/show_not_admin/${me.id === 1 ? 2 : 1}`);
  await expect(page).toHaveURL(/\/404$/);
});

test("an administrator saves, keeps and clears a user's Azure token without ever seeing it", async ({ page }) => {
  await signIn(page, "admin");
  const suffix = Date.now().toString(36);
  const created = await page.request.post("/api/v1/users", {
    data: {
      user: {
        name: `Token ${suffix}`,
        email: `token.${suffix}@sia.local`,
        password: "secreta-123",
        password_confirmation: "secreta-123",
        // A user holds one role at least.
        operator_role: true,
      },
    },
  });
  expect(created.status()).toBe(201);
  const me = (await created.json()).user;
  const saved = async () => (await (await page.request.get(`/api/v1/users/${me.id}`)).json()).user.has_azure_token;
  await page.goto(`/app/users/update/${me.id}`);
  await expect(page.getByText("Sin token guardado")).toBeVisible();
  await page.getByLabel("Token de Azure DevOps").fill("pat-del-administrador-1");
  await page.getByRole("button", { name: "Guardar" }).click();
  await expect(page.getByText("Usuario guardado")).toBeVisible();
  expect(await saved()).toBe(true);

  // Saving the form again with the token input left blank keeps the token.
  await page.goto(`/app/users/update/${me.id}`);
  await expect(page.getByText("Guardado. Escriba otro para reemplazarlo; en blanco se conserva.")).toBeVisible();
  await expect(page.getByLabel("Token de Azure DevOps")).toHaveValue("");
  await expect(page.getByText("pat-del-administrador-1")).toHaveCount(0);
  await page.getByLabel("Nombre", { exact: true }).fill(`Token renombrado ${suffix}`);
  await page.getByRole("button", { name: "Guardar" }).click();
  await expect(page.getByText("Usuario guardado")).toBeVisible();
  expect(await saved()).toBe(true);

  // The switch clears it.
  await page.goto(`/app/users/update/${me.id}`);
  await page.getByLabel("Borrar el token guardado").check();
  await page.getByRole("button", { name: "Guardar" }).click();
  await expect(page.getByText("Usuario guardado")).toBeVisible();
  expect(await saved()).toBe(false);
});
