/** The team (administrators): hours per workspace and week, and the employee-weeks not closed yet. */
import { Box, Table, TableBody, TableCell, TableContainer, TableHead, TableRow, Typography } from "@mui/material";
import { BarChart } from "@mui/x-charts/BarChart";
import { useTranslate } from "react-admin";
import { Link } from "react-router-dom";
import { screenPath } from "../../core/resources";
import { addDays } from "../../core/week";
import type { TeamDashboard } from "../../dataProvider";
import { ChartTitle, EmptyState, formatHours, fullDate, hoursAxis, hoursFormatter, shortDate, useChartLocale } from "./chartKit";

export function TeamCharts({ data }: { data: TeamDashboard }) {
  const translate = useTranslate();
  const localeText = useChartLocale();
  const noWorkspace = translate("sia.dashboards.team.no_workspace");
  const workspaces = [...new Map(data.by_workspace.map((r) => [r.workspace_id ?? 0, r.workspace_name ?? noWorkspace])).entries()];
  const weeks = data.weeks.map((w) => w.week);

  return (
    <Box>
      <ChartTitle>{translate("sia.dashboards.team.by_workspace")}</ChartTitle>
      {data.by_workspace.length === 0 ? (
        <EmptyState text={translate("sia.dashboards.team.empty")} />
      ) : (
        <>
          <Typography color="text.secondary" data-testid="dashboard-team-total">
            {translate("sia.dashboards.team.total", { hours: formatHours(data.total_hours) })}
          </Typography>
          <Box data-testid="dashboard-team-by-workspace">
            <BarChart
              height={320}
              localeText={localeText}
              xAxis={[{ scaleType: "band", data: weeks.map(shortDate) }]}
              yAxis={[hoursAxis]}
              grid={{ horizontal: true }}
              series={workspaces.map(([id, name]) => ({
                id: String(id),
                label: name,
                stack: "team",
                valueFormatter: hoursFormatter,
                data: weeks.map((w) => data.by_workspace.find((r) => (r.workspace_id ?? 0) === id && r.week === w)?.hours ?? 0),
              }))}
            />
          </Box>
        </>
      )}
      <ChartTitle>{translate("sia.dashboards.team.not_closed")}</ChartTitle>
      {data.weeks_not_closed.length === 0 ? (
        <EmptyState text={translate("sia.dashboards.team.none_late")} />
      ) : (
        <TableContainer sx={{ maxHeight: 420 }}>
          <Table size="small" stickyHeader aria-label={translate("sia.dashboards.team.not_closed")}>
            <TableHead>
              <TableRow>
                <TableCell>{translate("sia.dashboards.team.week")}</TableCell>
                <TableCell>{translate("sia.dashboards.team.employee")}</TableCell>
                <TableCell>{translate("sia.dashboards.team.workspace")}</TableCell>
                <TableCell align="right">{translate("sia.dashboards.team.hours")}</TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {data.weeks_not_closed.map((r) => {
                const expected = data.weeks.find((w) => w.week === r.week)?.expected_hours;
                return (
                  <TableRow key={`${r.week}-${r.employee_id}`}>
                    <TableCell>{`${fullDate(r.week)} – ${fullDate(addDays(r.week, 6))}`}</TableCell>
                    <TableCell>
                      <Link to={screenPath("employees", "show", r.employee_id)}>{r.employee_name}</Link>
                    </TableCell>
                    <TableCell>{r.workspace_name ?? noWorkspace}</TableCell>
                    <TableCell align="right">
                      {formatHours(r.hours)}
                      {expected !== undefined ? ` / ${formatHours(expected)}` : ""}
                    </TableCell>
                  </TableRow>
                );
              })}
            </TableBody>
          </Table>
        </TableContainer>
      )}
    </Box>
  );
}
