import { expect, test } from "@playwright/test";
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
  await page.getByRole("combobox", { name: "Tipo de proyecto" }).click();
  await page.getByRole("option").first().click();
  await page.getByRole("combobox", { name: "Producto" }).click();
  await page.getByRole("option").first().click();
  const date = page.getByRole("group", { name: /Fecha del proyecto/ });
  // (MUI X's Spanish locale names the day section "Dia".)
  await date.getByRole("spinbutton", { name: "Dia" }).click();
  await page.keyboard.type("15032030");
  await expect(date.getByRole("spinbutton", { name: "Dia" })).toHaveText("15");
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
  await editDate.getByRole("spinbutton", { name: "Dia" }).click();
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
