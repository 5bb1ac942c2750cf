/**
 * Two people on one record, as they meet in a month of use: a form kept open in a second tab, two
 * administrators resolving one invoice, a project's state changed under an open dialog. What each screen
 * says must be what it shows, and no retry may undo the other person's change.
 */
import { expect as baseExpect, type Page, test } from "@playwright/test";
import { es } from "../../src/admin/i18n/es";
import { messages } from "../../src/core/messages";
import { createProject, signIn } from "./fixtures";

// On a loaded machine two browsers and the server share little CPU: screens get longer to appear.
const expect = baseExpect.configure({ timeout: 30_000 });

/** The person switches to this tab (and the page hears it is visible again, as a browser tells it). */
async function switchTo(page: Page) {
  await page.bringToFront();
  await page.evaluate(() => window.dispatchEvent(new Event("visibilitychange")));
}

/**
 * Starts noting whether `text` ever shows on the page, however briefly (a toast, a message replaced a
 * moment later): a screen must never say it, not merely stop saying it.
 */
async function watchFor(page: Page, text: string) {
  await page.evaluate((wanted) => {
    const seen: string[] = [];
    (window as unknown as { seenTexts: string[] }).seenTexts = seen;
    new MutationObserver(() => {
      if (document.body.textContent?.includes(wanted)) seen.push(wanted);
    }).observe(document.body, { childList: true, subtree: true, characterData: true });
  }, text);
  return () => page.evaluate(() => (window as unknown as { seenTexts: string[] }).seenTexts.length);
}

test("a form left open in another tab keeps what was typed, and its retry keeps the other tab's change", async ({ browser }) => {
  test.setTimeout(240_000);
  const context = await browser.newContext();
  const first = await context.newPage();
  await signIn(first, "admin");
  // Same person, same session, two tabs.
  const second = await context.newPage();
  const suffix = Date.now().toString(36);
  const client = await first.evaluate(async (name) => {
    const folder = await fetch("/api/v1/drive/folders", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ folder: { name } }),
    });
    const res = await fetch("/api/v1/clients", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ client: { name, email: "inicial@pestanas.mx", drive_root_url: (await folder.json()).folder.url } }),
    });
    return (await res.json()).client as { id: number };
  }, `Cliente en dos pestañas ${suffix}`);

  for (const page of [first, second]) {
    await switchTo(page);
    await page.goto(`/app/clients/update/${client.id}`);
    await expect(page.getByRole("textbox", { name: "Correo electrónico" })).toHaveValue("inicial@pestanas.mx", {
      timeout: 30_000,
    });
  }
  // Tab 2: the person starts changing only the e-mail, then goes to tab 1.
  const email = second.getByRole("textbox", { name: "Correo electrónico" });
  await email.fill("segunda@pestanas.mx");
  // Tab 1 changes only the legal name and saves.
  await switchTo(first);
  await first.getByRole("textbox", { name: "Razón social" }).fill(`Razón de la primera ${suffix}`);
  await first.getByRole("button", { name: "Guardar" }).click();
  await expect(first.getByText("Cliente Actualizado")).toBeVisible();

  // Back in tab 2: what was typed is still there.
  await switchTo(second);
  await second.waitForLoadState("networkidle");
  await expect(email).toHaveValue("segunda@pestanas.mx");
  await second.getByRole("button", { name: "Guardar" }).click();
  const notice = second.getByTestId("stale-version");
  await expect(notice).toContainText("Razón social");
  await expect(notice).toContainText(`Razón de la primera ${suffix}`);
  const retry = second.waitForRequest((r) => r.method() === "PUT" && r.url().endsWith(`/clients/${client.id}`));
  await notice.getByRole("button", { name: es.sia.stale_version.overwrite }).click();
  await expect(second.getByText("Cliente Actualizado")).toBeVisible();
  // The retry sent only what this person changed: the other tab's legal name is not written back.
  const sent = (await retry).postDataJSON().client;
  expect(sent.email).toBe("segunda@pestanas.mx");
  expect(sent).not.toHaveProperty("complete_name");

  // Both changes kept, as the server has them.
  const saved = await second.evaluate(
    async (id) => (await (await fetch(`/api/v1/clients/${id}`)).json()).client as { email: string; complete_name: string },
    client.id,
  );
  expect(saved.email).toBe("segunda@pestanas.mx");
  expect(saved.complete_name).toBe(`Razón de la primera ${suffix}`);
  await context.close();
});

