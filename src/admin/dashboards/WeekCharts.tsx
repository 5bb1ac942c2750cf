/** One employee's week as pictures: hours per day stacked by type against the expected hours, and hours by type. */
import { Box, Chip, LinearProgress, Stack, Typography } from "@mui/material";
import { BarPlot } from "@mui/x-charts/BarChart";
import { ChartDataProvider } from "@mui/x-charts/ChartDataProvider";
import { ChartsAxisHighlight } from "@mui/x-charts/ChartsAxisHighlight";
import { ChartsGrid } from "@mui/x-charts/ChartsGrid";
import { ChartsLegend } from "@mui/x-charts/ChartsLegend";
import { ChartsSurface } from "@mui/x-charts/ChartsSurface";
import { ChartsTooltip } from "@mui/x-charts/ChartsTooltip";
import { ChartsWrapper } from "@mui/x-charts/ChartsWrapper";
import { ChartsXAxis } from "@mui/x-charts/ChartsXAxis";
import { ChartsYAxis } from "@mui/x-charts/ChartsYAxis";
import { LinePlot, MarkPlot } from "@mui/x-charts/LineChart";
import { PieChart } from "@mui/x-charts/PieChart";
import { useTranslate } from "react-admin";
import { ACTION_LABELS, ACTION_TYPES, type ActionType } from "../../core/constants";
import { addDays } from "../../core/week";
import type { EmployeeDashboard } from "../../dataProvider";
import { ACTION_COLORS } from "../../timesheet/model/colors";
import {
  ChartTitle,
  EmptyState,
  formatHours,
  fullDate,
  hoursAxis,
  hoursFormatter,
  useChartLocale,
  weekdayDate,
} from "./chartKit";

const typeLabel = (t: string) => ACTION_LABELS[t as ActionType] ?? t;

export function WeekCharts({ data }: { data: EmployeeDashboard }) {
  const translate = useTranslate();
  const localeText = useChartLocale();
  const days = Array.from({ length: 7 }, (_, i) => addDays(data.week.starts_on, i));
  const expectedPerDay = data.expected_by_day;
  const types = ACTION_TYPES.filter((t) => data.by_type.some((x) => x.action_type === t));
  const hoursOn = (day: string, type: string) => data.by_day.find((x) => x.date === day && x.action_type === type)?.hours ?? 0;
  const progress = data.expected_hours > 0 ? Math.min(100, (data.total_hours / data.expected_hours) * 100) : 100;

  return (
    <Box>
      <Stack direction="row" sx={{ alignItems: "center", flexWrap: "wrap", columnGap: 2, rowGap: 1 }}>
        <Typography sx={{ fontWeight: 600 }} data-testid="dashboard-week-total">
          {translate("sia.dashboards.week.total", { hours: formatHours(data.total_hours) })}
        </Typography>
        <Typography color="text.secondary" data-testid="dashboard-week-expected">
          {translate("sia.dashboards.week.expected", { hours: formatHours(data.expected_hours) })}
        </Typography>
        {data.holidays.length > 0 && (
          <Typography color="text.secondary">
            {translate("sia.dashboards.week.holidays", {
              days: data.holidays.map((h) => `${fullDate(h.date)}${h.name ? ` (${h.name})` : ""}`).join(", "),
            })}
          </Typography>
        )}
      </Stack>
      <LinearProgress
        variant="determinate"
        value={progress}
        sx={{ my: 1, height: 8, borderRadius: 1 }}
        aria-label={translate("sia.dashboards.week.total", { hours: formatHours(data.total_hours) })}
      />
      {types.length === 0 ? (
        <EmptyState text={translate("sia.dashboards.week.empty")} />
      ) : (
        <Stack direction={{ xs: "column", lg: "row" }} spacing={2}>
          <Box sx={{ flex: 2, minWidth: 0 }} data-testid="dashboard-week-by-day">
            <ChartTitle>{translate("sia.dashboards.week.by_day")}</ChartTitle>
            <ChartDataProvider
              height={300}
              localeText={localeText}
              xAxis={[{ id: "days", scaleType: "band", data: days.map(weekdayDate) }]}
              yAxis={[{ id: "hours", ...hoursAxis }]}
              series={[
                ...types.map((t) => ({
                  type: "bar" as const,
                  id: t,
                  label: typeLabel(t),
                  stack: "hours",
                  color: ACTION_COLORS[t],
                  data: days.map((d) => hoursOn(d, t)),
                  valueFormatter: hoursFormatter,
                })),
                {
                  type: "line" as const,
                  id: "expected",
                  label: translate("sia.dashboards.week.expected_series"),
                  color: "#424242",
                  curve: "step" as const,
                  data: expectedPerDay,
                  valueFormatter: hoursFormatter,
                },
              ]}
            >
              <ChartsWrapper legendPosition={{ vertical: "top", horizontal: "center" }}>
                <ChartsLegend />
                <ChartsSurface>
                  <ChartsGrid horizontal />
                  <BarPlot />
                  <LinePlot />
                  <MarkPlot />
                  <ChartsXAxis axisId="days" />
                  <ChartsYAxis axisId="hours" />
                  <ChartsAxisHighlight x="band" />
                </ChartsSurface>
                <ChartsTooltip trigger="axis" />
              </ChartsWrapper>
            </ChartDataProvider>
          </Box>
          <Box sx={{ flex: 1, minWidth: 0 }} data-testid="dashboard-week-by-type">
            <ChartTitle>{translate("sia.dashboards.week.by_type")}</ChartTitle>
            <PieChart
              height={240}
              localeText={localeText}
              series={[
                {
                  innerRadius: 40,
                  paddingAngle: 1,
                  valueFormatter: (v) => formatHours(v.value),
                  data: data.by_type.map((x) => ({
                    id: x.action_type,
                    value: x.hours,
                    label: typeLabel(x.action_type),
                    color: ACTION_COLORS[x.action_type as ActionType],
                  })),
                },
              ]}
            />
            <Stack direction="row" sx={{ flexWrap: "wrap", gap: 1, mt: 1 }}>
              {data.by_type.map((x) => (
                <Chip
                  key={x.action_type}
                  size="small"
                  variant="outlined"
                  label={`${typeLabel(x.action_type)}: ${formatHours(x.hours)}`}
                />
              ))}
            </Stack>
          </Box>
        </Stack>
      )}
    </Box>
  );
}
