/**
 * /app/capacity (administrators): each active employee's weeks, the hours assigned against their capacity
 * and, in past weeks and the current one, the hours logged by group. Over- and under-assigned weeks stand out
 * by colour, by an arrow and by their name (read aloud), never by colour alone. A desktop gets a table (the
 * weeks scroll sideways inside it, the names stay); a phone one section per person with its weeks listed.
 */
import ArrowDownwardIcon from "@mui/icons-material/ArrowDownward";
import ArrowUpwardIcon from "@mui/icons-material/ArrowUpward";
import ChevronLeftIcon from "@mui/icons-material/ChevronLeft";
import ChevronRightIcon from "@mui/icons-material/ChevronRight";
import DownloadIcon from "@mui/icons-material/Download";
import ExpandMoreIcon from "@mui/icons-material/ExpandMore";
import Accordion from "@mui/material/Accordion";
import AccordionDetails from "@mui/material/AccordionDetails";
import AccordionSummary from "@mui/material/AccordionSummary";
import Alert from "@mui/material/Alert";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import Card from "@mui/material/Card";
import CardContent from "@mui/material/CardContent";
import CircularProgress from "@mui/material/CircularProgress";
import IconButton from "@mui/material/IconButton";
import MenuItem from "@mui/material/MenuItem";
import Stack from "@mui/material/Stack";
import type { Theme } from "@mui/material/styles";
import Table from "@mui/material/Table";
import TableBody from "@mui/material/TableBody";
import TableCell from "@mui/material/TableCell";
import TableHead from "@mui/material/TableHead";
import TableRow from "@mui/material/TableRow";
import TextField from "@mui/material/TextField";
import Typography from "@mui/material/Typography";
import useMediaQuery from "@mui/material/useMediaQuery";
import { keepPreviousData, useMutation, useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { type Identifier, useDataProvider, useGetList, useNotify, useTranslate } from "react-admin";
import { defaultCapacityRange } from "../../core/capacity";
import { MAX_PER_PAGE } from "../../core/constants";
import { capacityMessages } from "../../core/messages";
import { type CapacityState, UNDER_ASSIGNED_SHARE } from "../../core/schemas/capacity";
import { addDays, businessToday, formatDate } from "../../core/week";
import type { Capacity, CapacityPerson, CapacityWeek, SiaDataProvider } from "../../dataProvider";
import { AdminPageGuard, errorText, QueryState } from "../common/AdminPage";

/** How far the arrows move the weeks shown. */
const STEP_WEEKS = 4;

/**
 * The two states that call for action: a light background, a dark text of the same hue (both above 7:1,
 * WCAG 1.4.3 and 1.4.11 hold for the text and the arrow) and an arrow; the state's name is read aloud.
 */
const STATE_LOOK: Partial<Record<CapacityState, { background: string; color: string; Icon: typeof ArrowUpwardIcon }>> = {
  over: { background: "#fdecea", color: "#7f1d1d", Icon: ArrowUpwardIcon },
  under: { background: "#fff4e5", color: "#713f12", Icon: ArrowDownwardIcon },
};

const hours = (h: number) => (Number.isInteger(h) ? String(h) : h.toFixed(2));
const dayMonth = (date: string) => formatDate(date).slice(0, 5);

function StateMark({ state }: { state: CapacityState }) {
  const look = STATE_LOOK[state];
  if (!look) return null;
  return <look.Icon fontSize="inherit" titleAccess={capacityMessages.states[state]} sx={{ verticalAlign: "-0.15em", mr: 0.5 }} />;
}

/** What one week of one person reads: assigned of capacity, its state, and what was logged. */
function WeekText({ week, compact }: { week: CapacityWeek; compact: boolean }) {
  const translate = useTranslate();
  const logged = week.logged;
  const figures = { assigned: hours(week.assigned_hours), capacity: hours(week.capacity_hours) };
  return (
    <>
      <Box component="span" sx={{ whiteSpace: "nowrap", fontWeight: STATE_LOOK[week.state] ? 600 : undefined }}>
        <StateMark state={week.state} />
        {translate("sia.capacity.assigned", figures)}
      </Box>
      {!compact && STATE_LOOK[week.state] && (
        <Box component="span" sx={{ display: "block", fontSize: "0.75rem" }}>
          {capacityMessages.states[week.state]}
        </Box>
      )}
      {logged && (
        <>
          <Box component="span" sx={{ display: "block", fontSize: "0.75rem", whiteSpace: "nowrap" }}>
            {translate("sia.capacity.logged", { hours: hours(logged.total) })}
          </Box>
          <Box component="span" sx={{ display: "block", fontSize: "0.75rem", whiteSpace: "nowrap" }}>
            {translate("sia.capacity.split", {
              project: hours(logged.project),
              support: hours(logged.support),
              internal: hours(logged.internal),
              vacation: hours(logged.vacation),
            })}
          </Box>
        </>
      )}
    </>
  );
}

const cellLook = (state: CapacityState) => {
  const look = STATE_LOOK[state];
  return look ? { backgroundColor: look.background, color: look.color } : {};
};

function PersonHeading({ person }: { person: CapacityPerson }) {
  const translate = useTranslate();
  return (
    <>
      <Box component="span" sx={{ display: "block", fontWeight: 600 }}>
        {person.name}
      </Box>
      <Box component="span" sx={{ display: "block", fontSize: "0.75rem", color: "text.secondary" }}>
        {person.workspace_name ?? translate("sia.capacity.no_workspace")} ·{" "}
        {translate("sia.capacity.daily", { hours: hours(person.daily_hours) })}
      </Box>
    </>
  );
}

function weekHeading(translate: ReturnType<typeof useTranslate>, week: string, current: string) {
  return `${dayMonth(week)}${week === current ? ` (${translate("sia.capacity.this_week")})` : ""}`;
}

/** Desktop: people down, weeks across; the table scrolls sideways in its own focusable region. */
function CapacityTable({ capacity }: { capacity: Capacity }) {
  const translate = useTranslate();
  const label = translate("sia.capacity.table");
  return (
    <Box
      role="region"
      aria-label={label}
      // A region that scrolls takes the keyboard's focus, so its arrows scroll it (WCAG 2.1.1).
      tabIndex={0}
      // Width 0 stretched to its parent: the weeks never widen the page, only this region scrolls.
      sx={{
        width: 0,
        minWidth: "100%",
        overflowX: "auto",
        "&:focus-visible": { outline: "2px solid #0b4f8a", outlineOffset: 2 },
      }}
    >
      <Table size="small" aria-label={label} sx={{ "& td, & th": { verticalAlign: "top" } }}>
        <TableHead>
          <TableRow>
            <TableCell
              component="th"
              scope="col"
              sx={{ position: "sticky", left: 0, zIndex: 2, bgcolor: "background.paper", minWidth: 180 }}
            >
              {translate("sia.capacity.employee")}
            </TableCell>
            {capacity.weeks.map((week) => (
              <TableCell
                key={week}
                component="th"
                scope="col"
                title={translate("sia.capacity.week_of", { date: formatDate(week) })}
                sx={{ whiteSpace: "nowrap", fontWeight: week === capacity.current_week ? 700 : undefined }}
              >
                {weekHeading(translate, week, capacity.current_week)}
              </TableCell>
            ))}
          </TableRow>
        </TableHead>
        <TableBody>
          {capacity.employees.map((person) => (
            <TableRow key={person.id} data-testid={`capacity-row-${person.id}`}>
              <TableCell
                component="th"
                scope="row"
                sx={{ position: "sticky", left: 0, zIndex: 1, bgcolor: "background.paper", minWidth: 180 }}
              >
                <PersonHeading person={person} />
              </TableCell>
              {person.weeks.map((week) => (
                <TableCell key={week.week} data-state={week.state} data-week={week.week} sx={cellLook(week.state)}>
                  <WeekText week={week} compact />
                </TableCell>
              ))}
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </Box>
  );
}

/** Phone: one section per person; opened, their weeks one under another. */
function CapacityList({ capacity }: { capacity: Capacity }) {
  const translate = useTranslate();
  return (
    <Box>
      {capacity.employees.map((person) => {
        const flagged = person.weeks.filter((w) => STATE_LOOK[w.state]);
        return (
          <Accordion key={person.id} disableGutters data-testid={`capacity-person-${person.id}`}>
            <AccordionSummary
              expandIcon={<ExpandMoreIcon />}
              aria-controls={`capacity-${person.id}`}
              id={`capacity-h-${person.id}`}
            >
              <Box>
                <PersonHeading person={person} />
                {flagged.length > 0 && (
                  <Box component="span" sx={{ display: "block", fontSize: "0.75rem" }}>
                    {(["over", "under"] as const)
                      .map((state) => [state, flagged.filter((w) => w.state === state).length] as const)
                      .filter(([, n]) => n > 0)
                      .map(([state, n]) => `${capacityMessages.states[state]}: ${n}`)
                      .join(" · ")}
                  </Box>
                )}
              </Box>
            </AccordionSummary>
            <AccordionDetails id={`capacity-${person.id}`} sx={{ p: 0 }}>
              <Box
                component="ul"
                aria-label={translate("sia.capacity.weeks_of", { name: person.name })}
                sx={{ listStyle: "none", m: 0, p: 0 }}
              >
                {person.weeks.map((week) => (
                  <Box
                    component="li"
                    key={week.week}
                    data-state={week.state}
                    data-week={week.week}
                    sx={{ px: 2, py: 1, borderTop: 1, borderColor: "divider", ...cellLook(week.state) }}
                  >
                    <Box component="span" sx={{ display: "block", fontWeight: 600 }}>
                      {translate("sia.capacity.week_of", { date: formatDate(week.week) })}
                      {week.week === capacity.current_week ? ` (${translate("sia.capacity.this_week")})` : ""}
                    </Box>
                    <WeekText week={week} compact={false} />
                  </Box>
                ))}
              </Box>
            </AccordionDetails>
          </Accordion>
        );
      })}
    </Box>
  );
}

function Legend({ share }: { share: number }) {
  const translate = useTranslate();
  return (
    <Box component="section" aria-label={translate("sia.capacity.legend")} sx={{ my: 1 }}>
      <Stack direction={{ xs: "column", md: "row" }} spacing={{ xs: 0.5, md: 2 }} sx={{ fontSize: "0.875rem" }}>
        <Box component="span" sx={{ ...cellLook("over"), px: 1, borderRadius: 1 }}>
          <StateMark state="over" />
          {translate("sia.capacity.legend_over")}
        </Box>
        <Box component="span" sx={{ ...cellLook("under"), px: 1, borderRadius: 1 }}>
          <StateMark state="under" />
          {translate("sia.capacity.legend_under", { share: Math.round(share * 100) })}
        </Box>
      </Stack>
      <Typography variant="body2" color="text.secondary" sx={{ mt: 0.5 }}>
        {translate("sia.capacity.legend_logged")}
      </Typography>
    </Box>
  );
}

function WorkspacePicker({ value, onChange }: { value: Identifier | ""; onChange: (id: Identifier | "") => void }) {
  const translate = useTranslate();
  const { data = [] } = useGetList<{ id: Identifier; name: string }>("workspaces", {
    pagination: { page: 1, perPage: MAX_PER_PAGE },
    sort: { field: "name", order: "ASC" },
  });
  return (
    <TextField
      select
      size="small"
      id="capacity-workspace"
      label={translate("sia.capacity.workspace")}
      value={value === "" || data.some((w) => w.id === value) ? value : ""}
      onChange={(e) => onChange(e.target.value as Identifier | "")}
      // «Todos los espacios» shows as a value, not as an empty field under its label.
      slotProps={{ select: { displayEmpty: true }, inputLabel: { shrink: true } }}
      sx={{ width: { xs: "100%", sm: 320 } }}
    >
      <MenuItem value="">{translate("sia.capacity.all_workspaces")}</MenuItem>
      {data.map((w) => (
        <MenuItem key={w.id} value={w.id}>
          {w.name}
        </MenuItem>
      ))}
    </TextField>
  );
}

function CapacityScreen() {
  const translate = useTranslate();
  const notify = useNotify();
  const dataProvider = useDataProvider<SiaDataProvider>();
  const phone = useMediaQuery((theme: Theme) => theme.breakpoints.down("sm"));
  const [range, setRange] = useState(() => defaultCapacityRange(businessToday()));
  const [workspaceId, setWorkspaceId] = useState<Identifier | "">("");
  const filter = { ...range, workspace_id: workspaceId === "" ? null : workspaceId };
  const query = useQuery({
    queryKey: ["sia", "capacity", filter],
    queryFn: ({ signal }) => dataProvider.capacity(filter, signal),
    placeholderData: keepPreviousData,
  });
  const download = useMutation({
    mutationFn: () => dataProvider.downloadCapacityCsv(filter),
    onSuccess: ({ filename }) => notify(translate("sia.capacity.exported", { file: filename }), { type: "success" }),
    onError: (error) => notify(errorText(error), { type: "error" }),
  });
  const shift = (weeks: number) => setRange((r) => ({ from: addDays(r.from, 7 * weeks), to: addDays(r.to, 7 * weeks) }));
  const isDefault = JSON.stringify(range) === JSON.stringify(defaultCapacityRange(businessToday()));
  return (
    <Card sx={{ mt: 2 }}>
      <CardContent>
        <Typography variant="h6" component="h2">
          {translate("sia.capacity.title")}
        </Typography>
        <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
          {translate("sia.capacity.intro")}
        </Typography>
        <Stack direction="row" sx={{ alignItems: "center", flexWrap: "wrap", columnGap: 1, rowGap: 1, mb: 1 }}>
          <WorkspacePicker value={workspaceId} onChange={setWorkspaceId} />
          {/* The arrows and the weeks they move stay on one line, also on a phone. */}
          <Stack direction="row" sx={{ alignItems: "center", flexWrap: "nowrap", minWidth: 0 }}>
            <IconButton
              aria-label={translate("sia.capacity.previous")}
              title={translate("sia.capacity.previous")}
              onClick={() => shift(-STEP_WEEKS)}
            >
              <ChevronLeftIcon />
            </IconButton>
            <Box component="span" data-testid="capacity-range" sx={{ textAlign: "center" }}>
              {translate("sia.capacity.range", { from: formatDate(range.from), to: formatDate(addDays(range.to, 6)) })}
            </Box>
            <IconButton
              aria-label={translate("sia.capacity.next")}
              title={translate("sia.capacity.next")}
              onClick={() => shift(STEP_WEEKS)}
            >
              <ChevronRightIcon />
            </IconButton>
          </Stack>
          <Button size="small" disabled={isDefault} onClick={() => setRange(defaultCapacityRange(businessToday()))}>
            {translate("sia.capacity.current")}
          </Button>
          <Button
            size="small"
            variant="outlined"
            startIcon={download.isPending ? <CircularProgress size={16} /> : <DownloadIcon />}
            disabled={download.isPending}
            onClick={() => download.mutate()}
          >
            {translate("sia.capacity.export")}
          </Button>
        </Stack>
        <Legend share={query.data?.under_share ?? UNDER_ASSIGNED_SHARE} />
        <QueryState query={query}>
          {(capacity) =>
            capacity.employees.length === 0 ? (
              <Alert severity="info">{translate("sia.capacity.empty")}</Alert>
            ) : phone ? (
              <CapacityList capacity={capacity} />
            ) : (
              <CapacityTable capacity={capacity} />
            )
          }
        </QueryState>
      </CardContent>
    </Card>
  );
}

export function CapacityPage() {
  return (
    <AdminPageGuard resource="capacity" action="list" title="sia.capacity.title">
      <CapacityScreen />
    </AdminPageGuard>
  );
}