test("two administrators resolve one invoice: the loser's dialog stays, says the truth once and keeps the folio", async ({
  browser,
}) => {
  test.setTimeout(240_000);
  const first = await (await browser.newContext()).newPage();
  const second = await (await browser.newContext()).newPage();
  await signIn(first, "admin");
  await signIn(second, "admin");
  const run = Date.now().toString(36);
  const project = await createProject(first, `Factura en disputa ${run}`);
  const invoice = await first.evaluate(async (projectId) => {
    const res = await fetch("/api/v1/invoices", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ invoice: { project_id: projectId, percentage_value: 40, audit_comment: "Anticipo" } }),
    });
    return (await res.json()).invoice as { id: number };
  }, project.id);

  for (const [page, folio] of [
    [first, `B-500-${run}`],
    [second, `B-501-${run}`],
  ] as const) {
    await page.goto(`/app/projects/${project.id}/invoices/${invoice.id}`);
    await expect(page.getByText("Anticipo").first()).toBeVisible();
    // The state action has its own words: «Cancelar» alone only ever closes a dialog.
    await expect(page.getByRole("button", { name: "Cancelar factura" })).toBeVisible();
    await expect(page.getByRole("button", { name: "Cancelar", exact: true })).toHaveCount(0);
    await page.getByRole("button", { name: "Resolver", exact: true }).click();
    const dialog = page.getByRole("dialog");
    await dialog.getByRole("textbox", { name: "Comentario" }).fill("Pagada");
    await dialog.getByRole("textbox", { name: "Folio" }).fill(folio);
  }
  await first.getByRole("dialog").getByRole("button", { name: "Confirmar" }).click();
  await expect(first.getByRole("dialog")).toHaveCount(0);

  const dialog = second.getByRole("dialog");
  const invitedToConfirmAgain = await watchFor(second, messages.staleVersionRetry);
  await dialog.getByRole("button", { name: "Confirmar" }).click();
  // One message, the true one: the invoice is resolved, this resolution is no longer possible.
  await expect(dialog.getByText(es.sia.action_dialog.event_gone)).toBeVisible();
  await expect(dialog.getByRole("textbox", { name: "Folio" })).toHaveValue(`B-501-${run}`);
  await expect(dialog.getByRole("button", { name: "Confirmar" })).toHaveCount(0);
  // Behind the dialog, the other administrator's resolution already shows.
  await expect(second.getByText(`B-500-${run}`).first()).toBeVisible();
  await dialog.getByRole("button", { name: "Cerrar" }).click();
  await expect(dialog).toHaveCount(0);
  await expect(second.getByRole("button", { name: "Resolver", exact: true })).toHaveCount(0);
  // Nothing, not even for a moment, invited confirming again.
  expect(await invitedToConfirmAgain()).toBe(0);
});

