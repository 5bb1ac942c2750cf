import { expect, test } from "@playwright/test";
import { expectNoEnglish, signIn } from "./fixtures";

/** an administrator sends a notice from «Avisos»; it shows in another user's bell. */
test("an administrator sends a notice to everyone and an operator finds it in the bell", async ({ page, browser }) => {
  await signIn(page, "admin");
  await page.getByRole("menuitem", { name: "Avisos", exact: true }).click();
  await expect(page).toHaveURL(/\/app\/notices$/);
  const text = `Aviso de prueba ${Date.now()}`;
  await page.getByLabel("Aviso").fill(text);
  await expect(page.getByText(`${text.length}/1000`)).toBeVisible();
  await page.getByRole("button", { name: "Enviar aviso" }).click();
  await expect(page.getByText(/^Aviso enviado a \d+ usuarios$/)).toBeVisible();
  await expectNoEnglish(page);

  const context = await browser.newContext();
  const operator = await context.newPage();
  await signIn(operator, "operator");
  await expect(operator.getByTestId("bell-count")).toBeVisible();
  await operator.getByTestId("bell").click();
  const item = operator.getByRole("menuitem").filter({ hasText: text });
  await expect(item).toBeVisible();
  await expect(operator.getByRole("menuitem", { name: "Activar notificaciones" })).toBeVisible();
  await item.click();
  // Seen: it no longer counts.
  await operator.getByTestId("bell").click();
  await expect(operator.getByRole("menuitem").filter({ hasText: text })).toHaveCSS("font-weight", "400");
  await context.close();
});
