import { expect, type Page, test } from "@playwright/test";
import { expectNoEnglish, fillDate, signIn } from "./fixtures";

/** A picker's day section: disabled with the whole field. */
const dayOf = (page: Page, label: string) =>
  page.getByRole("group", { name: label, exact: true }).getByRole("spinbutton", { name: "Día" });

type Client = { id: number; name: string; client_product_catalogs: { product_catalog_name: string }[] };

test("an administrator creates an assignment: only the client's products, then finds it in the list", async ({ page }) => {
  await signIn(page, "admin");
  const clients: Client[] = await page.evaluate(async () => (await (await fetch("/api/v1/clients?per_page=all")).json()).clients);
  const client = clients.find((c) => c.client_product_catalogs.length >= 1)!;
  const products = await page.evaluate(async () => (await (await fetch("/api/v1/products?per_page=all")).json()).products);
  const own = client.client_product_catalogs.map((p) => p.product_catalog_name).sort();

  await page.getByRole("menuitem", { name: "Asignaciones", exact: true }).click();
  await expect(page).toHaveURL(/\/app\/assignments$/);
  await expect(page.getByRole("columnheader", { name: "Duración (días)" })).toBeVisible();
  await expectNoEnglish(page);

  await page.getByRole("link", { name: "Crear" }).click();
  await expect(page).toHaveURL(/\/app\/assignments\/new$/);
  // Only assignable, active employees: an inactive or non-assignable one is not offered.
  await page.getByRole("combobox", { name: "Empleado" }).fill("Miguel Ángel");
  await expect(page.getByRole("option", { name: "Miguel Ángel Gutiérrez Peña" })).toHaveCount(0);
  await page.getByRole("combobox", { name: "Empleado" }).fill("Gabriela");
  await page.getByRole("option", { name: "Gabriela Cruz Mendoza" }).click();

  await page.getByRole("combobox", { name: "Cliente" }).fill(client.name);
  await page.getByRole("option", { name: client.name, exact: true }).click();
  await page.getByRole("combobox", { name: "Producto" }).click();
  const offered = (await page.getByRole("option").allInnerTexts())
    .map((t) => t.trim())
    .filter((t) => t && t !== "Seleccione un producto");
  expect(offered.sort()).toEqual(own);
  expect(products.length).toBeGreaterThan(own.length);
  await page.getByRole("option", { name: own[0], exact: true }).click();

  await fillDate(page, "Fecha de inicio", "2031-03-10");
  await fillDate(page, "Fecha de fin", "2031-03-20");
  await page.getByRole("button", { name: "Guardar" }).click();
  await expect(page.getByText("Elemento guardado")).toBeVisible();
  await expect(page).toHaveURL(/\/app\/assignments\/show\/\d+$/);
  await expect(page.locator("#main-content").getByText("11", { exact: true })).toBeVisible();
  await expectNoEnglish(page);

  await page.getByRole("menuitem", { name: "Asignaciones", exact: true }).click();
  await fillDate(page, "Desde", "2031-03-01");
  await fillDate(page, "Hasta", "2031-03-31");
  const row = page.getByRole("row", { name: /Gabriela Cruz Mendoza/ });
  await expect(row).toHaveCount(1);
  await expect(row).toContainText(client.name);
  await expect(row).toContainText(own[0]);
  await expect(row).toContainText("10/03/2031");
});

test("on edit a start date already reached is locked and left out of the payload", async ({ page }) => {
  await signIn(page, "admin");
  const today = new Intl.DateTimeFormat("en-CA", { timeZone: "America/Mexico_City" }).format(new Date());
  const all = await page.evaluate(async () => (await (await fetch("/api/v1/assignments?per_page=all")).json()).assignments);
  const current = all.find((a: { start_on: string; end_on: string }) => a.start_on <= today && a.end_on > today);
  expect(current).toBeTruthy();

  await page.goto(`/app/assignments/update/${current.id}`);
  await expect(dayOf(page, "Fecha de inicio")).toBeDisabled();
  await expect(dayOf(page, "Fecha de fin")).toBeEnabled();
  await expect(page.getByText("La fecha de inicio ya se alcanzó y no puede cambiarse")).toBeVisible();
  await fillDate(page, "Fecha de fin", "2032-12-31");
  const request = page.waitForRequest((r) => r.method() === "PUT" && r.url().includes(`/api/v1/assignments/${current.id}`));
  await page.getByRole("button", { name: "Guardar" }).click();
  const body = (await request).postDataJSON();
  expect(body.assignment).not.toHaveProperty("start_on");
  expect(body.assignment.end_on).toBe("2032-12-31");
  await expect(page.getByText("Elemento guardado")).toBeVisible();
  await expect(page).toHaveURL(new RegExp(`/app/assignments/show/${current.id}$`));

  // A finished assignment: both dates locked.
  const past = all.find((a: { end_on: string }) => a.end_on < today);
  await page.goto(`/app/assignments/update/${past.id}`);
  await expect(dayOf(page, "Fecha de inicio")).toBeDisabled();
  await expect(dayOf(page, "Fecha de fin")).toBeDisabled();
});
