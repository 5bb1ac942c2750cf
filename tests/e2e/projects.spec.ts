import fs from "node:fs";
import path from "node:path";
import { expect, type Page, test } from "@playwright/test";
import { expectNoEnglish, signIn } from "./fixtures";

const STEPS = [
  { button: "Enviar propuesta", state: "Propuesta" },
  { button: "Iniciar ejecución", state: "En Ejecución" },
  { button: "Enviar a validación del cliente", state: "Validación del Cliente" },
  { button: "Solicitar autorización del cliente", state: "Autorización Cliente" },
  { button: "Iniciar garantía", state: "Garantía" },
  { button: "Terminar", state: "Terminado" },
];

test("an administrator creates a project, finds it in the list and walks it to Terminado", async ({ page }) => {
  test.setTimeout(120_000);
  const name = `Portal de proveedores ${Date.now().toString(36)}`;
  await signIn(page, "admin");
  await page.getByRole("menuitem", { name: "Proyectos", exact: true }).click();
  await expect(page).toHaveURL(/\/app\/projects(\?.*)?$/);
  await expect(page.getByRole("columnheader", { name: "Código" })).toBeVisible();
  await expectNoEnglish(page);

  // Create: the code comes preloaded from GET projects/get_next_project_code.
  await page.getByRole("link", { name: "Crear" }).click();
  await expect(page).toHaveURL(/\/app\/projects\/new$/);
  const code = page.getByRole("textbox", { name: "Código" });
  await expect(code).not.toHaveValue("0");
  await expect(code).toHaveValue(/^(?!0$)\S+$/);
  const projectCode = await code.inputValue();
  await page.getByRole("textbox", { name: "Nombre", exact: true }).fill(name);
  await page.getByRole("combobox", { name: "Cliente" }).click();
  await page.getByRole("option").first().click();
  // Type, product and date are required: marked, and refused per field in Spanish when empty.
  await expect(page.getByText("Tipo de proyecto *")).toBeVisible();
  await expect(page.getByText("Producto *")).toBeVisible();
  await expect(page.getByText("Fecha del proyecto *").first()).toBeVisible();
  await page.getByRole("button", { name: "Guardar" }).click();
  await expect(page.getByText("es obligatorio")).toHaveCount(3);
  await expect(page).toHaveURL(/\/app\/projects\/new$/);
  await fillProjectBasics(page);
  const date = page.getByRole("group", { name: /Fecha del proyecto/ });
  await expect(date.getByRole("spinbutton", { name: "Día" })).toHaveText("15");
  await expect(page.getByText("es obligatorio")).toHaveCount(0);
  await expectNoEnglish(page);
  await page.getByRole("button", { name: "Guardar" }).click();
  await expect(page.getByText("Elemento guardado")).toBeVisible();
  await expect(page).toHaveURL(/\/app\/projects\/\d+$/);
  const id = page.url().split("/").pop();
  const history = page.getByRole("table", { name: "Historial de estados" });
  await expect(history.getByRole("cell", { name: "Requerimiento" })).toBeVisible();
  await expectNoEnglish(page);

  // The comment is required in the event dialog.
  await page.getByRole("button", { name: STEPS[0].button, exact: true }).click();
  const dialog = page.getByRole("dialog");
  await dialog.getByRole("button", { name: "Confirmar" }).click();
  await expect(dialog.getByText("Por favor, agregue un comentario")).toBeVisible();
  await dialog.getByRole("button", { name: "Cancelar" }).click();
  await expect(dialog).toHaveCount(0);

  for (const step of STEPS) {
    await page.getByRole("button", { name: step.button, exact: true }).click();
    await expect(page.getByRole("dialog")).toBeVisible();
    await page.getByRole("dialog").getByRole("textbox", { name: "Comentario" }).fill(`Paso a ${step.state}`);
    await page.getByRole("dialog").getByRole("button", { name: "Confirmar" }).click();
    await expect(page.getByRole("dialog")).toHaveCount(0);
    await expect(history.getByRole("cell", { name: `Paso a ${step.state}` })).toBeVisible();
  }
  for (const step of STEPS)
    await expect(history.getByRole("row").filter({ hasText: step.button === "Terminar" ? "Terminar" : step.button })).toHaveCount(
      1,
    );
  await expect(history.getByRole("row")).toHaveCount(STEPS.length + 2); // header + creation + steps
  // Terminado is archived: only the admin's reactivation is offered.
  await expect(page.getByRole("button", { name: "Reactivar", exact: true })).toBeVisible();
  await expect(page.getByRole("button", { name: "Terminar", exact: true })).toHaveCount(0);
  await expect(
    page.getByRole("table", { name: "Bitácora de cambios" }).getByRole("cell", { name: "Terminado" }).first(),
  ).toBeVisible();
  await expectNoEnglish(page);

  // Found in the list; the search is kept when leaving the list and coming back.
  await page.getByRole("menuitem", { name: "Proyectos", exact: true }).click();
  await page.getByPlaceholder("Buscar por nombre o código").fill(name);
  await expect(page.getByRole("cell", { name, exact: true })).toBeVisible();
  await expect(page.getByRole("cell", { name: projectCode, exact: true })).toBeVisible();
  await expect(page.getByText("1–1 de 1")).toBeVisible();
  await page.getByRole("menuitem", { name: "Clientes", exact: true }).click();
  await expect(page).toHaveURL(/\/app\/clients/);
  await page.getByRole("menuitem", { name: "Proyectos", exact: true }).click();
  await expect(page.getByPlaceholder("Buscar por nombre o código")).toHaveValue(name);
  await expect(page.getByText("1–1 de 1")).toBeVisible();
  await page.getByRole("cell", { name, exact: true }).click();
  await expect(page).toHaveURL(new RegExp(`/app/projects/${id}$`));
  await expect(page.locator(".ra-field-project_date")).toContainText("15/03/2030");

  // The edit form cannot clear the date either.
  await page.getByRole("link", { name: "Editar" }).click();
  const editDate = page.getByRole("group", { name: /Fecha del proyecto/ });
  await editDate.getByRole("spinbutton", { name: "Día" }).click();
  await page.keyboard.press("Control+a");
  await page.keyboard.press("Backspace");
  await page.getByRole("button", { name: "Guardar" }).click();
  await expect(page.getByText("es obligatorio")).toHaveCount(1);
  await expect(page).toHaveURL(new RegExp(`/app/projects/update/${id}$`));
});

