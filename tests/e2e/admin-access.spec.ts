import { expect, type Page, test } from "@playwright/test";
import { expectNoEnglish, fillDate, pickedDate, pickNewFolder, signIn } from "./fixtures";

/** A same-origin call with the signed-in page's session (set-up only; the screens are walked). */
async function api(page: Page, method: string, url: string, body?: unknown) {
  return page.evaluate(
    async ({ method, url, body }) => {
      const res = await fetch(url, {
        method,
        headers: { "content-type": "application/json" },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      return { status: res.status, body: await res.json() };
    },
    { method, url, body },
  );
}

test("the only administrator unticking her own «Administrador» is asked first, then refused", async ({ page }) => {
  await signIn(page, "admin");
  const me = (await api(page, "GET", "/api/v1/sessions/current")).body.user;
  await page.goto(`/app/users/update/${me.id}`);
  const adminSwitch = page.getByRole("switch", { name: "Administrador" });
  // The first screen of a fresh server loads its chunk: more time than a click's answer.
  await expect(adminSwitch).toBeChecked({ timeout: 30_000 });
  await adminSwitch.uncheck();
  // With no role left the form says so first; she keeps Operador.
  await page.getByRole("button", { name: "Guardar" }).click();
  await expect(page.getByText("elija al menos un rol: Administrador, Operador o Finanzas")).toBeVisible();
  await page.getByRole("switch", { name: "Operador" }).check();

  // Guardar asks; «Cancelar» leaves everything as it was.
  await page.getByRole("button", { name: "Guardar" }).click();
  const dialog = page.getByRole("dialog", { name: "¿Quitarse el rol de Administrador?" });
  await expect(dialog).toBeVisible();
  await expect(dialog.getByText(/Dejará de poder administrar SIA/)).toBeVisible();
  await expectNoEnglish(page);
  await dialog.getByRole("button", { name: "Cancelar" }).click();
  await expect(dialog).toHaveCount(0);
  await expect(page).toHaveURL(new RegExp(`/app/users/update/${me.id}$`));

  // Enter in a field submits too: it asks as well.
  await page.getByLabel("Nombre", { exact: true }).press("Enter");
  await expect(dialog).toBeVisible();
  await dialog.getByRole("button", { name: "Sí, quitarme el rol" }).click();
  // She is the last active administrator: refused in Spanish, on the switch, and she keeps the app.
  const refusal = "No se puede quitar ni dar de baja al último administrador activo";
  await expect(page.locator("#main-content").getByText(new RegExp(refusal))).toBeVisible();
  await expect(page.getByText("Usuario guardado")).toHaveCount(0);
  await expect(page.getByText("Acceso denegado")).toHaveCount(0);
  await page.goto("/app/users");
  await expect(page.getByRole("cell", { name: me.email })).toBeVisible();
});

test("a new user with no role gets a Spanish field error before anything is sent", async ({ page }) => {
  await signIn(page, "admin");
  await page.goto("/app/users/new_user");
  await page.getByLabel("Nombre", { exact: true }).fill("Sin Rol");
  await page.getByLabel("Correo electrónico").fill(`sinrol.${Date.now().toString(36)}@sia.local`);
  await page.getByRole("switch", { name: "Operador" }).uncheck();
  await page.getByLabel("Contraseña", { exact: true }).fill("secreta-123");
  await page.getByLabel("Confirmar contraseña").fill("secreta-123");
  await page.getByRole("button", { name: "Guardar" }).click();
  await expect(page.getByText("elija al menos un rol: Administrador, Operador o Finanzas")).toBeVisible();
  await expect(page).toHaveURL(/\/app\/users\/new_user$/);
});

test("a user saved before a role was required is told to ask for one, not shown a calendar that refuses everything", async ({
  page,
}) => {
  await signIn(page, "operator");
  // Such a user can no longer be saved: the session's answers are made to say «no role» instead.
  const roleless = (user: Record<string, unknown>) => ({
    ...user,
    administrator_role: false,
    operator_role: false,
    finance_role: false,
  });
  await page.route("**/api/v1/sessions/current", async (route) => {
    const response = await route.fetch();
    const body = await response.json();
    await route.fulfill({ response, json: { ...body, user: roleless(body.user) } });
  });
  await page.evaluate((key) => {
    const user = JSON.parse(sessionStorage.getItem(key) as string);
    sessionStorage.setItem(
      key,
      JSON.stringify({ ...user, administrator_role: false, operator_role: false, finance_role: false }),
    );
  }, "apiUser");
  await page.goto("/app/activities");
  const notice = page.getByRole("alert").filter({ hasText: "Su usuario aún no tiene acceso" });
  await expect(notice).toContainText("Pida a un administrador de SIA que le asigne uno");
  await expect(page.locator(".fc")).toHaveCount(0);
  await page.goto("/app/clients");
  await expect(notice).toBeVisible();
  await expectNoEnglish(page);
});

test.describe("in a browser set to English", () => {
  test.use({ locale: "en-US" });

  test("date and time inputs read DD/MM/AAAA and a 24-hour clock, in Spanish", async ({ page }) => {
    await signIn(page, "admin");
    // The timesheet's «Ir a fecha»: day first, the sections named in Spanish.
    await fillDate(page, "Ir a fecha", "2026-12-03");
    expect(await pickedDate(page, "Ir a fecha")).toBe("03/12/2026");
    // A quotation's event: date and time, 17:30 rather than 05:30 PM, and no a.m./p.m. section.
    await page.goto("/app/quotations/new");
    await page.getByLabel("Agendar evento en el calendario").check();
    await fillDate(page, "Fecha y hora del evento", "2026-12-03T17:30");
    expect(await pickedDate(page, "Fecha y hora del evento")).toBe("03/12/2026 17:30");
    await expect(
      page
        .getByRole("group", { name: "Fecha y hora del evento", exact: true })
        .getByRole("spinbutton", { name: /Meridiem|a\. m\./i }),
    ).toHaveCount(0);
  });

  test("a client named like another is a warning to confirm past; its e-mail is checked in Spanish", async ({ page }) => {
    const suffix = Date.now().toString(36);
    await signIn(page, "admin");
    const existing = `Cementos del Istmo ${suffix}`;
    const folder = (await api(page, "POST", "/api/v1/drive/folders", { folder: { name: `Istmo ${suffix}` } })).body.folder;
    expect((await api(page, "POST", "/api/v1/clients", { client: { name: existing, drive_root_id: folder.id } })).status).toBe(
      201,
    );

    await page.goto("/app/clients/new");
    await page.getByRole("textbox", { name: "Nombre", exact: true }).fill(`  CEMENTOS DEL ÍSTMO  ${suffix}`);
    await page.getByRole("textbox", { name: "Correo electrónico" }).fill("compras-en-cementos");
    await page.getByRole("button", { name: "Guardar" }).click();
    // SIA's own message, not the browser's («Please include an '@'…»).
    await expect(page.getByText("no es un correo válido")).toBeVisible();
    await page.getByRole("textbox", { name: "Correo electrónico" }).fill("compras@cementos.mx");
    await pickNewFolder(page, `Cementos copia ${suffix}`);
    await page.getByRole("button", { name: "Guardar" }).click();
    const warning = page.locator("#main-content").getByRole("alert").filter({ hasText: "Ya existe un cliente parecido" });
    await expect(warning).toContainText(existing);
    await expect(page).toHaveURL(/\/app\/clients\/new$/);
    await expectNoEnglish(page);
    await page.getByRole("switch", { name: "Es otro cliente: guardarlo de todos modos" }).check();
    await page.getByRole("button", { name: "Guardar" }).click();
    await expect(page.getByText("Cliente Creado")).toBeVisible();
    await expect(page).toHaveURL(/\/app\/clients\/show\/\d+$/);
  });

  test("a prospect named like a client: the conversion warns the same way", async ({ page }) => {
    const suffix = Date.now().toString(36);
    await signIn(page, "admin");
    const existing = `Óptica Luz ${suffix}`;
    const folder = (await api(page, "POST", "/api/v1/drive/folders", { folder: { name: `Luz ${suffix}` } })).body.folder;
    expect((await api(page, "POST", "/api/v1/clients", { client: { name: existing, drive_root_id: folder.id } })).status).toBe(
      201,
    );
    const prospect = (await api(page, "POST", "/api/v1/prospects", { prospect: { name: existing.toUpperCase() } })).body.prospect;
    await page.goto(`/app/prospects/${prospect.id}`);
    await page.getByRole("button", { name: "Convertir a cliente" }).click();
    const dialog = page.getByRole("dialog", { name: "Convertir a cliente" });
    await pickNewFolder(page, `Cliente convertido ${suffix}`);
    await dialog.getByRole("button", { name: "Convertir" }).click();
    await expect(dialog.getByRole("alert").filter({ hasText: "Ya existe" })).toContainText(existing);
    await dialog.getByRole("switch", { name: "Es otro cliente: guardarlo de todos modos" }).check();
    await dialog.getByRole("button", { name: "Convertir" }).click();
    await expect(page.getByText("Cliente Creado")).toBeVisible();
    await expect(page).toHaveURL(/\/app\/clients\/show\/\d+$/);
  });

  test("approving a quotation whose prospect is named like a client warns the same way", async ({ page }) => {
    const suffix = Date.now().toString(36);
    await signIn(page, "admin");
    const existing = `Hidráulica Sur ${suffix}`;
    const folder = (await api(page, "POST", "/api/v1/drive/folders", { folder: { name: `Sur ${suffix}` } })).body.folder;
    expect((await api(page, "POST", "/api/v1/clients", { client: { name: existing, drive_root_id: folder.id } })).status).toBe(
      201,
    );
    const prospect = (await api(page, "POST", "/api/v1/prospects", { prospect: { name: ` hidraulica  sur ${suffix}` } })).body
      .prospect;
    const product = (await api(page, "GET", "/api/v1/products?per_page=1")).body.products[0];
    const quotation = (
      await api(page, "POST", "/api/v1/quotations", {
        quotation: { contact_name: "Contacto", prospect_id: prospect.id, product_catalog_id: product.id },
      })
    ).body.quotation;
    for (const event of ["approve_demo", "request_contract"])
      expect(
        (
          await api(page, "POST", `/api/v1/quotations/${quotation.id}/aasm_transition`, {
            quotation: { event, audit_comment: event },
          })
        ).status,
      ).toBe(200);

    await page.goto(`/app/quotations/${quotation.id}`);
    await page.getByRole("button", { name: "Aprobar cotización", exact: true }).click();
    const dialog = page.getByRole("dialog", { name: "Aprobar cotización" });
    await dialog.getByRole("textbox", { name: "Comentario" }).fill("Contrato firmado");
    await dialog.getByRole("button", { name: "Confirmar" }).click();
    // Nothing was approved: the dialog stays open with the comment, names the look-alike and asks.
    await expect(dialog.getByRole("alert").filter({ hasText: "Ya existe" })).toContainText(existing);
    await expect(dialog.getByRole("textbox", { name: "Comentario" })).toHaveValue("Contrato firmado");
    await expectNoEnglish(page);
    await dialog.getByRole("switch", { name: "Es otro cliente: guardarlo de todos modos" }).check();
    await dialog.getByRole("button", { name: "Confirmar" }).click();
    await expect(dialog).toHaveCount(0);
    await expect(page.getByText("Alta Cliente: se crearon el cliente y su proyecto")).toBeVisible();
  });
});
