import { expect, test } from "@playwright/test";
import { expectNoEnglish, signIn } from "./fixtures";

test("an administrator adds estimated hours by position on a project and sees them in its list", async ({ page }) => {
  await signIn(page, "admin");
  const { projectId, position } = await page.evaluate(async () => {
    const project = (await (await fetch("/api/v1/projects?per_page=1")).json()).projects[0];
    const used = (
      await (await fetch(`/api/v1/estimated_work_hours?per_page=all&project_id=${project.id}`)).json()
    ).estimated_work_hours.map((r: { employee_position_id: number }) => r.employee_position_id);
    const positions = (await (await fetch("/api/v1/employee_positions?per_page=all")).json()).employee_positions;
    const free = positions.find((p: { id: number }) => !used.includes(p.id));
    return { projectId: project.id as number, position: free.name as string };
  });
  await page.goto(`/app/projects/${projectId}`);
  const panel = page.getByRole("table", { name: "Horas estimadas" });
  await expect(panel).toBeVisible();

  await page.getByRole("button", { name: "Agregar" }).click();
  await expect(page.getByText("Rellene todos los campos")).toBeVisible();

  await page.getByRole("combobox", { name: "Puesto" }).click();
  await page.getByRole("option", { name: position, exact: true }).click();
  // A negative number, typed with the typographic minus or the hyphen: refused in its own words, and the
  // earlier message is gone (it no longer describes what is on screen).
  const hoursBox = page.getByLabel("Horas", { exact: true });
  for (const negative of ["−5", "-5"]) {
    await hoursBox.fill(negative);
    await expect(page.getByText("Rellene todos los campos")).toHaveCount(0);
    await page.getByRole("button", { name: "Agregar" }).click();
    await expect(page.getByText("debe ser mayor a cero")).toBeVisible();
    await expect(page.getByText("Rellene todos los campos")).toHaveCount(0);
  }
  await expect(panel.getByRole("row").filter({ hasText: position })).toHaveCount(0);

  // «Horas estimadas vs. registradas» follows the new estimate without a reload.
  const totals = page.getByTestId("project-hours-panel");
  await expect(totals).toBeVisible();
  const estimatedBefore = await page.evaluate(async (id) => {
    const rows = (await (await fetch(`/api/v1/estimated_work_hours?per_page=all&project_id=${id}`)).json())
      .estimated_work_hours as { estimated_hours: number }[];
    return rows.reduce((sum, r) => sum + Number(r.estimated_hours), 0);
  }, projectId);
  const estimatedText = (n: number) => `${n.toLocaleString("es-MX", { maximumFractionDigits: 2 })} h estimadas`;
  await expect(totals).not.toContainText(estimatedText(estimatedBefore + 42));

  await hoursBox.fill("42");
  await page.getByRole("button", { name: "Agregar" }).click();
  const row = panel.getByRole("row").filter({ hasText: position });
  await expect(row).toContainText("42");
  await expect(page.getByText("debe ser mayor a cero")).toHaveCount(0);
  await expect(totals).toContainText(estimatedText(estimatedBefore + 42));
  await expectNoEnglish(page);

  // The same position again: the server refuses it, and the toast names the field as the form does
  // («Puesto»), never its column (employee_position_id).
  await page.getByRole("combobox", { name: "Puesto" }).click();
  await page.getByRole("option", { name: position, exact: true }).click();
  await page.getByLabel("Horas", { exact: true }).fill("5");
  await page.getByRole("button", { name: "Agregar" }).click();
  await expect(page.getByText("Error en los parametros Puesto: ya tiene horas estimadas en este proyecto").first()).toBeVisible();
  await expect(page.getByText(/employee_position_id/)).toHaveCount(0);
});
