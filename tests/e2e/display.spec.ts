/**
 * What a person reads on screen: every date DD/MM/AAAA and every time 24-hour in Mexico City, a board that
 * explains itself and counts what it shows, counts that agree with their nouns, questions that say whose
 * week, lists in alphabetical order and the start date of a new employee.
 */
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { expect, type Page, test } from "@playwright/test";
import { expectNoEnglish, fillDate, signIn } from "./fixtures";

// Several screens per walk, on a machine shared with other suites: room beyond the default minute.
test.describe.configure({ timeout: 150_000 });

const MONTHS = "enero|febrero|marzo|abril|mayo|junio|julio|agosto|septiembre|octubre|noviembre|diciembre";
const today = () => new Intl.DateTimeFormat("en-CA", { timeZone: "America/Mexico_City" }).format(new Date());

/** The main area's text holds dates only as DD/MM/AAAA and times only on a 24-hour clock. */
async function expectOnlyMexicanDates(page: Page) {
  // biome-ignore lint/performance/useDomNodeTextContent: a Playwright locator; its rendered text keeps table cells apart.
  const text = await page.locator("main").innerText();
  expect(text).not.toMatch(/\b\d{4}-\d{2}-\d{2}\b/);
  expect(text).not.toMatch(/[ap]\.\s?m\./i);
  expect(text).not.toMatch(
    new RegExp(`\\d+ (de )?(${MONTHS}|ene|feb|mar|abr|may|jun|jul|ago|sep|oct|nov|dic)\\.? (de )?\\d{4}`, "i"),
  );
  for (const date of text.match(/\b\d{1,4}\/\d{1,2}\/\d{1,4}\b/g) ?? []) expect(date).toMatch(/^\d{2}\/\d{2}\/\d{4}$/);
  return text;
}

test("lists and records write dates DD/MM/AAAA and times 24-hour", async ({ page }) => {
  await signIn(page, "admin");
  for (const path of ["/app/prospects", "/app/quotations"]) {
    await page.goto(path);
    const row = page.getByRole("row").nth(1);
    await expect(row).toContainText(/\d{2}\/\d{2}\/\d{4} \d{2}:\d{2}/, { timeout: 30_000 });
    await expectOnlyMexicanDates(page);
  }
  for (const path of ["/app/assignments", "/app/app_licenses", "/app/holydays"]) {
    await page.goto(path);
    await expect(page.getByRole("row").nth(1)).toContainText(/\d{2}\/\d{2}\/\d{4}/, { timeout: 30_000 });
    await expectOnlyMexicanDates(page);
  }

  // An invoice's change log writes the date it records the same way.
  const invoice = await page.evaluate(async () => {
    const projects = (await (await fetch("/api/v1/projects?per_page=all")).json()).projects as { id: number; state: string }[];
    for (const p of projects.filter((x) => x.state === "en_ejecucion")) {
      const res = await fetch("/api/v1/invoices", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({
          invoice: { project_id: p.id, percentage_value: 0.5, date_of_invoice: "2026-11-30", audit_comment: "Anticipo" },
        }),
      });
      if (res.ok) return (await res.json()).invoice as { id: number; project_id: number };
    }
    return null;
  });
  expect(invoice).toBeTruthy();
  await page.goto(`/app/projects/${invoice?.project_id}/invoices/${invoice?.id}`);
  const log = page.getByRole("table", { name: "Bitácora de cambios" });
  await expect(log).toContainText("30/11/2026", { timeout: 30_000 });
  await expect(log).not.toContainText("2026-11-30");
  await expectOnlyMexicanDates(page);
});

