import { expect, type Page, test } from "@playwright/test";
import { ACCOUNTS, DEMO_PASSWORD, expectNoEnglish, fillDate, pickedDate, pickNewFolder, signIn } from "./fixtures";

const suffix = () => Date.now().toString(36);

/** Creates a prospect through the UI, its CV_ folder inside a new drive folder; answers its id. */
async function createProspect(page: Page, name: string, folder?: string) {
  await page.getByRole("menuitem", { name: "Prospectos", exact: true }).click();
  await page.getByRole("link", { name: "Crear" }).click();
  await expect(page).toHaveURL(/\/app\/prospects\/new$/);
  await page.getByLabel("Nombre", { exact: true }).fill(name);
  if (folder) await pickNewFolder(page, folder);
  await page.getByRole("button", { name: "Guardar" }).click();
  await expect(page).toHaveURL(/\/app\/prospects\/\d+$/);
  await expect(page.locator("#main-content").getByText(name, { exact: true })).toBeVisible();
  return page.url().split("/").pop() as string;
}

/** One state event through its comment dialog. */
async function fireEvent(page: Page, button: string, comment: string, toast: string | RegExp) {
  await page.getByRole("button", { name: button, exact: true }).click();
  const dialog = page.getByRole("dialog", { name: button });
  await expect(dialog).toBeVisible();
  await dialog.getByRole("textbox", { name: "Comentario" }).fill(comment);
  await dialog.getByRole("button", { name: "Confirmar" }).click();
  await expect(dialog).toHaveCount(0);
  await expect(page.getByText(toast)).toBeVisible();
}

