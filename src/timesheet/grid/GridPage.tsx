/**
 * /app/activities/grid: the week as a grid of hours (rows: what the person logs time against; columns:
 * Monday to Sunday). The same week as the calendar — the same queries and keys — and the same save: the
 * cells typed become one week save (./model.ts planWeek), so the server's rules apply and the calendar
 * shows the result at once. Loaded lazily like the calendar page.
 */

import ChevronLeft from "@mui/icons-material/ChevronLeft";
import ChevronRight from "@mui/icons-material/ChevronRight";
import { Alert, Box, Button, CircularProgress, IconButton, Paper, Stack, Typography } from "@mui/material";
import { useEffect, useMemo, useRef, useState } from "react";
import { Title, useNotify, usePermissions, useTranslate } from "react-admin";
import { useSearchParams } from "react-router-dom";
import { WORKING_DAY_HOURS } from "../../core/constants";
import { workingDays } from "../../core/hours";
import { formatCellMinutes, parseHoursInput } from "../../core/hoursInput";
import { dmy, messages } from "../../core/messages";
import type { SessionUser } from "../../core/session";
import { addDays, zonedTime } from "../../core/week";
import { ImportCallError } from "../../dataProvider";
import { CopyWeekButton } from "../components/CopyWeekButton";
import { ReturnedNotice, WeekReviewChip } from "../components/FreezeButtons";
import { ActivityDialog, type ActivityDialogTarget } from "../components/form";
import { EmployeePicker } from "../components/Toolbar";
import { ViewSwitch } from "../components/ViewSwitch";
import type { EmployeeChoice } from "../data/keys";
import { useTimesheetMutations } from "../data/mutations";
import { useEmployeeChoices, useHolidays, useSettings, useWeekActivities, useWeekState } from "../data/queries";
import { formatHours } from "../model/totals";
import { askedWeekStart, defaultChoice, isTimesheetAdmin, rememberChoice, WEEK_PARAM } from "../model/who";
import { HoursGrid } from "./HoursGrid";
import {
  activitiesByCell,
  type CellEdits,
  cellId,
  cellMinutes,
  errorsByCell,
  type GridRow,
  gridRows,
  planWeek,
  rowKeyOf,
  weekDays,
} from "./model";
import { usePinnedRows } from "./pinned";
import { useRecentActivities } from "./recent";

