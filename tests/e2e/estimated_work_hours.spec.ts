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
  await page.getByRole("spinbutton", { name: "Horas" }).fill("42");
  await page.getByRole("button", { name: "Agregar" }).click();
  const row = panel.getByRole("row").filter({ hasText: position });
  await expect(row).toContainText("42");
  await expectNoEnglish(page);

  // The same position again: the server refuses it, and the toast names the field as the form does
  // («Puesto»), never its column (employee_position_id).
  await page.getByRole("combobox", { name: "Puesto" }).click();
  await page.getByRole("option", { name: position, exact: true }).click();
  await page.getByRole("spinbutton", { name: "Horas" }).fill("5");
  await page.getByRole("button", { name: "Agregar" }).click();
  await expect(page.getByText("Error en los parametros Puesto: ya tiene horas estimadas en este proyecto").first()).toBeVisible();
  await expect(page.getByText(/employee_position_id/)).toHaveCount(0);
});
