import { expect, type Page, test } from "@playwright/test";
import { formatHours } from "../../src/timesheet/model/totals";
import { audit } from "./axe";
import { expectNoEnglish, signIn } from "./fixtures";

/** Bars the chart drew with some height (a zero value draws an empty bar). */
const BARS = '.MuiBarElement-root:not([height="0"]):not([width="0"])';

/** Every JavaScript file the page loads, to see when the chart library (the chartKit chunk) arrives. */
function scriptsOf(page: Page) {
  const urls: string[] = [];
  page.on("request", (request) => {
    if (/\/assets\/.+\.js$/.test(new URL(request.url()).pathname)) urls.push(request.url());
  });
  return { charts: () => urls.filter((u) => /\/assets\/(chartKit|DashboardPage|ProjectHoursPanel|ClientSupportPanel)-/.test(u)) };
}

/** The API's answer for a path, with the page's session. */
async function api<T>(page: Page, path: string): Promise<T> {
  const response = await page.request.get(path);
  expect(response.ok(), `${path}: ${response.status()}`).toBe(true);
  return (await response.json()) as T;
}

test("an operador opens the Tablero and sees this week's hours in a chart, the same total as the calendar", async ({ page }) => {
  const scripts = scriptsOf(page);
  await signIn(page, "operator");
  // The timesheet's total of the week, as the calendar shows it.
  await expect(page.getByTestId("week-total")).not.toHaveText("Total de la semana: 0 h");
  const calendarTotal = (await page.getByTestId("week-total").textContent()) ?? "";
  expect(calendarTotal).toMatch(/^Total de la semana: .+ h$/);
  // The timesheet does not load the charts.
  expect(scripts.charts()).toEqual([]);

  await page.getByRole("menuitem", { name: "Tablero" }).click();
  await expect(page).toHaveURL(/\/app\/dashboard$/);
  const week = page.getByRole("region", { name: "Mi semana" });
  await expect(week).toBeVisible();
  expect(scripts.charts().some((u) => u.includes("/assets/chartKit-"))).toBe(true);
  const { dashboard } = await api<{
    dashboard: { total_hours: number; expected_hours: number; by_type: { action_type: string }[] };
  }>(page, "/api/v1/dashboards/employee");
  expect(dashboard.total_hours).toBeGreaterThan(0);
  await expect(week.getByTestId("dashboard-week-total")).toHaveText(`Total de la semana: ${formatHours(dashboard.total_hours)}`);
  await expect(week.getByTestId("dashboard-week-total")).toHaveText(calendarTotal);
  await expect(week.getByTestId("dashboard-week-expected")).toHaveText(`Esperadas: ${formatHours(dashboard.expected_hours)}`);
  await expect(week.getByTestId("dashboard-week-by-day").locator(BARS).first()).toBeVisible();
  // One chip per type logged this week (which types depends on the day: a Monday morning may hold one).
  expect(dashboard.by_type.length).toBeGreaterThan(0);
  await expect(week.getByTestId("dashboard-week-by-type").getByText(/^[^:]+: .+ h$/)).toHaveCount(dashboard.by_type.length);
  // An operador has no team section, and the server refuses it too.
  await expect(page.getByRole("region", { name: "Equipo" })).toHaveCount(0);
  expect((await page.request.get("/api/v1/dashboards/team")).status()).toBe(403);
  await expectNoEnglish(page);

  // The previous week, then back.
  await week.getByRole("button", { name: "Semana anterior" }).click();
  await expect(week.getByRole("button", { name: "Esta semana" })).toBeEnabled();
  await week.getByRole("button", { name: "Esta semana" }).click();
  await expect(week.getByTestId("dashboard-week-total")).toHaveText(calendarTotal);
});

test("an administrator sees the team: hours per workspace and the weeks not closed", async ({ page }) => {
  const scripts = scriptsOf(page);
  await signIn(page, "admin");
  // An ordinary list does not load the charts.
  await page.getByRole("menuitem", { name: "Proyectos", exact: true }).click();
  await expect(page.getByRole("columnheader", { name: "Código" })).toBeVisible();
  expect(scripts.charts()).toEqual([]);
  await page.getByRole("menuitem", { name: "Tablero" }).click();
  const team = page.getByRole("region", { name: "Equipo" });
  await expect(team).toBeVisible();
  const { dashboard } = await api<{ dashboard: { total_hours: number; weeks_not_closed: unknown[] } }>(
    page,
    "/api/v1/dashboards/team",
  );
  await expect(team.getByTestId("dashboard-team-total")).toHaveText(`Total del periodo: ${formatHours(dashboard.total_hours)}`);
  await expect(team.getByTestId("dashboard-team-by-workspace").locator(BARS).first()).toBeVisible();
  const late = team.getByRole("table", { name: "Semanas sin cerrar" });
  expect(dashboard.weeks_not_closed.length).toBeGreaterThan(0);
  await expect(late.locator("tbody tr")).toHaveCount(dashboard.weeks_not_closed.length);
  await expectNoEnglish(page);
});

