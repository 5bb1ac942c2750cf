/**
 * bench/week-entry: what a scripted person needs to log a 40-hour week (five projects, Monday to Friday)
 * in the weekly grid with the keyboard, against the same week entered with the mouse in the calendar
 * (a drag per activity, then the form's pickers). Counts clicks, drags and keystrokes and times each.
 *
 *   npx tsx bench/week-entry.ts            (BENCH_PORT, default 3651; CHROMIUM_PATH, default /usr/bin/chromium)
 *
 * Starts the real server (`node scripts/start.mjs`, building what is out of date) on a fresh embedded
 * database, signs in as the demo administrator and prints a Markdown table (recorded in bench/NOTES.md).
 * The scripted person does not hesitate: the seconds are the app's floor, the actions are what a person
 * would do.
 */
import { type ChildProcess, spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { chromium, type Page } from "@playwright/test";
import { addDays, businessToday, mondayOf, zonedTime } from "../src/core/week";

const ROOT = path.resolve(import.meta.dirname, "..");
const PORT = Number(process.env.BENCH_PORT ?? 3651);
const BASE = `http://127.0.0.1:${PORT}`;
const DATA_DIR = path.join(ROOT, ".bench-week-entry");

interface Count {
  clicks: number;
  drags: number;
  keystrokes: number;
  seconds: number;
}

async function startServer(): Promise<ChildProcess> {
  fs.rmSync(DATA_DIR, { recursive: true, force: true });
  const server = spawn("node", ["scripts/start.mjs"], {
    cwd: ROOT,
    env: { ...process.env, DATA_DIR, JOBS_ENABLED: "0", PORT: String(PORT), LOG_LEVEL: "warn" },
    stdio: "inherit",
  });
  for (let i = 0; i < 600; i++) {
    try {
      if ((await fetch(`${BASE}/healthz`)).ok) return server;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 500));
  }
  throw new Error("server did not start");
}

async function api(page: Page, method: string, url: string, body?: unknown) {
  return page.evaluate(
    async ({ method, url, body }) => {
      const res = await fetch(`/api/v1/${url}`, {
        method,
        headers: { "content-type": "application/json" },
        body: body ? JSON.stringify(body) : undefined,
      });
      return { status: res.status, json: await res.json().catch(() => null) };
    },
    { method, url, body },
  );
}

/** Five projects with one activity each in the week before `monday` (what makes them the grid's rows). */
async function fiveProjects(page: Page, monday: string, tag: string) {
  const first = async (p: string, key: string) => (await api(page, "GET", `${p}?per_page=1`)).json[key][0].id;
  const [client, type, product] = [
    await first("clients", "clients"),
    await first("project_types", "project_types"),
    await first("products", "products"),
  ];
  const projects: { id: number; project_code: string }[] = [];
  for (let i = 1; i <= 5; i++) {
    const r = await api(page, "POST", "projects", {
      project: {
        name: `Banco ${tag} ${i}`,
        client_id: client,
        project_type_catalog_id: type,
        product_catalog_id: product,
        project_date: "2030-01-15",
      },
    });
    const project = r.json.project;
    projects.push(project);
    const day = addDays(monday, -7);
    const made = await api(page, "POST", "activities", {
      activity: {
        action_type: "project",
        project_id: project.id,
        activity_type_catalog_id: 3,
        description: `Previo ${i}`,
        begins_at: zonedTime(day, (8 + i) * 60).toISOString(),
        ends_at: zonedTime(day, (9 + i) * 60).toISOString(),
      },
    });
    if (made.status !== 201) throw new Error(`activity: ${made.status} ${JSON.stringify(made.json)}`);
  }
  return projects;
}

async function weekHours(page: Page, monday: string) {
  const r = await api(
    page,
    "GET",
    `activities?by_begins_at[start_date]=${monday}&by_begins_at[end_date]=${addDays(monday, 6)}&per_page=all`,
  );
  const rows = r.json.activities as { begins_at: string; ends_at: string }[];
  return rows.reduce((s, a) => s + (Date.parse(a.ends_at) - Date.parse(a.begins_at)) / 3_600_000, 0);
}

/** The grid: Tab into it, type each project's hours for each weekday, Enter. */
async function gridWeek(page: Page, monday: string): Promise<Count> {
  const count: Count = { clicks: 0, drags: 0, keystrokes: 0, seconds: 0 };
  const press = async (key: string) => {
    count.keystrokes++;
    await page.keyboard.press(key);
  };
  const type = async (text: string) => {
    count.keystrokes += text.length;
    await page.keyboard.type(text);
  };
  await page.goto(`${BASE}/app/activities/grid?semana=${monday}`);
  await page
    .getByRole("rowheader", { name: /Banco G/ })
    .nth(4)
    .waitFor();
  const started = Date.now();
  const first = page.locator('[data-cell="0-0"]');
  while (!(await first.evaluate((el) => el === document.activeElement))) await press("Tab");
  const perRow = ["2", "1,5", "1:30", "2", "1"];
  for (const [row, value] of perRow.entries()) {
    for (let day = 0; day < 5; day++) {
      await type(value);
      await press("Tab");
    }
    if (row < perRow.length - 1) for (const _ of [6, 7]) await press("Tab");
  }
  await press("Enter");
  await page.getByText("Las horas de la semana se guardaron").waitFor();
  count.seconds = (Date.now() - started) / 1000;
  return count;
}

