/**
 * Drive folders are shown as people read them (`CV_Transportes Ñandú`), not URL-encoded
 * (`CV_Transportes%20%C3%91and%C3%BA`), wherever a folder appears; the link itself still opens the folder.
 */
import { expect, type Locator, test } from "@playwright/test";
import { expectNoEnglish, pickNewFolder, signIn } from "./fixtures";

async function expectReadable(link: Locator, name: string) {
  await expect(link).toContainText(name);
  await expect(link).not.toContainText("%");
  const href = (await link.getAttribute("href")) as string;
  expect(href).toContain(encodeURIComponent(name.split(" ")[1]));
  return href;
}

test("a prospect's folder reads decoded on its page, in the list and in the picker, and opens", async ({ page }) => {
  const suffix = Date.now().toString(36);
  const name = `Transportes Ñandú ${suffix}`;
  await signIn(page, "admin");
  await page.goto("/app/prospects/new");
  await page.getByLabel("Nombre", { exact: true }).fill(name);
  await page.getByRole("button", { name: "Guardar" }).click();
  await expect(page).toHaveURL(/\/app\/prospects\/\d+$/);
  const id = page.url().split("/").pop();
  const main = page.locator("#main-content");

  const href = await expectReadable(main.getByTestId("drive-folder-link"), name);
  const opened = await page.request.get(href);
  expect(opened.status()).toBe(200);

  await page.getByRole("menuitem", { name: "Prospectos", exact: true }).click();
  await page.getByPlaceholder("Buscar por nombre").fill(name);
  await expect(page.getByRole("cell", { name, exact: true })).toBeVisible();
  await expectReadable(page.getByRole("row").filter({ hasText: name }).getByTestId("drive-folder-link"), name);
  await expectNoEnglish(page);

  await page.goto(`/app/prospects/update/${id}`);
  const folder = `Carpeta Ñoño é ${suffix}`;
  await pickNewFolder(page, folder);
  await expectReadable(page.getByTestId("drive-folder-url"), folder);
});
