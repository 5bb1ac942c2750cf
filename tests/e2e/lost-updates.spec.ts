/**
 * Two administrators edit the same client in two browsers: the second save is refused (409) instead of
 * silently undoing the first; its form keeps what was typed, shows which field changed meanwhile, and
 * lets the user save over it deliberately — their own changes only: what the other changed and this one
 * never touched survives.
 */
import { expect, test } from "@playwright/test";
import { es } from "../../src/admin/i18n/es";
import { messages } from "../../src/core/messages";
import { createProject, signIn } from "./fixtures";

test("a stale client save shows what changed, keeps what was typed and can overwrite deliberately", async ({ browser }) => {
  const suffix = Date.now().toString(36);
  const first = await (await browser.newContext()).newPage();
  const second = await (await browser.newContext()).newPage();
  await signIn(first, "admin");
  await signIn(second, "admin");

  const client = await first.evaluate(async (name) => {
    const folder = await fetch("/api/v1/drive/folders", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ folder: { name } }),
    });
    const res = await fetch("/api/v1/clients", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ client: { name, email: "inicial@versiones.mx", drive_root_url: (await folder.json()).folder.url } }),
    });
    return (await res.json()).client as { id: number };
  }, `Cliente de versiones ${suffix}`);

  // Both open the form at the same version.
  for (const page of [first, second]) {
    await page.goto(`/app/clients/update/${client.id}`);
    await expect(page.getByRole("textbox", { name: "Correo electrónico" })).toHaveValue("inicial@versiones.mx");
  }

  await first.getByRole("textbox", { name: "Correo electrónico" }).fill("primera@versiones.mx");
  // A field the second never touches: «Guardar mis cambios de todos modos» must not undo it.
  await first.getByRole("textbox", { name: "Razón social" }).fill(`Razón de la primera ${suffix}`);
  await first.getByRole("button", { name: "Guardar" }).click();
  await expect(first.getByText("Cliente Actualizado")).toBeVisible();

  const email = second.getByRole("textbox", { name: "Correo electrónico" });
  await email.fill("segunda@versiones.mx");
  await second.getByRole("button", { name: "Guardar" }).click();
  const notice = second.getByTestId("stale-version");
  await expect(notice).toContainText(messages.staleVersion);
  await expect(notice).toContainText("Correo electrónico");
  await expect(notice).toContainText("primera@versiones.mx");
  // Still on the form, with what the user typed.
  await expect(second).toHaveURL(new RegExp(`/app/clients/update/${client.id}$`));
  await expect(email).toHaveValue("segunda@versiones.mx");

  // The first one opens the form again (at the version it saved) before the second overwrites it.
  await first.goto(`/app/clients/update/${client.id}`);
  await expect(first.getByRole("textbox", { name: "Correo electrónico" })).toHaveValue("primera@versiones.mx");

  await notice.getByRole("button", { name: "Guardar mis cambios de todos modos" }).click();
  await expect(second.getByText("Cliente Actualizado")).toBeVisible();
  await expect(second).toHaveURL(new RegExp(`/app/clients/show/${client.id}$`));
  await expect(second.getByText("segunda@versiones.mx")).toBeVisible();
  await expect(second.getByText(`Razón de la primera ${suffix}`)).toBeVisible();

  // Now the first is stale: it chooses to reload, and sees the second's value instead of its own.
  await first.getByRole("textbox", { name: "Nombre", exact: true }).fill(`Cambio descartado ${suffix}`);
  await first.getByRole("button", { name: "Guardar" }).click();
  const firstNotice = first.getByTestId("stale-version");
  await expect(firstNotice).toContainText("segunda@versiones.mx");
  await firstNotice.getByRole("button", { name: "Recargar (descarta lo que escribió)" }).click();
  await expect(firstNotice).toHaveCount(0);
  await expect(first.getByRole("textbox", { name: "Correo electrónico" })).toHaveValue("segunda@versiones.mx");
  await expect(first.getByRole("textbox", { name: "Nombre", exact: true })).toHaveValue(`Cliente de versiones ${suffix}`);
});

test("a state change another administrator already made is not offered again after the conflict", async ({ browser }) => {
  const first = await (await browser.newContext()).newPage();
  const second = await (await browser.newContext()).newPage();
  await signIn(first, "admin");
  await signIn(second, "admin");
  const project = await createProject(first, `Estado en disputa ${Date.now().toString(36)}`);

  // Both open «Enviar propuesta» on the project in Requerimiento.
  for (const page of [first, second]) {
    await page.goto(`/app/projects/${project.id}`);
    await page.getByRole("button", { name: "Enviar propuesta", exact: true }).click();
    await page.getByRole("dialog").getByRole("textbox", { name: "Comentario" }).fill("Propuesta enviada");
  }
  await first.getByRole("dialog").getByRole("button", { name: "Confirmar" }).click();
  await expect(first.getByRole("dialog")).toHaveCount(0);

  const dialog = second.getByRole("dialog");
  await dialog.getByRole("button", { name: "Confirmar" }).click();
  // The record is read again: the event no longer applies, so the dialog says so instead of asking to confirm.
  await expect(dialog.getByText(es.sia.action_dialog.event_gone)).toBeVisible();
  await expect(dialog.getByRole("button", { name: "Confirmar" })).toHaveCount(0);
  await expect(dialog.getByRole("textbox", { name: "Comentario" })).toHaveValue("Propuesta enviada");
  await dialog.getByRole("button", { name: "Cerrar" }).click();
  await expect(second.getByRole("button", { name: "Enviar propuesta", exact: true })).toHaveCount(0);
});

test("a double click on a dialog's confirmation sends it once", async ({ page }) => {
  await signIn(page, "admin");
  const project = await createProject(page, `Doble clic ${Date.now().toString(36)}`);
  const sent: string[] = [];
  page.on("request", (request) => {
    if (request.method() === "POST" && request.url().includes("/aasm_transition")) sent.push(request.url());
  });
  await page.goto(`/app/projects/${project.id}`);
  await page.getByRole("button", { name: "Enviar propuesta", exact: true }).click();
  const dialog = page.getByRole("dialog");
  await dialog.getByRole("textbox", { name: "Comentario" }).fill("Una sola vez");
  await dialog.getByRole("button", { name: "Confirmar" }).dblclick();
  await expect(dialog).toHaveCount(0);
  await expect(page.getByRole("table", { name: "Historial de estados" }).getByRole("cell", { name: "Una sola vez" })).toHaveCount(
    1,
  );
  expect(sent).toHaveLength(1);
});
