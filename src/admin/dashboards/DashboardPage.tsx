/**
 * /app/dashboard, "Tablero": everyone's own week (administrators choose any employee), and for
 * administrators the team. Loaded lazily (AdminApp.tsx), so no other screen loads the chart library.
 */
import ChevronLeftIcon from "@mui/icons-material/ChevronLeft";
import ChevronRightIcon from "@mui/icons-material/ChevronRight";
import { Box, Button, IconButton, MenuItem, Stack, TextField, Tooltip } from "@mui/material";
import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { type Identifier, Loading, Title, useDataProvider, useGetList, usePermissions, useTranslate } from "react-admin";
import { MAX_PER_PAGE } from "../../core/constants";
import { canAccess } from "../../core/permissions";
import type { SessionUser } from "../../core/session";
import { addDays, businessToday, mondayOf, sundayOf, weekOf } from "../../core/week";
import type { SiaDataProvider } from "../../dataProvider";
import { DashboardCard, EmptyState, fullDate, Loaded } from "./chartKit";
import { TeamCharts } from "./TeamCharts";
import { WeekCharts } from "./WeekCharts";

const TEAM_WEEKS = [4, 8, 13, 26, 52] as const;

function EmployeePicker({ value, onChange }: { value: Identifier | ""; onChange: (id: Identifier | "") => void }) {
  const translate = useTranslate();
  const { data = [] } = useGetList<{ id: Identifier; name: string }>("employees", {
    pagination: { page: 1, perPage: MAX_PER_PAGE },
    sort: { field: "name", order: "ASC" },
    filter: { is_active: true },
  });
  return (
    <TextField
      select
      size="small"
      label={translate("sia.dashboards.week.employee")}
      value={data.some((e) => e.id === value) ? value : ""}
      onChange={(e) => onChange(e.target.value as Identifier)}
      sx={{ minWidth: 260 }}
    >
      {data.map((e) => (
        <MenuItem key={e.id} value={e.id}>
          {e.name}
        </MenuItem>
      ))}
    </TextField>
  );
}

function WeekSection({ user }: { user: SessionUser }) {
  const translate = useTranslate();
  const dataProvider = useDataProvider<SiaDataProvider>();
  const isAdmin = canAccess({ user, resource: "dashboards", action: "list" });
  const [day, setDay] = useState(businessToday);
  const [employeeId, setEmployeeId] = useState<Identifier | "">(user.employee?.id ?? "");
  const week = weekOf(day);
  const query = useQuery({
    queryKey: ["dashboards", "employee", week.starts_on, employeeId],
    queryFn: ({ signal }) => dataProvider.employeeDashboard(week.starts_on, employeeId || undefined, signal),
    enabled: employeeId !== "",
  });
  const own = employeeId === user.employee?.id;
  const title =
    own || !query.data
      ? translate("sia.dashboards.week.title")
      : translate("sia.dashboards.week.title_of", { name: query.data.employee.name });
  const navigation = (
    <Stack direction="row" sx={{ alignItems: "center", flexWrap: "wrap", columnGap: 1, rowGap: 1 }}>
      {isAdmin && <EmployeePicker value={employeeId} onChange={setEmployeeId} />}
      <Tooltip title={translate("sia.dashboards.week.previous")}>
        <IconButton aria-label={translate("sia.dashboards.week.previous")} onClick={() => setDay(addDays(mondayOf(day), -7))}>
          <ChevronLeftIcon />
        </IconButton>
      </Tooltip>
      <Box component="span" data-testid="dashboard-week-range">
        {translate("sia.dashboards.week.range", { from: fullDate(week.starts_on), to: fullDate(week.ends_on) })}
      </Box>
      <Tooltip title={translate("sia.dashboards.week.next")}>
        <IconButton aria-label={translate("sia.dashboards.week.next")} onClick={() => setDay(addDays(mondayOf(day), 7))}>
          <ChevronRightIcon />
        </IconButton>
      </Tooltip>
      <Button size="small" onClick={() => setDay(businessToday())} disabled={week.starts_on === mondayOf(businessToday())}>
        {translate("sia.dashboards.week.current")}
      </Button>
    </Stack>
  );
  return (
    <DashboardCard title={title} action={navigation} testId="dashboard-week">
      {employeeId === "" ? (
        <EmptyState text={translate("sia.dashboards.week.choose_employee")} />
      ) : (
        <Loaded query={query}>{(data) => <WeekCharts data={data} />}</Loaded>
      )}
    </DashboardCard>
  );
}

function TeamSection() {
  const translate = useTranslate();
  const dataProvider = useDataProvider<SiaDataProvider>();
  const [weeks, setWeeks] = useState<number>(8);
  const to = sundayOf(businessToday());
  const from = addDays(mondayOf(to), -7 * (weeks - 1));
  const query = useQuery({
    queryKey: ["dashboards", "team", from, to],
    queryFn: ({ signal }) => dataProvider.teamDashboard(from, to, signal),
  });
  const picker = (
    <TextField
      select
      size="small"
      label={translate("sia.dashboards.team.weeks")}
      value={weeks}
      onChange={(e) => setWeeks(Number(e.target.value))}
      sx={{ minWidth: 200 }}
    >
      {TEAM_WEEKS.map((n) => (
        <MenuItem key={n} value={n}>
          {translate("sia.dashboards.team.last_weeks", { count: n })}
        </MenuItem>
      ))}
    </TextField>
  );
  return (
    <DashboardCard title={translate("sia.dashboards.team.title")} action={picker} testId="dashboard-team">
      <Loaded query={query}>{(data) => <TeamCharts data={data} />}</Loaded>
    </DashboardCard>
  );
}

export default function DashboardPage() {
  const translate = useTranslate();
  const { permissions, isPending } = usePermissions<SessionUser | null>();
  if (isPending) return <Loading />;
  if (!permissions) return null;
  return (
    <Box sx={{ mt: 1 }}>
      <Title title={translate("sia.dashboards.title")} />
      {canAccess({ user: permissions, resource: "dashboards", action: "show" }) && <WeekSection user={permissions} />}
      {canAccess({ user: permissions, resource: "dashboards", action: "list" }) && <TeamSection />}
    </Box>
  );
}