test("an operator sees projects read-only: no events, no edit", async ({ page }) => {
  await signIn(page, "operator");
  await page.goto("/app/projects");
  await page.getByRole("row").nth(1).click();
  await expect(page).toHaveURL(/\/app\/projects\/\d+$/);
  await expect(page.getByRole("table", { name: "Historial de estados" })).toBeVisible();
  await expect(page.getByText("Cambiar estado")).toHaveCount(0);
  await expect(page.getByRole("link", { name: "Editar" })).toHaveCount(0);
  await expectNoEnglish(page);
});

/** The record's folder link on its detail page, decoded to the drive path it points at. */
async function folderPath(page: Page): Promise<string> {
  const link = page.locator("#main-content a[href*='/drive/folders/']").first();
  await expect(link).toBeVisible();
  const href = (await link.getAttribute("href")) as string;
  return decodeURIComponent(new URL(href, "http://x").pathname.replace(/^\/drive\/folders\//, ""));
}

/** Opens the drive's page of a folder (what the record's link opens) and answers its title and items. */
async function openFolder(page: Page, drivePath: string) {
  await page.goto(`/drive/folders/${drivePath.split("/").map(encodeURIComponent).join("/")}`);
  const title = await page.locator("h1").textContent();
  const items = await page.locator("li a").allTextContents();
  await page.goBack();
  return { title, items };
}

/** The project form's type, product (the first of each) and date (15/03/2030), typed as a person would. */
async function fillProjectBasics(page: Page) {
  await page.getByRole("combobox", { name: "Tipo de proyecto" }).click();
  await page.getByRole("option").first().click();
  await page.getByRole("combobox", { name: "Producto" }).click();
  await page.getByRole("option").first().click();
  const date = page.getByRole("group", { name: /Fecha del proyecto/ });
  await date.getByRole("spinbutton", { name: "Día" }).click();
  await page.keyboard.type("15032030");
}

test("folders follow their records: a project made, renamed and moved, a client renamed, «Revisar drive» repairs", async ({
  page,
}) => {
  test.setTimeout(120_000);
  const suffix = Date.now().toString(36);
  const [nameA, nameB] = [`Carpetas A ${suffix}`, `Carpetas B ${suffix}`];
  await signIn(page, "admin");
  // Two clients, each in a folder of its own (made through the API; the client screens are clients.spec's).
  const [, clientB] = await page.evaluate(
    async (names) => {
      const post = async (url: string, body: unknown) =>
        (
          await fetch(url, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) })
        ).json();
      const made: Array<{ id: number }> = [];
      for (const name of names) {
        const folder = (await post("/api/v1/drive/folders", { folder: { name } })).folder;
        made.push((await post("/api/v1/clients", { client: { name, drive_root_id: folder.id } })).client);
      }
      return made;
    },
    [nameA, nameB],
  );

  // Created: its folder is there at once, in its client's Proyectos, with the 9 numbered folders.
  await page.goto("/app/projects/new");
  const codeInput = page.getByRole("textbox", { name: "Código" });
  await expect(codeInput).toHaveValue(/^PRY-\d+$/);
  const code = await codeInput.inputValue();
  await page.getByRole("textbox", { name: "Nombre", exact: true }).fill("Portal");
  await page.getByRole("combobox", { name: "Cliente" }).fill(nameA);
  await page.getByRole("option", { name: nameA }).click();
  await fillProjectBasics(page);
  await page.getByRole("button", { name: "Guardar" }).click();
  await expect(page.getByText("Elemento guardado")).toBeVisible();
  await expect(page).toHaveURL(/\/app\/projects\/\d+$/);
  const projectUrl = page.url();
  expect(await folderPath(page)).toBe(`${nameA}/Proyectos/${code} Portal`);
  const made = await openFolder(page, `${nameA}/Proyectos/${code} Portal`);
  expect(made.title).toBe(`${code} Portal`);
  expect(made.items).toHaveLength(9);

  // Renamed and moved to the other client through the edit screen: the folder follows.
  await page.getByRole("link", { name: "Editar" }).click();
  await page.getByRole("textbox", { name: "Nombre", exact: true }).fill("Portal nuevo");
  await page.getByRole("combobox", { name: "Cliente" }).fill(nameB);
  await page.getByRole("option", { name: nameB }).click();
  await page.getByRole("button", { name: "Guardar" }).click();
  await expect(page.getByText("Elemento guardado")).toBeVisible();
  await expect(page).toHaveURL(projectUrl);
  expect(await folderPath(page)).toBe(`${nameB}/Proyectos/${code} Portal nuevo`);
  expect((await openFolder(page, `${nameA}/Proyectos`)).items).toEqual([]);

  // The client renamed through its screen: its folder too, and the project's link follows it.
  const renamedB = `Carpetas B renombrada ${suffix}`;
  await page.goto(`/app/clients/show/${clientB.id}`);
  await page.getByRole("link", { name: "Editar" }).click();
  await page.getByRole("textbox", { name: "Nombre", exact: true }).fill(renamedB);
  await page.getByRole("button", { name: "Guardar" }).click();
  await expect(page.getByText("Cliente Actualizado")).toBeVisible();
  await expect(page).toHaveURL(new RegExp(`/app/clients/show/${clientB.id}$`));
  expect(await folderPath(page)).toBe(renamedB);
  await page.goto(projectUrl);
  expect(await folderPath(page)).toBe(`${renamedB}/Proyectos/${code} Portal nuevo`);

  // Someone renames the project's folder in the drive by hand: «Revisar drive» puts it back and says so.
  const drive = path.join(".e2e-data", "drive", renamedB, "Proyectos");
  fs.renameSync(path.join(drive, `${code} Portal nuevo`), path.join(drive, `${code} a mano`));
  await page.getByRole("button", { name: "Revisar drive" }).click();
  await expect(page.getByText(`Drive Actualizado: se renombró «${code} a mano» a «${code} Portal nuevo».`)).toBeVisible();
  expect((await openFolder(page, `${renamedB}/Proyectos/${code} Portal nuevo`)).items).toHaveLength(9);

  // The client's page offers it too: everything is in order now.
  await page.goto(`/app/clients/show/${clientB.id}`);
  await page.getByRole("button", { name: "Revisar drive" }).click();
  await expect(page.getByText("Drive Actualizado: todo estaba en orden.")).toBeVisible();

  // One folder, one record: the form refuses another client's folder, in Spanish, under the picker.
  await page.goto(projectUrl);
  await page.getByRole("link", { name: "Editar" }).click();
  await page.getByRole("button", { name: "Elegir carpeta" }).click();
  const dialog = page.getByRole("dialog", { name: "Elegir carpeta del drive" });
  await dialog.getByRole("button", { name: nameA }).click();
  await expect(dialog.getByRole("navigation", { name: "Ruta" })).toContainText(nameA);
  await dialog.getByRole("button", { name: "Seleccionar esta carpeta" }).click();
  await page.getByRole("button", { name: "Guardar" }).click();
  await expect(page.getByText(`la carpeta ya es la del cliente «${nameA}»`, { exact: true })).toBeVisible();
  await expectNoEnglish(page);
});