test("an administrator takes a prospect's quotation from Demo to Alta Cliente: client and type-6 project created", async ({
  page,
}) => {
  test.setTimeout(150_000);
  const id = suffix();
  const prospect = `Ferretería El Tornillo ${id}`;
  const contact = `Lucía Méndez ${id}`;
  await signIn(page, "admin");
  await createProspect(page, prospect, `Prospectos cotización ${id}`);
  await expect(page.locator("#main-content").getByRole("link", { name: /CV_Ferreter/ })).toBeVisible();

  // The list, in Spanish, with its filters.
  await page.getByRole("menuitem", { name: "Cotizaciones", exact: true }).click();
  await expect(page).toHaveURL(/\/app\/quotations(\?.*)?$/);
  await expect(page.getByRole("columnheader", { name: "Nombre del contacto" })).toBeVisible();
  await expect(page.getByRole("row").nth(1)).toBeVisible();
  await expectNoEnglish(page);

  // The form: contact, prospect, product and the calendar event.
  await page.getByRole("link", { name: "Crear" }).click();
  await expect(page).toHaveURL(/\/app\/quotations\/new$/);
  await page.getByRole("textbox", { name: "Nombre del contacto" }).fill(contact);
  await page.getByRole("combobox", { name: "Prospecto" }).fill(prospect);
  await page.getByRole("option", { name: prospect }).click();
  await page.getByRole("combobox", { name: "Producto" }).click();
  const productOption = page.getByRole("option").first();
  const product = ((await productOption.textContent()) ?? "").trim();
  await productOption.click();
  await page.getByLabel("Agendar evento en el calendario").check();
  await expect(page.getByRole("spinbutton", { name: "Duración (minutos)" })).toHaveValue("60");
  await fillDate(page, "Fecha y hora del evento", "2026-12-01T10:00");
  const attendees = page.getByRole("combobox", { name: "Correos de los invitados" });
  await attendees.fill("lucia@");
  await attendees.press("Enter");
  await page.getByRole("button", { name: "Guardar" }).click();
  await expect(page.getByText("Verifique que los correos ingresados estén correctos.")).toBeVisible();
  await expect(page).toHaveURL(/\/app\/quotations\/new$/);
  await attendees.press("Backspace"); // removes the wrong chip
  await attendees.fill("lucia@tornillo.mx");
  await attendees.press("Enter");
  await expectNoEnglish(page);
  await page.getByRole("button", { name: "Guardar" }).click();
  await expect(page.getByText("Elemento guardado")).toBeVisible();
  await expect(page).toHaveURL(/\/app\/quotations\/\d+$/);
  const main = page.locator("#main-content");
  await expect(main.getByText(contact, { exact: true })).toBeVisible();
  await expect(main.getByText("Demo", { exact: true })).toBeVisible();

  // The event: one hour by default, its .ics invitation.
  await expect(page.getByTestId("quotation-event-when")).toContainText("(60 min)");
  await expect(main.getByText("Invitados: lucia@tornillo.mx")).toBeVisible();
  const ics = main.getByRole("link", { name: "Descargar invitación (.ics)" });
  const href = (await ics.getAttribute("href")) as string;
  expect(href).toMatch(/\/api\/v1\/quotations\/\d+\/invitation\.ics$/);
  const invitation = await page.request.get(href);
  expect(invitation.status()).toBe(200);
  const text = (await invitation.text()).replace(/\r\n /g, "");
  expect(text).toContain("BEGIN:VCALENDAR");
  expect(text).toContain("DTSTART:20261201T160000Z"); // 10:00 in Mexico City
  expect(text).toContain("mailto:lucia@tornillo.mx");
  await expectNoEnglish(page);

  // Editing: the event comes back into the form as it was saved; a longer meeting is saved as such.
  await page.getByRole("link", { name: "Editar" }).click();
  await expect(page).toHaveURL(/\/app\/quotations\/update\/\d+$/);
  await expect(page.getByLabel("Agendar evento en el calendario")).toBeChecked();
  await expect.poll(() => pickedDate(page, "Fecha y hora del evento")).toBe("01/12/2026 10:00");
  await expect(page.getByRole("button", { name: "lucia@tornillo.mx" })).toBeVisible();
  await page.getByRole("spinbutton", { name: "Duración (minutos)" }).fill("90");
  await page.getByRole("button", { name: "Guardar" }).click();
  await expect(page).toHaveURL(/\/app\/quotations\/\d+$/);
  await expect(page.getByTestId("quotation-event-when")).toContainText("(90 min)");
  expect((await (await page.request.get(href)).text()).replace(/\r\n /g, "")).toContain("DTEND:20261201T173000Z");

  // The comment is required.
  await page.getByRole("button", { name: "Aprobar demo", exact: true }).click();
  const dialog = page.getByRole("dialog", { name: "Aprobar demo" });
  await dialog.getByRole("button", { name: "Confirmar" }).click();
  await expect(dialog.getByText("Por favor, agregue un comentario")).toBeVisible();
  await dialog.getByRole("button", { name: "Cancelar" }).click();
  await expect(dialog).toHaveCount(0);

  await fireEvent(page, "Aprobar demo", "Le gustó la demostración", "Cotización en Contrato");
  await expect(main.getByText("Contrato", { exact: true })).toBeVisible();
  await fireEvent(page, "Solicitar contrato", "Se envía el contrato PLD", "Cotización en Cotización");
  await expect(main.getByText("Cotización", { exact: true })).toBeVisible();
  await fireEvent(page, "Aprobar cotización", "Contrato firmado", "Alta Cliente: se crearon el cliente y su proyecto");
  await expect(main.getByText("Alta Cliente", { exact: true })).toBeVisible();
  await expect(page.getByRole("button", { name: "Rechazar", exact: true })).toHaveCount(0);
  await expectNoEnglish(page);

  // The client (was a prospect) and its project (type 6, the quotation's product).
  const clientLink = main.getByRole("link", { name: `Cliente: ${prospect}` });
  const projectLink = main.getByRole("link", { name: /^Proyecto: PRY-\d+/ });
  await expect(projectLink).toContainText(`${product} - ${prospect}`);
  const projectHref = (await projectLink.getAttribute("href")) as string;
  await clientLink.click();
  await expect(page).toHaveURL(/\/app\/clients\/show\/\d+$/);
  await expect(main.getByText(prospect, { exact: true }).first()).toBeVisible();
  // The client's product, in its products (the support-hours panel below names it too).
  await expect(main.locator(".ra-field-client_product_catalogs").getByText(product, { exact: true })).toBeVisible();
  const wasProspect = main.locator(".ra-field-was_prospect");
  await expect(wasProspect.getByLabel("Sí")).toBeVisible();
  await page.goBack();
  await expect(page).toHaveURL(/\/app\/quotations\/\d+$/);
  await main.getByRole("link", { name: /^Proyecto: PRY-\d+/ }).click();
  await expect(page).toHaveURL(new RegExp(`${projectHref}$`));
  await expect(main.getByText(`${product} - ${prospect}`, { exact: true })).toBeVisible();
  await expect(main.locator(".ra-field-project_type_name")).toContainText("Implementación");
  await expect(main.locator(".ra-field-product_name")).toContainText(product);
  await expect(main.locator(".ra-field-drive_root_url").getByRole("link")).toHaveAttribute("target", "_blank");

  // The project's drive check finds its folders complete.
  await page.getByRole("button", { name: "Revisar drive" }).click();
  await expect(page.getByText("Drive Actualizado: todo estaba en orden.", { exact: true })).toBeVisible();

  // In the list: by state and search.
  await page.getByRole("menuitem", { name: "Cotizaciones", exact: true }).click();
  await page.getByPlaceholder("Buscar por contacto").fill(contact);
  await page.getByRole("combobox", { name: "Estado" }).click();
  await page.getByRole("option", { name: "Alta Cliente" }).click();
  await expect(page.getByRole("cell", { name: contact, exact: true })).toBeVisible();
  await expect(page.getByText("1–1 de 1")).toBeVisible();
  await page.getByRole("combobox", { name: "Estado" }).click();
  await page.getByRole("option", { name: "Demo" }).click();
  await expect(page.getByRole("cell", { name: contact, exact: true })).toHaveCount(0);
});