test("the board explains a refusal in plain words, counts what a person sees, and shows its @ list", async ({ page }) => {
  await signIn(page, "admin");
  // A board with no messages yet (the demo writes none), where the most people can be mentioned: the case
  // where the @ list, taller than the empty board, was cut off at the card's edge.
  const project = await page.evaluate(async () => {
    const all = (await (await fetch("/api/v1/projects?per_page=all")).json()).projects as { id: number }[];
    let best: { id: number; members: number } | null = null;
    for (const p of all) {
      const history = await (await fetch(`/api/v1/projects/${p.id}/messages`)).json();
      if (history.messages.length > 0) continue;
      const members = (await (await fetch(`/api/v1/projects/${p.id}/members`)).json()).members.length as number;
      if (!best || members > best.members) best = { id: p.id, members };
    }
    return best;
  });
  expect(project?.members).toBeGreaterThanOrEqual(3);
  expect(project).toBeTruthy();
  await page.goto(`/app/projects/${project?.id}?tab=board`);
  const board = page.getByTestId("project-board");
  await expect(board.getByText("Aún no hay mensajes en este tablero.")).toBeVisible({ timeout: 30_000 });
  const box = board.getByRole("textbox", { name: "Mensaje" });

  // The @ list opens whole and can be used with the mouse.
  await box.fill("Hola @");
  const mentions = page.getByRole("list", { name: "Usuarios del proyecto" });
  await expect(mentions).toBeVisible();
  expect(await mentions.getByRole("button").count()).toBeGreaterThanOrEqual(2);
  // Every point of the list is the list's own: nothing of it is hidden under the page or cut by the card.
  const whole = await mentions.evaluate((el) => {
    const r = el.getBoundingClientRect();
    const points = [r.top + 2, r.top + r.height / 2, r.bottom - 2].map((y) => document.elementFromPoint(r.left + 10, y));
    return r.top >= 0 && points.every((at) => !!at && el.contains(at));
  });
  expect(whole).toBe(true);
  const option = mentions.getByRole("button").first();
  await option.click();
  await expect(box).toHaveValue(/^Hola @\S+ $/);

  // Mentioning oneself: the reason alone, with no field key.
  await box.fill("Nota para mí @admin");
  await board.getByRole("button", { name: "Enviar" }).click();
  await expect(board.getByText("No puedes mencionarte a ti mismo", { exact: true })).toBeVisible();
  await expect(page.getByText(/Error en los parametros body/)).toHaveCount(0);
  // The text changes: the refusal was about the old text and goes.
  await box.fill("Nota para el equipo");
  await expect(board.getByText("No puedes mencionarte a ti mismo", { exact: true })).toHaveCount(0);

  // Two people outside the project: the verb agrees.
  await box.fill("Hola @noexiste y @tampoco.existe");
  await board.getByRole("button", { name: "Enviar" }).click();
  await expect(
    board.getByText("Solo puedes mencionar a usuarios del proyecto (@noexiste, @tampoco.existe no participan en él)"),
  ).toBeVisible();

  // An emoji is one character of the 500, in the counter and when sending.
  await box.fill("👍🏽👨‍👩‍👧‍👦🇲🇽");
  await expect(board.getByTestId("board-counter")).toHaveText("3/500");
  await box.fill("👍".repeat(500));
  await expect(board.getByTestId("board-counter")).toHaveText("500/500");
  await board.getByRole("button", { name: "Enviar" }).click();
  await expect(board.getByTestId("board-message")).toHaveCount(1);
  // Its time: DD/MM/AAAA HH:mm.
  await expect(board.getByTestId("board-message")).toContainText(/\d{2}\/\d{2}\/\d{4} \d{2}:\d{2}/);
  await expect(board.getByTestId("board-message")).not.toContainText(/[ap]\.\s?m\./);
  await expectNoEnglish(page);
});

