/**
 * A project's "Horas estimadas vs. registradas": bars per position, and the running total of logged hours per
 * week against the estimate with the forecast of when it runs out at the current pace.
 */
import { Box, Stack, Typography } from "@mui/material";
import { BarChart } from "@mui/x-charts/BarChart";
import { ChartsReferenceLine } from "@mui/x-charts/ChartsReferenceLine";
import { LineChart } from "@mui/x-charts/LineChart";
import { useQuery } from "@tanstack/react-query";
import { type Identifier, useDataProvider, useTranslate } from "react-admin";
import { BUDGET_PACE_WEEKS } from "../../core/budget";
import { addDays, mondayOf } from "../../core/week";
import type { ProjectDashboard, SiaDataProvider } from "../../dataProvider";
import {
  ChartTitle,
  DashboardCard,
  EmptyState,
  formatHours,
  fullDate,
  hoursAxis,
  hoursFormatter,
  Loaded,
  shortDate,
  useChartLocale,
} from "./chartKit";

/** Future weeks drawn for the forecast, at most (a far date is said in words, not drawn). */
const FORECAST_MAX_WEEKS = 26;

/**
 * The running total's weeks, then the weeks up to the one the estimate runs out in at the current pace: the
 * logged series stops at the last week logged, the forecast starts there.
 */
function cumulativeSeries(data: ProjectDashboard) {
  const weeks = data.weekly.map((w) => w.week);
  const logged: Array<number | null> = data.weekly.map((w) => w.cumulative_hours);
  const forecast: Array<number | null> = logged.map(() => null);
  const f = data.forecast;
  if (f?.runs_out_on && f.pace_hours_per_week > 0 && weeks.length) {
    forecast[forecast.length - 1] = data.logged_hours;
    let week = weeks[weeks.length - 1];
    const last = mondayOf(f.runs_out_on);
    for (let i = 1; i <= FORECAST_MAX_WEEKS && week < last; i++) {
      week = addDays(week, 7);
      weeks.push(week);
      logged.push(null);
      forecast.push(Math.min(data.estimated_hours ?? 0, data.logged_hours + f.pace_hours_per_week * i));
    }
  }
  return { weeks, logged, forecast, drawn: forecast.some((v, i) => v !== null && i >= data.weekly.length) };
}

function ForecastText({ data }: { data: ProjectDashboard }) {
  const translate = useTranslate();
  const f = data.forecast;
  if (!f) return null;
  const weeks = BUDGET_PACE_WEEKS;
  const text =
    f.over_hours > 0
      ? translate("sia.dashboards.project.forecast_over", { over: formatHours(f.over_hours), percent: f.percent })
      : f.runs_out_on
        ? translate("sia.dashboards.project.forecast_runs_out", {
            weeks,
            pace: formatHours(f.pace_hours_per_week),
            date: fullDate(f.runs_out_on),
            percent: f.percent,
          })
        : translate("sia.dashboards.project.forecast_no_pace", { weeks, percent: f.percent });
  return (
    <Typography variant="body2" data-testid="project-hours-forecast">
      {text}
    </Typography>
  );
}

