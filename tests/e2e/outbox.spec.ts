import { expect, test } from "@playwright/test";
import { expectNoEnglish, signIn } from "./fixtures";

test("an administrator runs the weekly reminder by hand and reads the messages in the outbox", async ({ page }) => {
  await signIn(page, "admin");
  await page.getByRole("menuitem", { name: "Correo y tareas" }).click();
  await expect(page).toHaveURL(/\/app\/outbox$/);
  const reminderRow = page.getByTestId("job-weekly_reminder");
  await expect(reminderRow).toContainText("Recordatorio semanal de horas");
  await expect(page.getByTestId("job-weekly_report")).toContainText("Reporte semanal por espacio de trabajo");

  if (test.info().retry === 0) {
    await expect(reminderRow).toContainText("Nunca");
    await reminderRow.getByRole("button", { name: /^Ejecutar ahora/ }).click();
  } else {
    // A retry finds last attempt's run: force it.
    await reminderRow.getByRole("button", { name: /^Forzar/ }).click();
    await page.getByRole("button", { name: "Confirmar" }).click();
  }
  await expect(page.getByText(/Recordatorio semanal de horas: se envi(ó 1 recordatorio|aron \d+ recordatorios)/)).toBeVisible();
  await expect(reminderRow).toContainText("(a mano)");

  const messages = page.getByRole("table", { name: "Buzón de salida" });
  const reminders = messages.getByRole("row").filter({ hasText: "SIA: completa tu semana" });
  await expect(reminders.first()).toBeVisible();
  // Only who is short hears from it: the two demo people who left hours unlogged last week, and the
  // administrator, boss of Desarrollo, gets the digest of their team. Other files of this suite add
  // people (some without an account, in other workspaces), so the totals are not counted here.
  await expect(reminderRow).toContainText(/se enviaron \d+ recordatorios y \d+ resúmenes a jefes/);
  for (const short of ["hector.reyes@sia.local", "luis.martinez@sia.local"]) {
    await expect(reminders.filter({ hasText: short })).toHaveCount(1);
  }
  // Complete demo people with an account hear nothing.
  for (const complete of ["operador@sia.local", "finanzas@sia.local"]) {
    await expect(reminders.filter({ hasText: complete })).toHaveCount(0);
  }
  const digest = messages
    .getByRole("row")
    .filter({ hasText: "SIA: horas faltantes de tu equipo" })
    .filter({ hasText: "admin@sia.local" });
  await expect(digest).toHaveCount(1);
  await expect(reminders.filter({ hasText: "admin@sia.local" })).toHaveCount(0);
  await expectNoEnglish(page);

  await reminders
    .first()
    .getByRole("button", { name: /SIA: completa tu semana/ })
    .click();
  const dialog = page.getByRole("dialog");
  await expect(dialog).toContainText(
    /En la semana del \d{2}\/\d{2}\/\d{4} al \d{2}\/\d{2}\/\d{4} registraste .+ esperadas: faltan /,
  );
  await expect(dialog).toContainText(/Completa esa semana aquí: http:\/\/.+\/app\/activities\?semana=\d{4}-\d{2}-\d{2}/);
  await expect(dialog.getByTestId("outbox-message-text")).toContainText("Este es un mensaje automático de SIA.");
  const download = dialog.getByRole("link", { name: "Descargar .eml" });
  await expect(download).toHaveAttribute("href", /^\/api\/v1\/outbox\/[0-9TZ]+-[0-9a-f]+\/eml$/);
  const eml = await page.request.get((await download.getAttribute("href")) as string);
  expect(eml.headers()["content-type"]).toContain("message/rfc822");
  expect(await eml.text()).toContain("Subject: SIA: completa tu semana");
  await dialog.getByRole("button", { name: "Cerrar" }).click();
  await expect(dialog).toHaveCount(0);

  // The same week again: nothing is sent twice.
  const before = await reminders.count();
  await reminderRow.getByRole("button", { name: /^Ejecutar ahora/ }).click();
  await expect(page.getByText(/ya se ejecutó para el periodo \d{4}-W\d{2}; no se envió nada de nuevo/)).toBeVisible();
  await expect(reminders).toHaveCount(before);
});

test("an Operador has no outbox entry and is refused at its URL", async ({ page }) => {
  await signIn(page, "operator");
  await expect(page.getByRole("menuitem").first()).toBeVisible();
  await expect(page.getByRole("menuitem", { name: "Correo y tareas" })).toHaveCount(0);
  await page.goto("/app/outbox");
  // As on the resources' screens: react-admin's «Acceso denegado» page.
  await expect(page).toHaveURL(/\/app\/access-denied$/);
  await expect(page.getByText("No tiene los permisos necesarios para acceder a esta página")).toBeVisible();
  await expect(page.getByText("Tareas programadas")).toHaveCount(0);
});

test("an administrator backs up now and downloads the archive from «Correo y tareas»", async ({ page }) => {
  await signIn(page, "admin");
  await page.getByRole("menuitem", { name: "Correo y tareas" }).click();
  await page.getByRole("button", { name: "Respaldar ahora" }).click();
  await expect(page.getByText(/^Respaldo escrito: sia-[0-9T-]+-manual\.tar\.gz$/)).toBeVisible({ timeout: 60_000 });
  const list = page.getByRole("table", { name: "Respaldos" });
  const download = list.getByRole("link", { name: "Descargar" }).first();
  await expect(download).toHaveAttribute("href", /^\/api\/v1\/backups\/sia-[0-9T-]+-manual\.tar\.gz$/);
  const archive = await page.request.get((await download.getAttribute("href")) as string);
  expect(archive.headers()["content-type"]).toContain("application/gzip");
  expect((await archive.body()).subarray(0, 2)).toEqual(Buffer.from([0x1f, 0x8b]));
  await expect(page.getByTestId("job-nightly_backup")).toContainText("(a mano)");
  await expectNoEnglish(page);
});