test("one holiday imported reads «Se importó 1 día festivo»", async ({ page }) => {
  await signIn(page, "admin");
  await page.goto("/app/holydays");
  await page.getByRole("button", { name: "Importar CSV" }).click();
  const dialog = page.getByRole("dialog", { name: "Importar días festivos" });
  const path = join(mkdtempSync(join(tmpdir(), "sia-display-")), "uno.csv");
  writeFileSync(path, `fecha,nombre\n2033-05-05,Batalla ${Date.now().toString(36)}\n`, "utf8");
  await dialog.getByLabel("Archivo CSV").setInputFiles(path);
  await dialog.getByRole("button", { name: "Importar" }).click();
  await dialog.getByRole("button", { name: "Confirmar importación" }).click();
  await expect(page.getByText("Se importó 1 día festivo", { exact: true })).toBeVisible();
});

test("a new employee starts today unless told otherwise, and the date field is named «Día»", async ({ page }) => {
  await signIn(page, "admin");
  await page.goto("/app/employees/new");
  const start = page.getByRole("group", { name: "Fecha de ingreso", exact: true });
  await expect(start).toBeVisible({ timeout: 30_000 });
  const [y, m, d] = today().split("-");
  await expect(start.getByRole("spinbutton", { name: "Día" })).toHaveText(d);
  await expect(start.getByRole("spinbutton", { name: "Mes" })).toHaveText(m);
  await expect(start.getByRole("spinbutton", { name: "Año" })).toHaveText(y);
  const name = `Ingreso ${Date.now().toString(36)}`;
  await page.getByLabel("Nombre", { exact: true }).fill(name);
  await fillDate(page, "Fecha de ingreso", "2026-02-04");
  await page.getByRole("button", { name: "Guardar" }).click();
  await expect(page.getByText("04/02/2026")).toBeVisible();
  await expect(page.getByText(name).first()).toBeVisible();
});

test("closing someone else's week asks about that person and those days", async ({ page }) => {
  await signIn(page, "admin");
  await expect(page.getByTestId("week-calendar")).toBeVisible();
  await page.getByRole("combobox", { name: "Empleado" }).click();
  await page.getByRole("option", { name: "Jorge Hernández Castillo" }).click();
  await page.locator(".fc-prev-button").click();
  await page.getByRole("button", { name: "Cerrar semana" }).click();
  const dialog = page.getByRole("dialog");
  await expect(dialog).toContainText(
    /¿Deseas cerrar la semana del \d{2}\/\d{2}\/\d{4} al \d{2}\/\d{2}\/\d{4} de Jorge Hernández Castillo\?/,
  );
  await dialog.getByRole("button", { name: "Cancelar" }).click();
  await page.getByRole("button", { name: "Cerrar mes" }).click();
  await expect(page.getByRole("dialog")).toContainText(
    /¿Deseas cerrar el mes de [a-z]+ de \d{4} para Jorge Hernández Castillo\?/,
  );
  await page.getByRole("dialog").getByRole("button", { name: "Cancelar" }).click();
});

test("licences and client groups are in alphabetical order; charts write hours plainly", async ({ page }) => {
  await signIn(page, "admin");
  await page.goto("/app/app_licenses");
  await expect(page.locator("tbody tr td.column-entity_name").first()).toBeVisible();
  const names = await page.locator("tbody tr td.column-entity_name").allInnerTexts();
  expect(names.length).toBeGreaterThan(1);
  const fold = (s: string) =>
    s
      .normalize("NFD")
      .replace(/[\u0300-\u036f]/g, "")
      .toLowerCase();
  expect(names.map(fold)).toEqual([...names.map(fold)].sort());

  await page.getByRole("menuitem", { name: "Grupos de clientes" }).click();
  await expect(page.locator("tbody tr td.column-name").first()).toBeVisible();
  const groups = await page.locator("tbody tr td.column-name").allInnerTexts();
  expect(groups.length).toBeGreaterThan(1);
  expect(groups.map(fold)).toEqual([...groups.map(fold)].sort());

  // No chart axis writes «0.000000»: a new project's hours panel and the team's.
  await page.getByRole("menuitem", { name: "Tablero" }).click();
  await expect(page.getByRole("region", { name: "Equipo" })).toBeVisible();
  await expect(page.locator("main")).not.toContainText(/\d\.\d{4,}/);
});