test("a demo project shows its estimated vs logged hours, and a demo client its support hours of the year", async ({ page }) => {
  await signIn(page, "admin");
  const { activities } = await api<{
    activities: { project_id: number | null; action_type: string; ownerable_type: string | null; ownerable_id: number | null }[];
  }>(page, "/api/v1/activities?per_page=200&by_column[column]=begins_at&by_column[order]=desc");
  const projectId = activities.find((a) => a.project_id)?.project_id;
  const clientId = activities.find((a) => a.action_type === "support" && a.ownerable_type === "Client")?.ownerable_id;
  expect(projectId).toBeTruthy();
  expect(clientId).toBeTruthy();

  const project = await api<{ dashboard: { logged_hours: number; estimated_hours: number } }>(
    page,
    `/api/v1/dashboards/projects/${projectId}`,
  );
  await page.goto(`/app/projects/${projectId}`);
  const panel = page.getByRole("region", { name: "Horas estimadas vs. registradas" });
  await expect(panel).toBeVisible();
  const logged = formatHours(project.dashboard.logged_hours);
  await expect(panel.getByTestId("project-hours-totals")).toHaveText(
    project.dashboard.estimated_hours
      ? `${logged} registradas de ${formatHours(project.dashboard.estimated_hours)} estimadas`
      : `${logged} registradas; el proyecto no tiene horas estimadas`,
  );
  await expect(panel.getByTestId("project-hours-by-position").locator(BARS).first()).toBeVisible();
  await expect(panel.getByTestId("project-hours-cumulative").locator("svg path").first()).toBeVisible();
  await expectNoEnglish(page);

  const year = new Date().getFullYear();
  const client = await api<{ dashboard: { used_hours: number; annual_support_hours: number } }>(
    page,
    `/api/v1/dashboards/clients/${clientId}?year=${year}`,
  );
  expect(client.dashboard.used_hours).toBeGreaterThan(0);
  await page.goto(`/app/clients/show/${clientId}`);
  const support = page.getByRole("region", { name: "Horas de soporte del año" });
  await expect(support).toBeVisible();
  await expect(support.getByTestId("client-support-totals")).toHaveText(
    `${formatHours(client.dashboard.used_hours)} usadas de ${formatHours(client.dashboard.annual_support_hours)} anuales en ${year}`,
  );
  await expect(support.getByTestId("client-support-chart").locator(BARS).first()).toBeVisible();
  await expectNoEnglish(page);
});

test("a project's hours say when its estimate runs out at the current pace, drawn dashed, on a phone too", async ({ page }) => {
  await signIn(page, "admin");
  // The demo project with the latest activity, given an estimate well above what it has logged.
  const { activities } = await api<{ activities: { project_id: number | null }[] }>(
    page,
    "/api/v1/activities?per_page=200&by_column[column]=begins_at&by_column[order]=desc&by_employee=todos",
  );
  const projectId = activities.find((a) => a.project_id)?.project_id;
  expect(projectId).toBeTruthy();
  const before = await api<{ dashboard: { logged_hours: number; by_position: { position_id: number | null }[] } }>(
    page,
    `/api/v1/dashboards/projects/${projectId}`,
  );
  const { employee_positions } = await api<{ employee_positions: { id: number }[] }>(
    page,
    "/api/v1/employee_positions?per_page=100",
  );
  const taken = new Set(before.dashboard.by_position.map((p) => p.position_id));
  const position = employee_positions.find((p) => !taken.has(p.id));
  expect(position).toBeTruthy();
  const created = await page.request.post("/api/v1/estimated_work_hours", {
    data: { estimated_work_hour: { project_id: projectId, employee_position_id: position?.id, estimated_hours: 5000 } },
  });
  expect(created.status()).toBe(201);
  const estimateId = ((await created.json()) as { estimated_work_hour: { id: number } }).estimated_work_hour.id;

  const { dashboard } = await api<{
    dashboard: { forecast: { pace_hours_per_week: number; runs_out_on: string | null; percent: number } };
  }>(page, `/api/v1/dashboards/projects/${projectId}`);
  await page.goto(`/app/projects/${projectId}`);
  const panel = page.getByRole("region", { name: "Horas estimadas vs. registradas" });
  const forecast = panel.getByTestId("project-hours-forecast");
  const f = dashboard.forecast;
  if (f.runs_out_on) {
    const [y, m, d] = f.runs_out_on.split("-");
    await expect(forecast).toHaveText(
      `Lleva el ${f.percent} % de lo estimado. Ritmo de las últimas 4 semanas: ${formatHours(f.pace_hours_per_week)} por semana; a ese ritmo, las horas estimadas se agotan hacia el ${d}/${m}/${y}.`,
    );
    await expect(panel.locator(".MuiLineElement-series-forecast")).toHaveCount(1);
  } else {
    await expect(forecast).toHaveText(
      `Lleva el ${f.percent} % de lo estimado. Sin horas registradas en las últimas 4 semanas: no hay pronóstico.`,
    );
  }
  expect(await audit(page, "proyecto (escritorio)", "[data-testid=project-hours-panel]")).toEqual([]);
  await page.setViewportSize({ width: 390, height: 844 });
  await page.reload();
  await expect(forecast).toBeVisible();
  const box = await panel.boundingBox();
  expect(box?.width ?? 999).toBeLessThanOrEqual(390);
  expect(await audit(page, "proyecto (teléfono)", "[data-testid=project-hours-panel]")).toEqual([]);
  await expectNoEnglish(page);
  // The demo project as it was, for the other files.
  expect((await page.request.delete(`/api/v1/estimated_work_hours/${estimateId}`)).ok()).toBe(true);
});