export default function GridPage() {
  const { permissions } = usePermissions<SessionUser | null>();
  const me = permissions ?? null;
  const translate = useTranslate();
  const notify = useNotify();
  const mutations = useTimesheetMutations();
  const isAdmin = isTimesheetAdmin(me);
  const [choice, setChoice] = useState<EmployeeChoice>(() => defaultChoice(me));
  // ?semana=YYYY-MM-DD opens that date's week (a link to a week; the tests and the bench go straight there).
  const [params] = useSearchParams();
  const [weekStart, setWeekStart] = useState(() => askedWeekStart(params.get(WEEK_PARAM)));
  /** What the person typed, by cell id: the text as typed, kept until saved or discarded. */
  const [texts, setTexts] = useState<Record<string, string>>({});
  /** The server's reasons for the last refused save, by cell id. */
  const [serverErrors, setServerErrors] = useState<Record<string, string[]>>({});

  useEffect(() => {
    if (!me || choice !== null) return;
    const initial = defaultChoice(me);
    if (initial !== null) setChoice(initial);
  }, [me, choice]);
  // The employee an admin chose stays chosen in this tab, across the calendar, the grid and a reload.
  useEffect(() => rememberChoice(me, choice), [me, choice]);

  const employees = useEmployeeChoices(isAdmin);
  const employee = choice === "todos" || choice === null ? null : Number(choice);
  const week = useWeekActivities(employee === null ? null : weekStart, employee);
  const recent = useRecentActivities(weekStart, employee);
  const holidays = useHolidays(weekStart);
  const weekState = useWeekState(weekStart, employee);
  const days = useMemo(() => weekDays(weekStart), [weekStart]);
  const holidaySet = useMemo(() => new Set(holidays.map((h) => h.date)), [holidays]);
  const frozenDays = useMemo(() => new Set(weekState?.frozen ? days : (weekState?.frozen_days ?? [])), [weekState, days]);
  const activities = week.current ? week.activities : [];
  const pinned = usePinnedRows(me ? Number(me.id) : null, employee);
  const pinnedKeys = useMemo(() => new Set(pinned.pins.map(rowKeyOf)), [pinned.pins]);
  // The rows on screen for this person's week: kept when a save empties one (gridRows' `shown`).
  const shownRows = useRef<{ week: string; rows: GridRow[] }>({ week: "", rows: [] });
  const rowsWeek = `${employee}:${weekStart}`;
  const rows = useMemo(
    () => gridRows(activities, recent, pinned.pins, shownRows.current.week === rowsWeek ? shownRows.current.rows : []),
    [activities, recent, pinned.pins, rowsWeek],
  );
  useEffect(() => {
    shownRows.current = { week: rowsWeek, rows };
  }, [rowsWeek, rows]);
  const settings = useSettings(!!me);
  /** «Añadir fila»: the activity form without its times; what it names becomes a pinned row. */
  const [adding, setAdding] = useState<ActivityDialogTarget | null>(null);
  const byCell = useMemo(() => activitiesByCell(activities), [activities]);

  // A typed cell is an edit; its parse is its own error until it reads as hours.
  const parsed = useMemo(() => {
    const edits: CellEdits = {};
    const invalid: Record<string, string> = {};
    for (const [id, text] of Object.entries(texts)) {
      const r = parseHoursInput(text);
      if (r.ok) edits[id] = r.minutes;
      else invalid[id] = r.error;
    }
    return { edits, invalid };
  }, [texts]);
  const minutesOf = (id: string) => parsed.edits[id] ?? cellMinutes(byCell.get(id));
  const dayMinutes = days.map((day) => rows.reduce((sum, row) => sum + minutesOf(cellId(row.key, day)), 0));
  // The employee's own norm on their working days (their record's «Horas por día», from their start date).
  const norm = weekState?.daily_hours ?? WORKING_DAY_HOURS;
  const workdays = new Set(workingDays(days[0], days[6], holidaySet, weekState?.start_on ?? null));
  const expectedOf = (day: string) => (workdays.has(day) ? norm : 0);
  const weekMinutes = dayMinutes.reduce((a, b) => a + b, 0);

  const switchWeek = (days: number) => {
    setWeekStart((w) => addDays(w, days));
    setTexts({});
    setServerErrors({});
  };
  const dirty = Object.keys(texts).length > 0;
  const hasInvalid = Object.keys(parsed.invalid).length > 0;

  /** A save under way: a double click sends one (the button is disabled only once React draws it so). */
  const saving = useRef(false);
  /**
   * «Guardar» is disabled once saved (nothing left to save), which drops its focus to the page: the grid's
   * current cell takes it back, so the keyboard goes on where it was.
   */
  const keepFocus = () =>
    window.setTimeout(() => {
      const lost = !document.activeElement || document.activeElement === document.body;
      if (lost) document.querySelector<HTMLElement>('[data-testid="hours-grid"] [tabindex="0"]')?.focus();
    }, 0);
  const save = async () => {
    if (saving.current) return;
    saving.current = true;
    try {
      await saveOnce();
    } finally {
      saving.current = false;
      keepFocus();
    }
  };
  const saveOnce = async () => {
    if (employee === null || hasInvalid) return;
    const plan = planWeek(employee, activities, rows, parsed.edits);
    if (plan.noRoom.length) {
      setServerErrors(Object.fromEntries(plan.noRoom.map((id) => [id, [messages.gridNoRoom]])));
      return;
    }
    const { creates, updates, deletions } = plan.payload;
    if (!creates.length && !updates.length && !deletions.length) {
      setTexts({});
      return;
    }
    try {
      await mutations.saveWeek.mutateAsync(plan.payload);
      setTexts({});
      setServerErrors({});
      notify("sia.timesheet_grid.saved", { type: "success" });
    } catch (error) {
      const byCell = error instanceof ImportCallError ? errorsByCell(plan, error.byIndex) : {};
      setServerErrors(byCell);
      notify((error as Error)?.message || messages.unexpected, { type: "error" });
    }
  };

  if (me && !me.employee && !isAdmin)
    return (
      <Alert severity="warning" sx={{ mt: 2 }} data-testid="no-employee">
        {messages.noEmployee}
      </Alert>
    );

  return (
    <Box sx={{ mt: 1 }}>
      <Title title="sia.timesheet_grid.title" />
      <Paper sx={{ p: 1.5, mb: 1 }}>
        <Stack direction="row" spacing={1} sx={{ flexWrap: "wrap", alignItems: "center", rowGap: 1 }}>
          <ViewSwitch view="grid" weekStart={weekStart} />
          {isAdmin && (
            <EmployeePicker
              value={choice}
              employees={employees}
              onChange={(next) => {
                setChoice(next);
                setTexts({});
                setServerErrors({});
              }}
            />
          )}
          <IconButton aria-label={translate("sia.timesheet_grid.previous_week")} onClick={() => switchWeek(-7)}>
            <ChevronLeft />
          </IconButton>
          <Typography data-testid="grid-week">
            {translate("sia.timesheet_grid.week_of", { from: dmy(weekStart), to: dmy(addDays(weekStart, 6)) })}
          </Typography>
          <IconButton aria-label={translate("sia.timesheet_grid.next_week")} onClick={() => switchWeek(7)}>
            <ChevronRight />
          </IconButton>
          <CopyWeekButton
            weekStart={weekStart}
            employee={isAdmin ? employee : undefined}
            disabled={employee === null || !!weekState?.frozen || dirty || mutations.saveWeek.isPending}
            reason={weekState?.frozen ? messages.timesheetWeekClosed : null}
            mutations={mutations}
          />
          <WeekReviewChip state={weekState} />
          <Button
            disabled={employee === null || !!weekState?.frozen}
            onClick={() =>
              setAdding({
                mode: "create",
                rowOnly: true,
                initial: {},
                // Only for the form's checks: the grid places the hours itself.
                begins: zonedTime(weekStart, 9 * 60),
                ends: zonedTime(weekStart, 10 * 60),
              })
            }
          >
            {translate("sia.timesheet_grid.add_row")}
          </Button>
          <Box sx={{ flex: 1 }} />
          {week.loading && <CircularProgress size={16} aria-label={translate("ra.page.loading")} />}
          <Button
            disabled={!dirty}
            onClick={() => {
              setTexts({});
              setServerErrors({});
            }}
          >
            {translate("sia.timesheet_grid.discard")}
          </Button>
          <Button variant="contained" disabled={!dirty || hasInvalid || mutations.saveWeek.isPending} onClick={save}>
            {translate("sia.timesheet_grid.save")}
          </Button>
        </Stack>
      </Paper>
      <ReturnedNotice state={weekState} own={employee !== null && employee === me?.employee?.id} />
      {employee === null ? (
        <Alert severity="info">{translate("sia.timesheet_grid.choose_employee")}</Alert>
      ) : (
        <Paper sx={{ p: 1, overflowX: "auto" }}>
          {week.current && rows.length === 0 && <Alert severity="info">{translate("sia.timesheet_grid.no_rows")}</Alert>}
          <HoursGrid
            rows={rows}
            days={days}
            holidays={holidaySet}
            frozenDays={frozenDays}
            byCell={byCell}
            texts={texts}
            invalid={parsed.invalid}
            serverErrors={serverErrors}
            onChange={(id, text) => {
              setTexts((t) => {
                const current = formatCellMinutes(cellMinutes(byCell.get(id)));
                const { [id]: _gone, ...rest } = t;
                return text === current ? rest : { ...t, [id]: text };
              });
              setServerErrors(({ [id]: _gone, ...rest }) => rest);
            }}
            onSubmit={save}
            pinned={pinnedKeys}
            onPin={(row) => pinned.toggle(row.source)}
            totals={days.map((day, i) => ({
              day,
              text: translate("sia.timesheet_grid.day_total", {
                hours: formatHours(dayMinutes[i] / 60),
                expected: formatHours(expectedOf(day)),
              }),
              short: dayMinutes[i] / 60 < expectedOf(day),
              // More than a working day in one day: often a typing slip (20 for 2), so it stands out.
              over: dayMinutes[i] / 60 > Math.max(norm, WORKING_DAY_HOURS),
            }))}
            weekTotal={translate("sia.timesheet_grid.day_total", {
              hours: formatHours(weekMinutes / 60),
              expected: formatHours(days.reduce((sum, day) => sum + expectedOf(day), 0)),
            })}
          />
        </Paper>
      )}
      <ActivityDialog
        target={adding}
        employeeId={employee}
        settings={settings}
        onClose={() => setAdding(null)}
        onSubmit={async (values, labels) => {
          // The row's identity and names only (pinnedOf keeps nothing else: no times, no employee).
          const { employee_id: _employee, ...fields } = values;
          pinned.add({
            ...fields,
            project_name: labels.projectLabel,
            ownerable_name: labels.ownerLabel,
            product_name: labels.productLabel,
            activity_type_code: labels.typeCode,
          });
          setAdding(null);
        }}
      />
    </Box>
  );
}