/** The calendar with the mouse: per day two 4-hour activities, each a drag then the form. */
async function calendarWeek(page: Page, monday: string, projects: { project_code: string }[]): Promise<Count> {
  const count: Count = { clicks: 0, drags: 0, keystrokes: 0, seconds: 0 };
  const click = async (locator: ReturnType<Page["locator"]>) => {
    count.clicks++;
    await locator.click();
  };
  const type = async (text: string) => {
    count.keystrokes += text.length;
    await page.keyboard.type(text);
  };
  await page.goto(`${BASE}/app/activities`);
  await page.getByTestId("week-calendar").waitFor();
  const started = Date.now();
  // «Ir a fecha»: a click on its day, then the date's digits.
  await click(page.getByRole("group", { name: "Ir a fecha", exact: true }).getByRole("spinbutton", { name: "Día" }));
  const target = addDays(monday, 2);
  await type(`${target.slice(8, 10)}${target.slice(5, 7)}${target.slice(0, 4)}`);
  await page.locator(`.fc-timegrid-col[data-date="${monday}"]`).waitFor();
  let n = 0;
  for (let d = 0; d < 5; d++) {
    const day = addDays(monday, d);
    for (const [from, to] of [
      ["09:00", "12:45"],
      ["13:00", "16:45"],
    ]) {
      const project = projects[n++ % projects.length];
      // Scrolling the calendar so the span is in view is the wheel, not counted.
      await page.evaluate((t) => {
        const lane = document.querySelector<HTMLElement>(`.fc-timegrid-slot-lane[data-time="${t}:00"]`);
        const scroller = lane?.closest<HTMLElement>(".fc-scroller");
        if (lane && scroller) scroller.scrollTop += lane.getBoundingClientRect().top - scroller.getBoundingClientRect().top - 10;
      }, from);
      const point = async (time: string) => {
        const col = await page.locator(`.fc-timegrid-col[data-date="${day}"]`).boundingBox();
        const lane = await page.locator(`.fc-timegrid-slot-lane[data-time="${time}:00"]`).boundingBox();
        if (!col || !lane) throw new Error(`no slot ${day} ${time}`);
        return { x: col.x + col.width / 2, y: lane.y + 3 };
      };
      const a = await point(from);
      const b = await point(to);
      count.drags++;
      await page.mouse.move(a.x, a.y);
      await page.mouse.down();
      await page.mouse.move(a.x + 4, a.y + 4, { steps: 3 });
      await page.mouse.move(b.x, b.y, { steps: 12 });
      await page.mouse.move(b.x, b.y + 1, { steps: 2 });
      await page.mouse.up();
      const modal = page.getByTestId("activity-modal");
      await modal.getByText("Nueva actividad").waitFor();
      await click(modal.getByTestId("project-picker").getByRole("combobox"));
      await type(project.project_code);
      await click(page.getByRole("option", { name: new RegExp(project.project_code) }).first());
      await click(modal.getByRole("combobox", { name: /^Tipo de actividad/ }));
      await click(page.getByRole("listbox").getByRole("option").first());
      await click(modal.getByLabel("Descripción"));
      await type(`Trabajo del proyecto ${project.project_code}`);
      await click(modal.getByRole("button", { name: "Guardar" }));
      await modal.waitFor({ state: "hidden" });
    }
  }
  count.seconds = (Date.now() - started) / 1000;
  return count;
}

async function main() {
  const server = await startServer();
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
    args: ["--no-sandbox"],
  });
  try {
    const context = await browser.newContext({
      viewport: { width: 1400, height: 1300 },
      locale: "es-MX",
      timezoneId: "America/Mexico_City",
    });
    const page = await context.newPage();
    await page.goto(`${BASE}/sign_in`);
    await page.getByLabel("Correo electrónico").fill("admin@sia.local");
    await page.getByLabel("Contraseña").fill(process.env.SIA_DEMO_PASSWORD ?? "sia-demo");
    await page.getByRole("button", { name: "Entrar" }).click();
    await page.waitForURL(/\/app\/activities$/);
    const settings = await api(page, "GET", "app_settings/1");
    await api(page, "PUT", "app_settings/1", {
      app_setting: { allow_future_activities: true, lock_version: settings.json.app_setting.lock_version },
    });
    const thisMonday = mondayOf(businessToday());
    const gridMonday = addDays(thisMonday, 7 * 60);
    const calendarMonday = addDays(thisMonday, 7 * 62);
    await fiveProjects(page, gridMonday, "G");
    const calendarProjects = await fiveProjects(page, calendarMonday, "C");
    const grid = await gridWeek(page, gridMonday);
    const calendar = await calendarWeek(page, calendarMonday, calendarProjects);
    const [gh, ch] = [await weekHours(page, gridMonday), await weekHours(page, calendarMonday)];
    const actions = (c: Count) => c.clicks + c.drags + c.keystrokes;
    console.log("\n| way | hours saved | clicks | drags | keystrokes | actions | seconds |");
    console.log("| --- | ---: | ---: | ---: | ---: | ---: | ---: |");
    console.log(
      `| grid, keyboard | ${gh} | ${grid.clicks} | ${grid.drags} | ${grid.keystrokes} | ${actions(grid)} | ${grid.seconds.toFixed(1)} |`,
    );
    console.log(
      `| calendar, mouse | ${ch} | ${calendar.clicks} | ${calendar.drags} | ${calendar.keystrokes} | ${actions(calendar)} | ${calendar.seconds.toFixed(1)} |`,
    );
  } finally {
    await browser.close();
    server.kill("SIGTERM");
  }
}

await main();
