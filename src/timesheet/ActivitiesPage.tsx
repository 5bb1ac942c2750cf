/**
 * /app/activities, the default page: the weekly timesheet (SPEC §2 "Weekly calendar", §4 freezing, §8).
 * Admins choose an employee (or 'Todos', read-only); everyone else sees their own week. A user with no
 * employee record is told whom to ask (SPEC §6). Loaded lazily (src/admin/AdminApp.tsx) so the admin
 * lists never load FullCalendar.
 */
import type FullCalendar from "@fullcalendar/react";
import DeleteIcon from "@mui/icons-material/Delete";
import { Alert, Box, Button, CircularProgress, MenuItem, Paper, Stack, TextField } from "@mui/material";
import { useCallback, useEffect, useMemo, useRef, useState } from "react";
import {
  Confirm,
  HttpError,
  type Identifier,
  Title,
  useDataProvider,
  useNotify,
  usePermissions,
  useTranslate,
} from "react-admin";
import { ACTIVITIES_CSV_TIMEOUT_MS, CALENDAR } from "../core/constants";
import type { LocalEvent } from "../core/localEvent";
import { messages } from "../core/messages";
import type { SessionUser } from "../core/session";
import { hhmm, localDate, sundayOf, zonedTime } from "../core/week";
import type { ActivitySkipped, FreezeVerb, SiaDataProvider } from "../dataProvider";
import { isLocked } from "./colors";
import {
  ActivityDialog,
  type ActivityDialogTarget,
  type ActivityFormValues,
  type AppSettingsLite,
  type ChoiceLabels,
} from "./components/form";
import { saveBlob } from "./downloads";
import { defaultChoice, employeeChoicesParams, isTimesheetAdmin, openingWeekStart, SETTINGS_ID } from "./early";
import { SavedWeekBar } from "./SavedWeekBar";
import { SummaryBar } from "./SummaryBar";
import { duplicateEvent, removeEvent, updateEvent } from "./savedWeek";
import { hoursByDay } from "./totals";
import { useSavedWeek } from "./useSavedWeek";
import { type Activity, type EmployeeChoice, useWeekActivities } from "./useWeekActivities";
import { WeekCalendar } from "./WeekCalendar";

const COPY_FIELDS = [
  "action_type",
  "description",
  "activity_type_catalog_id",
  "ownerable_id",
  "ownerable_type",
  "project_id",
  "product_catalog_id",
  "short_title",
  "ticket_id",
  "ticket_name",
] as const;
const copyOf = (a: Partial<Record<(typeof COPY_FIELDS)[number], unknown>>) =>
  Object.fromEntries(COPY_FIELDS.map((k) => [k, a[k] ?? null]));
const NO_EVENTS: LocalEvent[] = [];

/** A local event as the dialog's initial fields (same names as an activity). */
function templateOfLocal(e: LocalEvent): Partial<Activity> {
  return {
    action_type: e.actionType,
    description: e.description,
    activity_type_catalog_id: e.activityTypeCatalogId,
    ownerable_id: e.clientId,
    ownerable_type: e.ownerableType,
    ownerable_name: e.clientName,
    project_id: e.projectId,
    project_code: e.project_code,
    project_name: e.projectName,
    product_catalog_id: e.productId,
    ticket_id: e.ticketId,
    ticket_name: e.ticketName,
    is_favorite: e.favorite,
    short_title: e.shortTitle,
  };
}

/** The dialog's values → the local event's changes (SPEC §3 names). */
function localChanges(values: ActivityFormValues, labels: ChoiceLabels): Partial<LocalEvent> {
  return {
    start: values.begins_at,
    end: values.ends_at,
    description: values.description,
    actionType: values.action_type,
    activityTypeCatalogId: values.activity_type_catalog_id,
    clientId: values.ownerable_id,
    clientName: labels.ownerLabel,
    ownerableType: values.ownerable_type,
    projectId: values.project_id,
    projectName: labels.projectLabel,
    productId: values.product_catalog_id,
    ticketId: values.ticket_id,
    ticketName: values.ticket_name,
    favorite: values.is_favorite,
  };
}