test("an administrator converts a prospect to a client through the folder picker", async ({ page }) => {
  const id = suffix();
  const name = `Óptica Visión ${id}`;
  await signIn(page, "admin");
  const prospectId = await createProspect(page, name);

  // A quotation can start from here, the prospect already chosen.
  await page.getByRole("link", { name: "Nueva cotización" }).click();
  await expect(page).toHaveURL(/\/app\/quotations\/new\?source=/);
  await expect(page.getByRole("combobox", { name: "Prospecto" })).toHaveValue(name);
  await page.goBack();
  await expect(page).toHaveURL(new RegExp(`/app/prospects/${prospectId}$`));

  await page.getByRole("button", { name: "Convertir a cliente" }).click();
  const dialog = page.getByRole("dialog", { name: "Convertir a cliente" });
  await expect(dialog.getByRole("textbox", { name: "Nombre" })).toHaveValue(name);
  await dialog.getByRole("button", { name: "Convertir" }).click();
  await expect(dialog.getByText("No se ha seleccionado una carpeta")).toBeVisible();
  await expectNoEnglish(page);
  await pickNewFolder(page, `Cliente ${name}`);
  await dialog.getByRole("button", { name: "Convertir" }).click();
  await expect(page.getByText("Cliente Creado")).toBeVisible();
  await expect(page).toHaveURL(/\/app\/clients\/show\/\d+$/);
  const main = page.locator("#main-content");
  await expect(main.getByText(name, { exact: true }).first()).toBeVisible();
  await expect(main.locator(".ra-field-was_prospect").getByLabel("Sí")).toBeVisible();
  await expect(main.locator(".ra-field-drive_root_url").getByRole("link")).toContainText(`Cliente ${name}`);

  // The prospect is gone.
  await page.goto(`/app/prospects/${prospectId}`);
  await expect(page).toHaveURL(/\/404$/);
});

test("Finanzas reads quotations without changing them; Operador does not see them", async ({ page }) => {
  await signIn(page, "finance");
  await page.getByRole("menuitem", { name: "Cotizaciones", exact: true }).click();
  await expect(page).toHaveURL(/\/app\/quotations(\?.*)?$/);
  await expect(page.getByRole("row").nth(1)).toBeVisible();
  await expect(page.getByRole("link", { name: "Crear" })).toHaveCount(0);
  await page.getByRole("combobox", { name: "Estado" }).click();
  await page.getByRole("option", { name: "Demo" }).click();
  await expect(page.getByRole("row").nth(1)).toContainText("Demo");
  await expect(page.getByRole("row").filter({ hasText: "Cancelada" })).toHaveCount(0);
  await page.getByRole("row").nth(1).getByRole("cell").first().click();
  await expect(page).toHaveURL(/\/app\/quotations\/\d+$/);
  await expect(page.locator("#main-content").getByText("Demo", { exact: true })).toBeVisible();
  await expect(page.getByRole("link", { name: "Editar" })).toHaveCount(0);
  await expect(page.getByRole("button", { name: "Aprobar demo", exact: true })).toHaveCount(0);
  await expectNoEnglish(page);

  await page.context().clearCookies();
  await signIn(page, "operator");
  await expect(page.getByRole("menuitem", { name: "Prospectos", exact: true })).toBeVisible();
  await expect(page.getByRole("menuitem", { name: "Cotizaciones", exact: true })).toHaveCount(0);
  const status = await page.evaluate(async () => (await fetch("/api/v1/quotations")).status);
  expect(status).toBe(403);
  // Operador reads prospects but cannot convert them.
  await page.getByRole("menuitem", { name: "Prospectos", exact: true }).click();
  await page.getByRole("row").nth(1).getByRole("cell").first().click();
  await expect(page).toHaveURL(/\/app\/prospects\/\d+$/);
  await expect(page.locator("#main-content").getByText(/Fecha de creación/)).toBeVisible();
  await expect(page.getByRole("button", { name: "Convertir a cliente" })).toHaveCount(0);
});