function ProjectCharts({ data }: { data: ProjectDashboard }) {
  const translate = useTranslate();
  const localeText = useChartLocale();
  if (data.by_position.length === 0) return <EmptyState text={translate("sia.dashboards.project.empty")} />;
  const positions = data.by_position.map((p) => p.position_name ?? translate("sia.dashboards.project.no_position"));
  const estimated = translate("sia.dashboards.project.estimated");
  const logged = translate("sia.dashboards.project.logged");
  const series = cumulativeSeries(data);
  return (
    <Box>
      <Typography sx={{ fontWeight: 600 }} data-testid="project-hours-totals">
        {data.estimates_visible && data.estimated_hours
          ? translate("sia.dashboards.project.totals", {
              logged: formatHours(data.logged_hours),
              estimated: formatHours(data.estimated_hours),
            })
          : translate(data.estimates_visible ? "sia.dashboards.project.no_estimates" : "sia.dashboards.project.logged_only", {
              logged: formatHours(data.logged_hours),
            })}
      </Typography>
      <ForecastText data={data} />
      <Stack direction={{ xs: "column", lg: "row" }} spacing={2}>
        <Box sx={{ flex: 1, minWidth: 0 }} data-testid="project-hours-by-position">
          <ChartTitle>{translate("sia.dashboards.project.by_position")}</ChartTitle>
          <BarChart
            height={280}
            localeText={localeText}
            xAxis={[{ scaleType: "band", data: positions }]}
            yAxis={[hoursAxis]}
            grid={{ horizontal: true }}
            series={[
              ...(data.estimates_visible
                ? [
                    {
                      id: "estimated",
                      label: estimated,
                      color: "#90a4ae",
                      data: data.by_position.map((p) => p.estimated_hours ?? 0),
                      valueFormatter: hoursFormatter,
                    },
                  ]
                : []),
              {
                id: "logged",
                label: logged,
                color: "#1e88e5",
                data: data.by_position.map((p) => p.logged_hours),
                valueFormatter: hoursFormatter,
              },
            ]}
          />
        </Box>
        <Box sx={{ flex: 1, minWidth: 0 }} data-testid="project-hours-cumulative">
          <ChartTitle>{translate("sia.dashboards.project.cumulative")}</ChartTitle>
          {data.weekly.length === 0 ? (
            <EmptyState text={translate("sia.dashboards.no_data")} />
          ) : (
            <LineChart
              height={280}
              margin={{ right: 24 }}
              localeText={localeText}
              xAxis={[{ scaleType: "point", data: series.weeks.map(shortDate) }]}
              yAxis={[{ ...hoursAxis, max: Math.max(data.estimated_hours ?? 0, data.logged_hours) * 1.05 || undefined }]}
              grid={{ horizontal: true }}
              sx={{ "& .MuiLineElement-series-forecast": { strokeDasharray: "6 4" } }}
              series={[
                {
                  id: "cumulative",
                  label: logged,
                  color: "#1e88e5",
                  area: true,
                  data: series.logged,
                  valueFormatter: hoursFormatter,
                },
                {
                  id: "weekly",
                  label: translate("sia.dashboards.project.weekly"),
                  color: "#43a047",
                  data: [...data.weekly.map((w) => w.hours), ...series.weeks.slice(data.weekly.length).map(() => null)],
                  valueFormatter: hoursFormatter,
                },
                ...(series.drawn
                  ? [
                      {
                        id: "forecast",
                        label: translate("sia.dashboards.project.forecast"),
                        color: "#6d4c41",
                        data: series.forecast,
                        valueFormatter: hoursFormatter,
                      },
                    ]
                  : []),
              ]}
            >
              {data.estimates_visible && (data.estimated_hours ?? 0) > 0 && (
                <ChartsReferenceLine
                  y={data.estimated_hours ?? 0}
                  label={`${estimated}: ${formatHours(data.estimated_hours ?? 0)}`}
                  lineStyle={{ stroke: "#e53935", strokeDasharray: "6 4" }}
                  labelAlign="start"
                />
              )}
            </LineChart>
          )}
        </Box>
      </Stack>
    </Box>
  );
}

export default function ProjectHoursPanel({ projectId }: { projectId: Identifier }) {
  const translate = useTranslate();
  const dataProvider = useDataProvider<SiaDataProvider>();
  const query = useQuery({
    queryKey: ["dashboards", "project", String(projectId)],
    queryFn: ({ signal }) => dataProvider.projectDashboard(projectId, signal),
  });
  return (
    <DashboardCard title={translate("sia.dashboards.project.title")} testId="project-hours-panel">
      <Loaded query={query}>{(data) => <ProjectCharts data={data} />}</Loaded>
    </DashboardCard>
  );
}