/** What the dialog shows, and what it was opened on. */
interface Opened {
  target: ActivityDialogTarget;
  activity?: Activity;
  local?: LocalEvent;
}
const errorText = (error: unknown) => (error as HttpError)?.message || messages.unexpected;

type Pending =
  | { kind: "delete"; activity: Activity }
  | { kind: "freeze"; verb: FreezeVerb; title: string; content: string }
  | null;

const FREEZE_LABELS: Record<FreezeVerb, string> = {
  close_activities: "Cerrar semana",
  open_activities: "Abrir semana",
  close_month_activities: "Cerrar mes",
  open_month_activities: "Abrir mes",
};

export default function ActivitiesPage() {
  const { permissions } = usePermissions<SessionUser | null>();
  const dataProvider = useDataProvider<SiaDataProvider>();
  const notify = useNotify();
  const calendarRef = useRef<FullCalendar>(null);
  const trashRef = useRef<HTMLDivElement>(null);

  const me = permissions ?? null;
  const isAdmin = isTimesheetAdmin(me);
  const ownEmployee = me?.employee?.id ?? null;
  const [choice, setChoice] = useState<EmployeeChoice>(() => defaultChoice(me));
  const [employees, setEmployees] = useState<{ id: number; name: string }[]>([]);
  // The calendar's opening week, known before it mounts (its datesSet then reports the same date), so
  // the week's data is asked for at once (src/timesheet/early.ts may even have it already).
  const [weekStart, setWeekStart] = useState<string | null>(() => openingWeekStart());
  const translate = useTranslate();
  const [opened, setOpened] = useState<Opened | null>(null);
  const [pending, setPending] = useState<Pending>(null);
  const [settings, setSettings] = useState<AppSettingsLite>({});
  const [skipped, setSkipped] = useState<ActivitySkipped[] | null>(null);
  const [downloading, setDownloading] = useState<"activities" | "personal" | null>(null);
  const [busy, setBusy] = useState(false);

  // Who is shown: admins default to themselves (or everyone when they have no employee record).
  useEffect(() => {
    if (!me || choice !== null) return;
    const initial = defaultChoice(me);
    if (initial !== null) setChoice(initial);
  }, [me, choice]);

  useEffect(() => {
    if (!me) return;
    dataProvider
      .getOne("app_settings", { id: SETTINGS_ID })
      .then((r) => setSettings(r.data as AppSettingsLite))
      .catch(() => undefined);
    if (isAdmin)
      dataProvider
        .getList("employees", employeeChoicesParams)
        .then((r) => setEmployees(r.data as never))
        .catch(() => undefined);
  }, [dataProvider, me, isAdmin]);

  const { activities, setActivities, holidays, loading, reload } = useWeekActivities(weekStart, choice);
  const holidaySet = useMemo(() => new Set(holidays.map((h) => h.date)), [holidays]);
  // The local saved week (SPEC §4): while it is the week shown, its events are shown instead of the server's.
  const saved = useSavedWeek();
  const [importDay, setImportDay] = useState<string | null>(null);
  const localMode = !!saved.week && saved.week.startOfWeek === weekStart;
  const localEvents = localMode ? (saved.week?.events ?? NO_EVENTS) : NO_EVENTS;
  const shown = useMemo(
    () =>
      localMode
        ? localEvents.map(
            (e, i) =>
              ({
                id: -(i + 1),
                employee_id: 0,
                begins_at: e.start,
                ends_at: e.end,
                description: e.description,
                action_type: e.actionType,
              }) as Activity,
          )
        : activities,
    [localMode, localEvents, activities],
  );
  const perDay = useMemo(() => hoursByDay(shown), [shown]);
  const chosenEmployee: Identifier | null = choice === "todos" ? null : choice;
  const readOnly = choice === "todos" || choice === null;
  const viewingOwn = chosenEmployee !== null && chosenEmployee === ownEmployee;

  const isOverTrash = useCallback((x: number, y: number) => {
    const r = trashRef.current?.getBoundingClientRect();
    return !!r && x >= r.left && x <= r.right && y >= r.top && y <= r.bottom;
  }, []);

  const openCreate = useCallback(({ date, start, end }: { date: string; start?: Date; end?: Date }) => {
    let begins = start ?? zonedTime(date, toMinutes(CALENDAR.defaultAllDayStart));
    let ends = end ?? zonedTime(date, toMinutes(CALENDAR.defaultAllDayEnd));
    // A single click selects one 15-minute slot: offer an hour (within the day).
    if (start && end && end.getTime() - start.getTime() <= CALENDAR.slotMinutes * 60_000) {
      const dayEnd = zonedTime(date, 24 * 60).getTime();
      ends = new Date(Math.min(start.getTime() + 3_600_000, dayEnd));
      begins = start;
    }
    setOpened({ target: { mode: "create", initial: {}, begins, ends } });
  }, []);

  const move = useCallback(
    async (activity: Activity, start: Date, end: Date, revert: () => void) => {
      try {
        const { data } = await dataProvider.update<Activity>("activities", {
          id: activity.id,
          data: { begins_at: start.toISOString(), ends_at: end.toISOString(), lock_version: activity.lock_version },
          previousData: {} as never,
        });
        setActivities((list) => list.map((a) => (a.id === activity.id ? { ...a, ...data } : a)));
        notify(messages.activityEdited, { type: "success" });
      } catch (error) {
        revert();
        notify(errorText(error), { type: "error" });
      }
    },
    [dataProvider, notify, setActivities],
  );

  const duplicate = useCallback(
    async (source: Activity, start: Date, end: Date) => {
      try {
        await dataProvider.create("activities", {
          data: {
            ...copyOf(source),
            begins_at: start.toISOString(),
            ends_at: end.toISOString(),
            employee_id: source.employee_id,
          },
        });
        notify(messages.activitiesAllAdded, { type: "success" });
      } catch (error) {
        notify(errorText(error), { type: "error" });
      }
      reload();
    },
    [dataProvider, notify, reload],
  );

  /** A change of the saved week; a full quota keeps the previous one and says so (SPEC §8 'Error'). */
  const changeLocal = (next: ReturnType<typeof updateEvent>, success?: string) => {
    if (!next) {
      notify(messages.activityNotFoundForUpdate, { type: "warning" });
      return false;
    }
    if (!saved.persist(next)) {
      notify(`${messages.localSaveFailedTitle}: ${messages.localSaveFailed}`, { type: "error" });
      return false;
    }
    if (success) notify(success, { type: "success" });
    return true;
  };
  const currentWeek = () => {
    const week = saved.current();
    if (!week) notify(messages.savedWeekNotFound, { type: "warning" });
    return week;
  };
  const moveLocal = (event: LocalEvent, start: Date, end: Date) => {
    const week = currentWeek();
    if (week)
      changeLocal(
        updateEvent(week, event.id, { start: start.toISOString(), end: end.toISOString() }),
        messages.activitiesUpdatedLocally,
      );
  };
  const duplicateLocal = (event: LocalEvent, start: Date, end: Date) => {
    const week = currentWeek();
    if (week) changeLocal(duplicateEvent(week, event.id, start, end), messages.activitiesUpdatedLocally);
  };
  const removeLocal = (event: LocalEvent) => {
    const week = currentWeek();
    if (week && changeLocal(removeEvent(week, event.id), messages.activitiesUpdatedLocally)) setOpened(null);
  };

  // The dialog's writes: a local event into the saved week, an activity to the server. A refusal is
  // thrown back to the dialog, which keeps what was typed and shows why.
  const submitActivity = async (values: ActivityFormValues, labels: ChoiceLabels) => {
    if (opened?.local) {
      const week = currentWeek();
      if (
        !week ||
        !changeLocal(updateEvent(week, opened.local.id, localChanges(values, labels)), messages.activitiesUpdatedLocally)
      )
        throw new HttpError(messages.localSaveFailed, 0, {});
    } else if (opened?.activity) {
      await dataProvider.update("activities", {
        id: opened.activity.id,
        data: { ...values, lock_version: opened.activity.lock_version },
        previousData: {} as never,
      });
      notify(messages.activityEdited, { type: "success" });
      reload();
    } else {
      await dataProvider.create("activities", { data: values });
      notify(messages.activitiesAllAdded, { type: "success" });
      reload();
    }
    setOpened(null);
  };
  const deleteActivity = async () => {
    if (opened?.local) return removeLocal(opened.local);
    if (!opened?.activity) return;
    await dataProvider.delete("activities", { id: opened.activity.id, previousData: opened.activity });
    notify(messages.activityDeleted, { type: "success" });
    setOpened(null);
    reload();
  };
  const openActivity = (a: Activity) =>
    setOpened({
      activity: a,
      target: {
        mode: "edit",
        initial: a,
        begins: new Date(a.begins_at),
        ends: new Date(a.ends_at),
        readOnlyReason: isLocked(a)
          ? messages.activityFrozen
          : readOnly
            ? translate("sia.activity_form.all_employees_read_only")
            : null,
        canDuplicate: !readOnly,
      },
    });
  const goToWeek = (date: string) => calendarRef.current?.getApi().gotoDate(date);

  const trash = useCallback(
    (activity: Activity) => {
      if (isLocked(activity)) notify(messages.activityFrozen, { type: "warning" });
      else setPending({ kind: "delete", activity });
    },
    [notify],
  );

  const confirmPending = async () => {
    const p = pending;
    setPending(null);
    if (!p) return;
    setBusy(true);
    try {
      if (p.kind === "delete") {
        await dataProvider.delete("activities", { id: p.activity.id, previousData: p.activity });
        notify(messages.activityDeleted, { type: "success" });
      } else if (weekStart) {
        const r = await dataProvider.freezeActivities(p.verb, weekStart, isAdmin ? chosenEmployee : undefined);
        notify(r.message, { type: "success" });
      }
    } catch (error) {
      notify(errorText(error), { type: "error" });
    } finally {
      setBusy(false);
      reload();
    }
  };

  const copyPreviousWeek = async () => {
    if (!weekStart) return;
    setBusy(true);
    setSkipped(null);
    try {
      const r = await dataProvider.copyPreviousWeek(weekStart, isAdmin ? chosenEmployee : undefined);
      notify(r.message, { type: r.created ? "success" : "info" });
      if (r.skipped.length) setSkipped(r.skipped);
    } catch (error) {
      notify(errorText(error), { type: "error" });
    } finally {
      setBusy(false);
      reload();
    }
  };

  const download = async (kind: "activities" | "personal") => {
    if (!weekStart) return;
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(), ACTIVITIES_CSV_TIMEOUT_MS);
    setDownloading(kind);
    try {
      const { blob, filename } = await dataProvider.downloadActivitiesCsv(
        kind,
        {
          "by_begins_at[start_date]": weekStart,
          "by_begins_at[end_date]": sundayOf(weekStart),
          by_employee: kind === "activities" && isAdmin ? (choice ?? "todos") : undefined,
        },
        controller.signal,
      );
      saveBlob(blob, filename);
      notify(messages.activitiesCsvDownloaded, { type: "success" });
    } catch (error) {
      notify((error as Error).name === "AbortError" ? messages.unexpected : errorText(error), { type: "error" });
    } finally {
      clearTimeout(timer);
      setDownloading(null);
    }
  };

  const askFreeze = (verb: FreezeVerb) =>
    setPending({
      kind: "freeze",
      verb,
      title: FREEZE_LABELS[verb],
      content:
        verb === "close_activities" && !isAdmin ? messages.confirmCloseWeek : `¿Deseas ${FREEZE_LABELS[verb].toLowerCase()}?`,
    });

  if (me && !me.employee && !isAdmin) {
    return (
      <Alert severity="warning" sx={{ mt: 2 }} data-testid="no-employee">
        {messages.noEmployee}
      </Alert>
    );
  }

  return (
    <Box sx={{ mt: 1 }}>
      <Title title="Actividades de la semana" />
      {me && !me.employee && (
        <Alert severity="warning" sx={{ mb: 1 }} data-testid="no-employee">
          {messages.noEmployee}
        </Alert>
      )}
      <Paper sx={{ p: 1.5, mb: 1 }}>
        <Stack direction="row" spacing={1} sx={{ flexWrap: "wrap", alignItems: "center", rowGap: 1 }}>
          {isAdmin && (
            <TextField
              select
              size="small"
              label="Empleado"
              value={choice ?? ""}
              onChange={(e) => setChoice(e.target.value === "todos" ? "todos" : Number(e.target.value))}
              sx={{ minWidth: 240 }}
              slotProps={{ htmlInput: { "data-testid": "employee-picker" } }}
            >
              <MenuItem value="todos">Todos</MenuItem>
              {employees.map((e) => (
                <MenuItem key={e.id} value={e.id}>
                  {e.name}
                </MenuItem>
              ))}
            </TextField>
          )}
          <Button size="small" variant="outlined" onClick={copyPreviousWeek} disabled={readOnly || busy}>
            Copiar semana anterior
          </Button>
          {!readOnly && (
            <SavedWeekBar
              saved={saved}
              weekStart={weekStart}
              employeeId={chosenEmployee}
              disabled={busy}
              day={importDay}
              onDayClose={() => setImportDay(null)}
              onCreateDay={(date) => {
                setImportDay(null);
                openCreate({ date });
              }}
              onGoToWeek={goToWeek}
              onSaved={reload}
            />
          )}
          {viewingOwn && (
            <Button size="small" variant="outlined" color="error" onClick={() => askFreeze("close_activities")} disabled={busy}>
              Cerrar semana
            </Button>
          )}
          {isAdmin && chosenEmployee !== null && (
            <>
              {!viewingOwn && (
                <Button
                  size="small"
                  variant="outlined"
                  color="error"
                  onClick={() => askFreeze("close_activities")}
                  disabled={busy}
                >
                  Cerrar semana
                </Button>
              )}
              <Button size="small" variant="outlined" onClick={() => askFreeze("open_activities")} disabled={busy}>
                Abrir semana
              </Button>
              <Button
                size="small"
                variant="outlined"
                color="error"
                onClick={() => askFreeze("close_month_activities")}
                disabled={busy}
              >
                Cerrar mes
              </Button>
              <Button size="small" variant="outlined" onClick={() => askFreeze("open_month_activities")} disabled={busy}>
                Abrir mes
              </Button>
            </>
          )}
          <Box sx={{ flex: 1 }} />
          <Button
            size="small"
            onClick={() => download("activities")}
            disabled={downloading !== null}
            startIcon={downloading === "activities" ? <CircularProgress size={14} /> : undefined}
          >
            Descargar CSV
          </Button>
          <Button
            size="small"
            onClick={() => download("personal")}
            disabled={downloading !== null || !me?.employee}
            startIcon={downloading === "personal" ? <CircularProgress size={14} /> : undefined}
          >
            Reporte personal
          </Button>
        </Stack>
      </Paper>
      <Stack direction="row" spacing={1} sx={{ mb: 1, alignItems: "stretch" }}>
        <Paper sx={{ p: 1, flex: 1, display: "flex", alignItems: "center", gap: 1 }}>
          <SummaryBar activities={shown} />
          {loading && <CircularProgress size={16} />}
        </Paper>
        <Box
          ref={trashRef}
          data-testid="trash"
          sx={{
            border: "2px dashed",
            borderColor: "error.main",
            color: "error.main",
            borderRadius: 1,
            px: 2,
            py: 1,
            display: "flex",
            alignItems: "center",
            gap: 1,
            minWidth: 220,
          }}
        >
          <DeleteIcon fontSize="small" /> Arrastra aquí para eliminar
        </Box>
      </Stack>
      {skipped && (
        <Alert severity="warning" onClose={() => setSkipped(null)} sx={{ mb: 1 }} data-testid="copy-skipped">
          {messages.copySkippedSummary(skipped.length)}
          <ul style={{ margin: 0 }}>
            {skipped.map((s) => (
              <li key={`${s.begins_at}-${s.description}`}>
                {localDate(new Date(s.begins_at))} {hhmm(new Date(s.begins_at))} - {hhmm(new Date(s.ends_at))} {s.description}:{" "}
                {s.reason}
              </li>
            ))}
          </ul>
        </Alert>
      )}
      <Paper sx={{ p: 1 }}>
        <WeekCalendar
          ref={calendarRef}
          activities={localMode ? [] : activities}
          localEvents={localEvents}
          savedWeek={saved.week}
          noCreate={localMode}
          onAllDayClick={setImportDay}
          onOpenLocal={(e) =>
            setOpened({
              local: e,
              target: {
                mode: "edit",
                initial: templateOfLocal(e),
                begins: new Date(e.start),
                ends: new Date(e.end),
                errors: e.isValidate ? [] : (e.errors ?? []),
                canDuplicate: false,
              },
            })
          }
          onMoveLocal={moveLocal}
          onDuplicateLocal={duplicateLocal}
          onTrashLocal={removeLocal}
          holidays={holidaySet}
          hoursByDay={perDay}
          readOnly={readOnly}
          onWeekChange={setWeekStart}
          onCreate={openCreate}
          onOpen={openActivity}
          onMove={move}
          onDuplicate={duplicate}
          onTrash={trash}
          onWarn={(m) => notify(m, { type: "warning" })}
          isOverTrash={isOverTrash}
        />
      </Paper>
      <ActivityDialog
        target={opened?.target ?? null}
        employeeId={chosenEmployee === null ? null : Number(chosenEmployee)}
        settings={settings}
        onClose={() => setOpened(null)}
        onSubmit={submitActivity}
        onDelete={deleteActivity}
        onDuplicate={(values, begins, ends) => {
          const length = ends.getTime() - begins.getTime();
          const dayEnd = zonedTime(localDate(begins), 24 * 60).getTime();
          const start = ends.getTime() + length <= dayEnd ? ends : begins;
          // The source's names for the pickers, where the copy still names the same records.
          const a = opened?.activity;
          const same = (key: "project_id" | "ownerable_id" | "product_catalog_id") => !!a && a[key] === values[key];
          setOpened({
            target: {
              mode: "create",
              initial: {
                ...(copyOf(values) as Partial<Activity>),
                ...(same("project_id") ? { project_code: a?.project_code, project_name: a?.project_name } : {}),
                ...(same("ownerable_id") ? { ownerable_name: a?.ownerable_name } : {}),
                ...(same("product_catalog_id") ? { product_name: a?.product_name } : {}),
              },
              begins: start,
              ends: new Date(start.getTime() + length),
            },
          });
        }}
      />
      <Confirm
        isOpen={pending !== null}
        loading={busy}
        title={pending?.kind === "delete" ? "Eliminar actividad" : (pending?.title ?? "")}
        content={pending?.kind === "delete" ? messages.confirmDeleteActivity : (pending?.content ?? "")}
        confirm="Confirmar"
        cancel="Cancelar"
        onConfirm={confirmPending}
        onClose={() => setPending(null)}
      />
    </Box>
  );
}

const toMinutes = (t: string) => {
  const [h, m] = t.split(":").map(Number);
  return h * 60 + m;
};