/** A bearer token for setting up records through the API (the screens are walked, not the set-up). */
async function adminApi(page: Page) {
  const session = await page.request.post("/api/v1/sessions", {
    data: { email: ACCOUNTS.admin, password: DEMO_PASSWORD },
  });
  const token = (await session.json()).token as string;
  return async (method: "post" | "get", url: string, data?: unknown) => {
    const res = await page.request[method](url, { headers: { authorization: `Bearer ${token}` }, data });
    expect(res.ok(), await res.text()).toBe(true);
    return res.json();
  };
}

test("a won prospect is its client: the next quotation adds a project to it, nothing offers a second client", async ({
  page,
}) => {
  test.setTimeout(120_000);
  const id = suffix();
  const name = `Aceros del Norte ${id}`;
  await signIn(page, "admin");
  const api = await adminApi(page);
  const prospect = (await api("post", "/api/v1/prospects", { prospect: { name } })).prospect;
  const product = (await api("get", "/api/v1/products?per_page=1")).products[0];
  const quotation = async () =>
    (
      await api("post", "/api/v1/quotations", {
        quotation: { contact_name: `Contacto ${id}`, prospect_id: prospect.id, product_catalog_id: product.id },
      })
    ).quotation;
  const first = await quotation();
  const main = page.locator("#main-content");

  await page.goto(`/app/quotations/${first.id}`);
  await fireEvent(page, "Aprobar demo", "Demo aprobada", "Cotización en Contrato");
  await fireEvent(page, "Solicitar contrato", "Contrato enviado", "Cotización en Cotización");
  await page.getByRole("button", { name: "Aprobar cotización", exact: true }).click();
  await expect(page.getByTestId("approval-client")).toHaveText(`Se da de alta el cliente «${name}» con su proyecto.`);
  await page.getByRole("dialog").getByRole("textbox", { name: "Comentario" }).fill("Firmado");
  await page.getByRole("dialog").getByRole("button", { name: "Confirmar" }).click();
  await expect(page.getByText("Alta Cliente: se crearon el cliente y su proyecto")).toBeVisible();

  // The prospect says it is the client now; it offers no conversion and no edit, only a new quotation.
  await page.goto(`/app/prospects/${prospect.id}`);
  await expect(main.getByText(`Este prospecto ya es el cliente «${name}»`)).toBeVisible();
  await expect(page.getByRole("button", { name: "Convertir a cliente" })).toHaveCount(0);
  await expect(page.getByRole("link", { name: "Editar" })).toHaveCount(0);
  await expectNoEnglish(page);

  // A second quotation for it ends in a second project of the same client.
  const second = await quotation();
  await page.goto(`/app/quotations/${second.id}`);
  await expect(main.locator(".ra-field-client_name")).toContainText(name);
  await fireEvent(page, "Aprobar demo", "Segunda demo", "Cotización en Contrato");
  await fireEvent(page, "Solicitar contrato", "Segundo contrato", "Cotización en Cotización");
  await page.getByRole("button", { name: "Aprobar cotización", exact: true }).click();
  await expect(page.getByTestId("approval-client")).toHaveText(`Se agrega un proyecto al cliente «${name}».`);
  await page.getByRole("dialog").getByRole("textbox", { name: "Comentario" }).fill("Segundo proyecto");
  await page.getByRole("dialog").getByRole("button", { name: "Confirmar" }).click();
  await expect(page.getByText(`Alta Cliente: se agregó el proyecto al cliente «${name}»`)).toBeVisible();

  // One client with that name, and its two projects.
  await page.getByRole("menuitem", { name: "Clientes", exact: true }).click();
  await page.getByPlaceholder(/Buscar/).fill(name);
  await expect(page.getByRole("cell", { name, exact: true })).toHaveCount(1);
  await expect(page.getByText("1–1 de 1")).toBeVisible();
  const projects = await api("get", `/api/v1/projects?per_page=all&search=${encodeURIComponent(name)}`);
  expect(projects.projects).toHaveLength(2);
});