test("a project state race: the dialog shows no impossible change and no toast contradicts it", async ({ browser }) => {
  test.setTimeout(240_000);
  const first = await (await browser.newContext()).newPage();
  const second = await (await browser.newContext()).newPage();
  await signIn(first, "admin");
  await signIn(second, "admin");
  const project = await createProject(first, `Estado en carrera ${Date.now().toString(36)}`);

  await second.goto(`/app/projects/${project.id}`);
  await second.getByRole("button", { name: "Enviar propuesta", exact: true }).click();
  const dialog = second.getByRole("dialog");
  await expect(dialog.getByText("Requerimiento → Propuesta")).toBeVisible();
  await dialog.getByRole("textbox", { name: "Comentario" }).fill("Propuesta enviada");
  // Meanwhile the other administrator marks it «No autorizado».
  await first.goto(`/app/projects/${project.id}`);
  await expect(first.getByRole("button", { name: "Cancelar proyecto" })).toBeVisible();
  await first.getByRole("button", { name: "No autorizado", exact: true }).click();
  await first.getByRole("dialog").getByRole("textbox", { name: "Comentario" }).fill("El cliente no autorizó");
  await first.getByRole("dialog").getByRole("button", { name: "Confirmar" }).click();
  await expect(first.getByRole("dialog")).toHaveCount(0);

  const invitedToConfirmAgain = await watchFor(second, messages.staleVersionRetry);
  await dialog.getByRole("button", { name: "Confirmar" }).click();
  await expect(dialog.getByText(es.sia.action_dialog.event_gone)).toBeVisible();
  await expect(dialog.getByText(/→/)).toHaveCount(0);
  await expect(dialog.getByRole("textbox", { name: "Comentario" })).toHaveValue("Propuesta enviada");
  await dialog.getByRole("button", { name: "Cerrar" }).click();
  await expect(second.getByRole("button", { name: "Enviar propuesta", exact: true })).toHaveCount(0);
  // Nothing, not even for a moment, invited confirming again.
  expect(await invitedToConfirmAgain()).toBe(0);
});

test("a form that stays put after «Guardar mis cambios» saves the next change at its new version", async ({ browser }) => {
  test.setTimeout(240_000);
  const first = await (await browser.newContext()).newPage();
  const second = await (await browser.newContext()).newPage();
  await signIn(first, "admin");
  await signIn(second, "admin");
  const choices = await first.evaluate(async () => {
    const settings = (await (await fetch("/api/v1/app_settings/1")).json()).app_setting;
    const clients = (await (await fetch("/api/v1/clients?per_page=20&by_column[column]=name")).json()).clients as {
      id: number;
      name: string;
    }[];
    const workspaces = (await (await fetch("/api/v1/workspaces?per_page=20")).json()).workspaces as {
      id: number;
      name: string;
    }[];
    const others = clients.filter(
      (c) => c.id !== settings.default_customer_id && c.id !== settings.support_excluded_customer_id && !/[()]/.test(c.name),
    );
    return {
      customer: others[0],
      excluded: others[1],
      workspace: workspaces.find((w) => w.id !== settings.default_workspace_id && !/[()]/.test(w.name))!,
    };
  });
  const pick = async (page: Page, label: string, name: string) => {
    const box = page.getByRole("combobox", { name: label, exact: true });
    await box.click();
    await box.fill(name);
    await page.getByRole("option", { name, exact: true }).click();
  };
  for (const page of [first, second]) {
    await page.goto("/app/app_settings");
    await expect(page.getByRole("combobox", { name: "Cliente predeterminado", exact: true })).not.toHaveValue("");
  }
  await pick(first, "Espacio de trabajo predeterminado", choices.workspace.name);
  await first.getByRole("button", { name: "Guardar" }).click();
  await expect(first.getByText("Elemento guardado")).toBeVisible();

  await pick(second, "Cliente predeterminado", choices.customer.name);
  await second.getByRole("button", { name: "Guardar" }).click();
  const notice = second.getByTestId("stale-version");
  await notice.getByRole("button", { name: es.sia.stale_version.overwrite }).click();
  await expect(notice).toHaveCount(0);
  await expect(second.getByText("Elemento guardado")).toBeVisible();
  await expect(second.getByText("Elemento guardado")).toHaveCount(0);

  // Nobody else saved since: the next change is simply saved, not refused as stale.
  await pick(second, "Cliente excluido de soporte", choices.excluded.name);
  await second.getByRole("button", { name: "Guardar" }).click();
  await expect(second.getByText("Elemento guardado")).toBeVisible();
  await expect(second.getByTestId("stale-version")).toHaveCount(0);
  const saved = await second.evaluate(async () => (await (await fetch("/api/v1/app_settings/1")).json()).app_setting);
  expect(saved).toMatchObject({
    default_customer_id: choices.customer.id,
    default_workspace_id: choices.workspace.id,
    support_excluded_customer_id: choices.excluded.id,
  });
});
