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

test("the timesheet's address preloads its page's chunks; an admin address does not", async ({ request }) => {
  const preloads = async (address: string) =>
    [...(await (await request.get(address)).text()).matchAll(/rel="modulepreload"[^>]*href="([^"]+)"/g)].map((m) => m[1]);
  const timesheet = await preloads("/app/activities");
  const admin = await preloads("/app/clients");
  expect(timesheet.some((href) => /\/assets\/ActivitiesPage-[^/]+\.js$/.test(href))).toBe(true);
  expect(admin.some((href) => href.includes("ActivitiesPage"))).toBe(false);
  // The same shell: the timesheet's page only adds to what every address preloads.
  expect(admin.every((href) => timesheet.includes(href))).toBe(true);
  for (const href of timesheet) expect((await request.get(href)).status()).toBe(200);
});

test("the app's scripts go out precompressed as the browser accepts, cached for good", async ({ request }) => {
  const html = await (await request.get("/app/activities")).text();
  const script = html.match(/\/assets\/[^"']+\.js/)?.[0];
  expect(script).toBeTruthy();
  const plain = await request.get(script as string, { headers: { "accept-encoding": "identity" } });
  const size = (await plain.body()).length;
  expect(plain.headers()["content-encoding"]).toBeUndefined();
  for (const [accepted, sent] of [
    ["br, gzip", "br"],
    ["gzip", "gzip"],
  ]) {
    const res = await fetch(new URL(script as string, plain.url()), { headers: { "accept-encoding": accepted } });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-encoding")).toBe(sent);
    expect(res.headers.get("content-type")).toMatch(/javascript/);
    expect(res.headers.get("vary")).toMatch(/accept-encoding/i);
    expect(res.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
    // What travels is a fraction of the script (Node's fetch unpacks it: the length says what was sent).
    expect(Number(res.headers.get("content-length"))).toBeLessThan(size / 2);
    await res.arrayBuffer();
  }
});
