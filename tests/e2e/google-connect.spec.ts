/**
 * «Conectar Google Calendar» in the week import: when Google answers that the user's token is
 * missing or expired, the import's error offers the button that starts the server's OAuth flow; coming
 * back from it (?google=connected / ?google=error) says how it went. The server runs the local defaults,
 * so Google's answer is played by intercepting the import call (the Google adapter itself is covered by
 * tests/api/calendar-google.test.ts against a local Google server).
 */
import { expect, test } from "@playwright/test";
import { signIn } from "./fixtures";

test("an expired Google token offers «Conectar Google Calendar»; the return from Google is announced", async ({ page }) => {
  // Google as if configured (the screen offers it only then), answering that the token expired.
  await page.route("**/api/v1/calendar_imports/sources", (route) => route.fulfill({ json: { google: true } }));
  await signIn(page, "operator");
  await expect(page.getByTestId("week-calendar")).toBeVisible();
  await page.route("**/api/v1/calendar_imports", (route) =>
    route.fulfill({
      status: 422,
      contentType: "application/json",
      body: JSON.stringify({ errors: { base: ["Google Token caducado"] } }),
    }),
  );
  await page.getByRole("button", { name: "Importar actividades localmente (Google Calendar)" }).click();
  await page.getByRole("dialog").getByRole("button", { name: "Confirmar" }).click();
  const alert = page.getByTestId("import-errors");
  await expect(alert).toContainText("Google Token caducado");
  await expect(page.getByTestId("connect-google")).toHaveText(/Conectar Google Calendar/i);
  await expect(page.getByTestId("connect-google")).toHaveAttribute("href", "/api/v1/google/connect");

  // This server has no Google client configured: the flow answers so in Spanish, with the session cookie.
  const connect = await page.request.get("/api/v1/google/connect", { maxRedirects: 0 });
  expect(connect.status()).toBe(422);
  expect(JSON.stringify(await connect.json())).toContain("No hay un servicio de Google Calendar configurado");

  await page.goto("/app/activities?google=connected");
  await expect(page.getByText("Google Calendar conectado: ya puede importar sus actividades")).toBeVisible();
  await expect(page).toHaveURL(/\/app\/activities$/);
  await page.goto("/app/activities?google=error");
  await expect(page.getByText("No se pudo conectar Google Calendar. Intente de nuevo.")).toBeVisible();
});
