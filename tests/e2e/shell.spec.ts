import { expect, test } from "@playwright/test";
import { DEMO_PASSWORD, expectNoEnglish, signIn } from "./fixtures";

test("a user without an employee record is told to contact RH", async ({ page, browser }) => {
  await signIn(page, "admin");
  const email = `sin.empleado.${Date.now()}@sia.local`;
  const created = await page.evaluate(
    async ({ email, password }) => {
      const res = await fetch("/api/v1/users", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({
          user: { name: "Sin Empleado", email, password, password_confirmation: password, operator_role: true },
        }),
      });
      return res.status;
    },
    { email, password: DEMO_PASSWORD },
  );
  expect(created).toBe(201);

  const other = await browser.newPage();
  await other.goto("/sign_in");
  await other.getByLabel("Correo electrónico").fill(email);
  await other.getByLabel("Contraseña").fill(DEMO_PASSWORD);
  await other.getByRole("button", { name: "Entrar" }).click();
  await expect(other).toHaveURL(/\/app\/activities$/);
  await expect(other.getByTestId("no-employee")).toHaveText(
    "Favor de ponerse en contacto con RH para que lo den de alta como empleado",
  );
  await expectNoEnglish(other);
  await other.close();
});