test("converting a prospect warns about its open quotation, which goes on as the client's", async ({ page }) => {
  test.setTimeout(120_000);
  const id = suffix();
  const name = `Papelera Abierta ${id}`;
  await signIn(page, "admin");
  const api = await adminApi(page);
  const prospect = (await api("post", "/api/v1/prospects", { prospect: { name } })).prospect;
  const product = (await api("get", "/api/v1/products?per_page=1")).products[0];
  const quotation = (
    await api("post", "/api/v1/quotations", {
      quotation: { contact_name: `Contacto ${id}`, prospect_id: prospect.id, product_catalog_id: product.id },
    })
  ).quotation;

  await page.goto(`/app/prospects/${prospect.id}`);
  await page.getByRole("button", { name: "Convertir a cliente" }).click();
  const dialog = page.getByRole("dialog", { name: "Convertir a cliente" });
  await expect(dialog.getByText("Su cotización abierta pasa al cliente y sigue desde ahí.")).toBeVisible();
  await pickNewFolder(page, `Cliente ${name}`);
  await dialog.getByRole("button", { name: "Convertir" }).click();
  await expect(page).toHaveURL(/\/app\/clients\/show\/\d+$/);

  await page.goto(`/app/quotations/${quotation.id}`);
  const main = page.locator("#main-content");
  await expect(main.locator(".ra-field-client_name")).toContainText(name);
  await fireEvent(page, "Aprobar demo", "Demo tras la conversión", "Cotización en Contrato");
  await fireEvent(page, "Solicitar contrato", "Contrato", "Cotización en Cotización");
  await fireEvent(page, "Aprobar cotización", "Firmado", `Alta Cliente: se agregó el proyecto al cliente «${name}»`);
  await expect(main.getByRole("link", { name: `Cliente: ${name}` })).toBeVisible();
});

test("a quotation at Alta Cliente is read-only and keeps each step's comment as its history", async ({ page }) => {
  test.setTimeout(120_000);
  const id = suffix();
  await signIn(page, "admin");
  const quotationId = await page.evaluate(async (name) => {
    const post = async (path: string, body: unknown) =>
      (
        await fetch(`/api/v1/${path}`, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify(body),
        })
      ).json();
    const products = await (await fetch("/api/v1/products?per_page=1")).json();
    const prospect = (await post("prospects", { prospect: { name } })).prospect;
    const quotation = (
      await post("quotations", {
        quotation: { contact_name: `Contacto ${name}`, prospect_id: prospect.id, product_catalog_id: products.products[0].id },
      })
    ).quotation;
    return quotation.id as number;
  }, `Papelería Historia ${id}`);

  await page.goto(`/app/quotations/${quotationId}`);
  const main = page.locator("#main-content");
  await expect(main.getByText("La cotización aún no cambia de estado")).toBeVisible();
  await fireEvent(page, "Aprobar demo", "Le gustó la demo", "Cotización en Contrato");
  await fireEvent(page, "Solicitar contrato", "Pidió el contrato", "Cotización en Cotización");
  await fireEvent(page, "Aprobar cotización", "Contrato firmado", "Alta Cliente: se crearon el cliente y su proyecto");

  // Every step stays, oldest first: when (DD/MM/AAAA), who, from → to and its comment; the record keeps the last.
  const history = page.getByRole("table", { name: "Historial de comentarios" });
  const rows = history.getByRole("row");
  await expect(rows).toHaveCount(4);
  for (const [n, from, to, comment] of [
    [1, "Demo", "Contrato", "Le gustó la demo"],
    [2, "Contrato", "Cotización", "Pidió el contrato"],
    [3, "Cotización", "Alta Cliente", "Contrato firmado"],
  ] as const) {
    const cells = rows.nth(n).getByRole("cell");
    await expect(cells.nth(0)).toHaveText(/^\d{2}\/\d{2}\/\d{4} \d{2}:\d{2}$/);
    await expect(cells.nth(1)).not.toHaveText("");
    await expect(cells.nth(2)).toHaveText(`${from} → ${to}`);
    await expect(cells.nth(3)).toHaveText(comment);
  }
  await expect(main.locator(".ra-field-audit_comment")).toContainText("Contrato firmado");
  await expectNoEnglish(page);

  // Final: no Editar, its edit path leads back with the reason, and the API refuses a delete.
  await expect(page.getByRole("link", { name: "Editar" })).toHaveCount(0);
  await page.goto(`/app/quotations/update/${quotationId}`);
  await expect(
    page.getByText("La cotización está en «Alta Cliente»: es un registro final y ya no se puede modificar ni eliminar"),
  ).toBeVisible();
  await expect(page).toHaveURL(new RegExp(`/app/quotations/${quotationId}$`));
  await expect(page.getByRole("button", { name: "Guardar" })).toHaveCount(0);
  const deleted = await page.evaluate(
    async (qid) => (await fetch(`/api/v1/quotations/${qid}`, { method: "DELETE" })).status,
    quotationId,
  );
  expect(deleted).toBe(422);
});
