import { expect, test } from "@playwright/test";
import { expectNoEnglish, signIn } from "./fixtures";

test("an administrator creates an employee (code '0' by default), finds it and filters by status", async ({ page }) => {
  const suffix = Date.now().toString(36);
  const name = `Ángela Peña Ruiz ${suffix}`;
  await signIn(page, "admin");
  await page.getByRole("menuitem", { name: "Empleados", exact: true }).click();
  await expect(page).toHaveURL(/\/app\/employees$/);
  await expectNoEnglish(page);

  await page.getByRole("link", { name: "Crear" }).click();
  await expect(page).toHaveURL(/\/app\/employees\/new$/);
  await expect(page.getByRole("textbox", { name: "Número de empleado" })).toHaveValue("0");
  await page.getByRole("textbox", { name: "Nombre", exact: true }).fill(name);
  await page.getByRole("combobox", { name: "Espacio de trabajo" }).click();
  await page.getByRole("option", { name: "Soporte" }).click();
  await page.getByRole("combobox", { name: "Puesto" }).click();
  await page.getByRole("option", { name: "Ingeniero de Soporte" }).click();
  await page.getByLabel("Asignable").check();
  // Part-time: a 4-hour working day (8 by default); 30 is refused by the form in Spanish.
  const daily = page.getByRole("spinbutton", { name: "Horas por día" });
  await expect(daily).toHaveValue("8");
  await daily.fill("30");
  await page.getByRole("button", { name: "Guardar" }).click();
  await expect(page.getByText("debe estar entre 0 y 24 horas")).toBeVisible();
  await daily.fill("4");
  await page.getByRole("button", { name: "Guardar" }).click();
  await expect(page.getByText("Elemento guardado")).toBeVisible();
  await expect(page).toHaveURL(/\/app\/employees\/\d+$/);
  await expect(page.locator("#main-content").getByText("Horas por día")).toBeVisible();
  await expect(page.locator("#main-content").getByText(name)).toBeVisible();
  await expect(page.locator("#main-content").getByText("Soporte", { exact: true })).toBeVisible();
  await expect(page.getByText("Sin asignaciones")).toBeVisible();
  await expectNoEnglish(page);

  await page.getByRole("menuitem", { name: "Empleados", exact: true }).click();
  await page.getByPlaceholder("Buscar por nombre o número").fill(`angela pena ruiz ${suffix}`);
  await expect(page.getByRole("cell", { name })).toBeVisible();
  await expect(page.getByText("1–1 de 1")).toBeVisible();

  // Status filter: the new (active) employee is not among the inactive ones.
  await page.getByRole("combobox", { name: "Estado" }).click();
  await page.getByRole("option", { name: "Inactivos" }).click();
  await expect(page.getByText("No se encontraron Empleados con los filtros actuales.")).toBeVisible();
  await page.getByPlaceholder("Buscar por nombre o número").fill("");
  await expect(page.getByRole("cell", { name: "Miguel Ángel Gutiérrez Peña" })).toBeVisible();
  await expect(page.getByRole("cell", { name: "Gabriela Cruz Mendoza" })).toHaveCount(0);
});

test("an employee's view lists their assignments", async ({ page }) => {
  await signIn(page, "admin");
  const employee = await page.evaluate(
    async () => (await (await fetch("/api/v1/employees?search=Gabriela%20Cruz&per_page=1")).json()).employees[0],
  );
  await page.goto(`/app/employees/${employee.id}`);
  await expect(page.locator("#main-content").getByText("Gabriela Cruz Mendoza")).toBeVisible();
  await expect(page.getByRole("columnheader", { name: "Duración (días)" })).toBeVisible();
  await expect(page.locator("#main-content tbody tr").first()).toBeVisible();
});

test("an Operador lists employees without a workspace filter it could not fill", async ({ page }) => {
  const refused: string[] = [];
  page.on("response", (response) => {
    if (response.status() === 403) refused.push(response.url());
  });
  await signIn(page, "operator");
  await page.goto("/app/employees");
  await expect(page.getByRole("combobox", { name: "Estado" })).toBeVisible();
  await expect(page.locator("tbody tr").first()).toBeVisible();
  await expect(page.getByRole("combobox", { name: "Espacio de trabajo" })).toHaveCount(0);
  expect(refused).toEqual([]);
});
