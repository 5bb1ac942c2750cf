/**
 * Messages shown to a person name fields in Spanish and write dates DD/MM/AAAA: an ETA extension refused
 * by the server says the current ETA as 15/01/2027, never (2027-01-15).
 */
import { expect, test } from "@playwright/test";
import { fillDate, signIn } from "./fixtures";

test("a refused ETA extension tells the current ETA as DD/MM/AAAA", async ({ page }) => {
  await signIn(page, "admin");
  const project = await page.evaluate(async () => {
    const all = (await (await fetch("/api/v1/projects?per_page=all")).json()).projects as {
      id: number;
      eta: string | null;
      state: string;
    }[];
    return all.find((p) => p.eta && !["terminado", "cancelado", "no_autorizado"].includes(p.state));
  });
  expect(project?.eta).toBeTruthy();
  const eta = String(project?.eta).slice(0, 10);
  const [year, month, day] = eta.split("-");
  await page.goto(`/app/projects/${project?.id}`);
  await page.getByRole("button", { name: "Extender fecha estimada" }).click();
  const dialog = page.getByRole("dialog", { name: "Extender fecha estimada de entrega" });
  // The same ETA again: not later than the current one.
  await fillDate(page, "Nueva fecha estimada de entrega", eta);
  await dialog.getByRole("textbox", { name: "Comentario" }).fill("Se mueve la entrega");
  await dialog.getByRole("button", { name: /Guardar|Confirmar|Extender/ }).click();
  await expect(dialog.getByText(`debe ser posterior a la fecha estimada actual (${day}/${month}/${year})`).first()).toBeVisible();
  await expect(page.getByText(eta)).toHaveCount(0);
  await expect(page.getByText("Error en los parametros Fecha estimada de entrega").first()).toBeVisible();
});
