/** A project's "Horas estimadas vs. registradas": bars per position and the running total of logged hours per week. */
import { Box, Stack, Typography } from "@mui/material";
import { BarChart } from "@mui/x-charts/BarChart";
import { ChartsReferenceLine } from "@mui/x-charts/ChartsReferenceLine";
import { LineChart } from "@mui/x-charts/LineChart";
import { useQuery } from "@tanstack/react-query";
import { type Identifier, useDataProvider, useTranslate } from "react-admin";
import type { ProjectDashboard, SiaDataProvider } from "../../dataProvider";
import {
  ChartTitle,
  DashboardCard,
  EmptyState,
  formatHours,
  hoursAxis,
  hoursFormatter,
  Loaded,
  shortDate,
  useChartLocale,
} from "./chartKit";

function ProjectCharts({ data }: { data: ProjectDashboard }) {
  const translate = useTranslate();
  const localeText = useChartLocale();
  if (data.by_position.length === 0) return <EmptyState text={translate("sia.dashboards.project.empty")} />;
  const positions = data.by_position.map((p) => p.position_name ?? translate("sia.dashboards.project.no_position"));
  const estimated = translate("sia.dashboards.project.estimated");
  const logged = translate("sia.dashboards.project.logged");
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
              xAxis={[{ scaleType: "point", data: data.weekly.map((w) => shortDate(w.week)) }]}
              yAxis={[{ ...hoursAxis, max: Math.max(data.estimated_hours ?? 0, data.logged_hours) * 1.05 || undefined }]}
              grid={{ horizontal: true }}
              series={[
                {
                  id: "cumulative",
                  label: logged,
                  color: "#1e88e5",
                  area: true,
                  data: data.weekly.map((w) => w.cumulative_hours),
                  valueFormatter: hoursFormatter,
                },
                {
                  id: "weekly",
                  label: translate("sia.dashboards.project.weekly"),
                  color: "#43a047",
                  data: data.weekly.map((w) => w.hours),
                  valueFormatter: hoursFormatter,
                },
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
