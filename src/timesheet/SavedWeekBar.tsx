/**
 * The local saved week's header (SPEC §2 "Header buttons", §4 "Local week lifecycle"): with no saved week the
 * imports (Google Calendar, CSV, an .ics file); with one 'Remover semana', 'Refrescar actividades' and
 * 'Guardar semana' (sort, local overlaps, POST activities/validate, POST activities/batch). Also the one-day
 * import opened from the all-day row. Every change of the saved week goes through savedWeek.ts.
 */
import { Alert, Button, Dialog, DialogActions, DialogContent, DialogTitle, LinearProgress, Stack } from "@mui/material";
import { useEffect, useState } from "react";
import { Confirm, type Identifier, useDataProvider, useNotify, useTranslate } from "react-admin";
import { useSearchParams } from "react-router-dom";
import { MAX_PER_PAGE } from "../core/constants";
import { type LocalEvent, localEventToActivity, type SavedWeek } from "../core/localEvent";
import { calendarMessages, importMessages, messages } from "../core/messages";
import { CALENDAR_IMPORT_PARAM } from "../core/resources";
import { sundayOf } from "../core/week";
import { ACTIVITIES_CSV_FORMAT_URL, ImportCallError, type SiaDataProvider } from "../dataProvider";
import {
  errorLines,
  FileImportDialog,
  FormatLink,
  type ImportFailure,
  ImportFailureAlert,
  isCsvFile,
  isIcsFile,
  needsGoogleConnection,
} from "./ImportDialogs";
import {
  eventsToSave,
  findConflicts,
  flattenBatchErrors,
  markInvalid,
  mergeServerActivities,
  newSavedWeek,
  replaceDay,
} from "./savedWeek";
import type { useSavedWeek } from "./useSavedWeek";
import type { Activity } from "./useWeekActivities";

const t = (key: string) => `sia.timesheet_import.${key}`;
const GOOGLE_RETURN_PARAM = "google";

type Ask = "google" | "remove" | null;

export interface SavedWeekBarProps {
  saved: ReturnType<typeof useSavedWeek>;
  /** The Monday shown. */
  weekStart: string | null;
  /** The employee whose week it is (admins looking at someone else). */
  employeeId: Identifier | null;
  disabled?: boolean;
  /** The all-day cell clicked (one-day import), and closing it. */
  day: string | null;
  onDayClose(): void;
  /** A new activity for the day clicked (the all-day row's former click). */
  onCreateDay(date: string): void;
  /** Show the saved week in the calendar. */
  onGoToWeek(date: string): void;
  /** The server's activities changed. */
  onSaved(): void;
}

export function SavedWeekBar(props: SavedWeekBarProps) {
  const { saved, weekStart, day } = props;
  const week = saved.week;
  const dataProvider = useDataProvider<SiaDataProvider>();
  const notify = useNotify();
  const translate = useTranslate();
  // /app/showGoogleCalendar (SPEC §2, "import from a calendar service") lands here with ?importar=calendario:
  // the calendar import opens at once, unless a week is already saved.
  const [searchParams, setSearchParams] = useSearchParams();
  const [dialog, setDialog] = useState<"ics" | "csv" | null>(() =>
    searchParams.get(CALENDAR_IMPORT_PARAM) === "calendario" && !saved.week ? "ics" : null,
  );
  const closeDialog = () => {
    setDialog(null);
    if (searchParams.has(CALENDAR_IMPORT_PARAM)) setSearchParams({}, { replace: true });
  };
  // Back from «Conectar Google Calendar» (server/modules/google/routes.ts): ?google=connected or =error.
  const googleReturn = searchParams.get(GOOGLE_RETURN_PARAM);
  useEffect(() => {
    if (!googleReturn) return;
    if (googleReturn === "connected") notify(calendarMessages.connected, { type: "success" });
    else notify(calendarMessages.connectFailed, { type: "error" });
    setSearchParams({}, { replace: true });
  }, [googleReturn, notify, setSearchParams]);
  const [ask, setAsk] = useState<Ask>(null);
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<ImportFailure | null>(null);

  const localSaveFailed = () => setFailure({ title: messages.localSaveFailedTitle, lines: [messages.localSaveFailed] });

  /** An import's events become the saved week (or replace one day of it). */
  const keep = (importType: SavedWeek["importType"], start: string, events: LocalEvent[], onlyDay?: string) => {
    if (!events.length) {
      notify(messages.activitiesNone, { type: "warning" });
      return false;
    }
    const current = saved.current();
    const base =
      onlyDay && current && current.startOfWeek === start
        ? current
        : newSavedWeek(importType, start, sundayOf(start), onlyDay ? [] : events);
    const next = onlyDay ? replaceDay(base, onlyDay, events) : base;
    if (!saved.persist(next)) {
      localSaveFailed();
      return false;
    }
    setFailure(null);
    notify(messages.activitiesImported, { type: "success" });
    props.onGoToWeek(start);
    return true;
  };

  const importFailed = (error: unknown) => {
    const lines = errorLines(error).length ? errorLines(error) : [messages.importFailed];
    setFailure({ title: messages.importFailedTitle, lines, connectGoogle: needsGoogleConnection(lines) });
  };

  const importGoogle = async () => {
    setAsk(null);
    const start = weekStart;
    if (!start) return;
    setBusy(true);
    try {
      const events = await dataProvider.importCalendar({ startDate: start, day: day ?? undefined, source: "google" });
      if (keep("GCL", start, events, day ?? undefined)) props.onDayClose();
    } catch (error) {
      importFailed(error);
      props.onDayClose();
    } finally {
      setBusy(false);
    }
  };

  const refresh = async () => {
    const current = saved.current();
    if (!current) return notify(messages.savedWeekNotFound, { type: "warning" });
    setBusy(true);
    try {
      const { data } = await dataProvider.getList<Activity>("activities", {
        pagination: { page: 1, perPage: MAX_PER_PAGE },
        sort: { field: "begins_at", order: "ASC" },
        filter: {
          "by_begins_at[start_date]": current.startOfWeek,
          "by_begins_at[end_date]": current.endOfWeek,
          by_employee: props.employeeId ?? undefined,
        },
      });
      if (saved.persist(mergeServerActivities(current, data))) {
        notify(messages.activitiesUpdatedLocally, { type: "success" });
        props.onGoToWeek(current.startOfWeek);
      } else localSaveFailed();
    } catch (error) {
      notify((error as Error).message || messages.unexpected, { type: "error" });
    } finally {
      setBusy(false);
    }
  };

  const remove = () => {
    setAsk(null);
    if (!saved.current()) return notify(messages.savedWeekNotFound, { type: "warning" });
    saved.clear();
    setFailure(null);
    notify(messages.activitiesRemoved, { type: "success" });
  };

  const saveWeek = async () => {
    const current = saved.current();
    if (!current) return notify(messages.savedWeekNotFound, { type: "warning" });
    const toSave = eventsToSave(current);
    if (!toSave.length) return notify(messages.savedWeekNone, { type: "warning" });
    const conflicts = findConflicts(current.events, messages.activityConflict);
    if (conflicts.length) {
      notify(messages.activityConflict, { type: "error" });
      setFailure({ title: messages.importFailedTitle, lines: conflicts });
      return;
    }
    const activities = toSave.map((e) => localEventToActivity(e, props.employeeId as number | null));
    setBusy(true);
    setFailure(null);
    try {
      await dataProvider.validateActivities(activities);
      const result = await dataProvider.saveActivitiesBatch(activities);
      if (result.created + result.existing !== activities.length) {
        setFailure({
          title: messages.localSaveFailedTitle,
          lines: [messages.localSaveFailed, messages.savedCountDiffers(activities.length, result.created + result.existing)],
        });
      } else {
        saved.clear();
        notify(messages.activitiesSaved, { type: "success" });
      }
      props.onSaved();
    } catch (error) {
      if (error instanceof ImportCallError && Object.keys(error.byIndex).length) {
        const byIndex = flattenBatchErrors(error.byIndex);
        if (!saved.persist(markInvalid(current, toSave, byIndex))) localSaveFailed();
        setFailure({ title: messages.importFailedTitle, lines: Object.values(byIndex).flat() });
        notify(messages.importFailedTitle, { type: "error" });
      } else importFailed(error);
    } finally {
      setBusy(false);
    }
  };

  const onShownWeek = !!week && week.startOfWeek === weekStart;
  const pending = week ? eventsToSave(week) : [];
  const invalid = pending.filter((e) => !e.isValidate).length;

  return (
    <>
      {week ? (
        <>
          {!onShownWeek && (
            <Button size="small" variant="outlined" onClick={() => props.onGoToWeek(week.startOfWeek)}>
              {`${week.startOfWeek} – ${week.endOfWeek}`}
            </Button>
          )}
          <Button size="small" variant="outlined" color="error" onClick={() => setAsk("remove")} disabled={busy}>
            {translate(t("remove_week"))}
          </Button>
          <Button size="small" variant="outlined" onClick={refresh} disabled={busy}>
            {translate(t("refresh"))}
          </Button>
          <Button size="small" variant="contained" onClick={saveWeek} disabled={busy || props.disabled}>
            {translate(t("save_week"))}
          </Button>
        </>
      ) : (
        <>
          <Button
            size="small"
            variant="outlined"
            onClick={() => setAsk("google")}
            disabled={busy || props.disabled || !weekStart}
          >
            {translate(t("import_google"))}
          </Button>
          <Button
            size="small"
            variant="outlined"
            onClick={() => setDialog("csv")}
            disabled={busy || props.disabled || !weekStart}
          >
            {translate(t("import_csv"))}
          </Button>
          <Button
            size="small"
            variant="outlined"
            onClick={() => setDialog("ics")}
            disabled={busy || props.disabled || !weekStart}
          >
            {translate(t("import_ics"))}
          </Button>
        </>
      )}
      {(busy || week || failure) && (
        <Stack sx={{ width: "100%" }} spacing={1}>
          {busy && <LinearProgress data-testid="saved-week-progress" />}
          {week && (
            <Alert severity={invalid ? "warning" : "info"} data-testid="saved-week-info">
              {translate(t("saved_week_info"), { type: week.importType, count: pending.length })}
              {invalid ? ` ${translate(t("invalid_count"), { count: invalid })}` : ""}
            </Alert>
          )}
          <ImportFailureAlert failure={failure} onClose={() => setFailure(null)} />
        </Stack>
      )}

      <FileImportDialog
        open={dialog === "ics"}
        title={translate(t("week_title"))}
        accept=".ics,text/calendar"
        isValidFile={isIcsFile}
        failureTitle={messages.importFailedTitle}
        onClose={closeDialog}
        onImport={async (file) => {
          if (!weekStart) return;
          let warnings: string[] = [];
          const events = await dataProvider.importCalendar({ startDate: weekStart, file, onWarnings: (w) => (warnings = w) });
          // What was skipped is shown whether or not anything was imported: a week that comes back empty
          // must say why.
          if (keep("ICS", weekStart, events) || warnings.length) {
            closeDialog();
            if (warnings.length) setFailure({ title: importMessages.icsWarningsTitle, lines: warnings, severity: "warning" });
          }
        }}
      />
      <FileImportDialog
        open={dialog === "csv"}
        title={translate(t("csv_title"))}
        accept=".csv,text/csv"
        isValidFile={isCsvFile}
        confirmText={messages.confirmCsvImport}
        failureTitle={messages.csvImportErrorsTitle}
        onClose={closeDialog}
        onImport={async (file) => {
          if (!weekStart) return;
          const events = await dataProvider.importActivitiesCsv(file, weekStart);
          if (keep("CSV", weekStart, events)) closeDialog();
        }}
      >
        <FormatLink href={ACTIVITIES_CSV_FORMAT_URL} />
      </FileImportDialog>
      <DayImportDialog
        {...props}
        onGoogle={() => setAsk("google")}
        keep={keep}
        onWarnings={(lines) => setFailure({ title: importMessages.icsWarningsTitle, lines, severity: "warning" })}
        busy={busy}
      />
      <Confirm
        isOpen={ask !== null}
        loading={busy}
        title={ask === "remove" ? translate(t("remove_week")) : translate(t("import_google"))}
        content={ask === "remove" ? messages.confirmRemoveWeek : messages.confirmGoogleImport}
        confirm={translate(t("confirm"))}
        cancel={translate(t("cancel"))}
        onConfirm={ask === "remove" ? remove : importGoogle}
        onClose={() => setAsk(null)}
      />
    </>
  );
}

/**
 * The all-day row's dialog ('Importar el día'): an .ics file or Google Calendar for that day only (its
 * events replace only that day's), or a new activity for the day.
 */
function DayImportDialog(
  props: SavedWeekBarProps & {
    onGoogle(): void;
    keep(type: SavedWeek["importType"], start: string, events: LocalEvent[], onlyDay?: string): boolean;
    /** What the file held but could not be read, shown once the day is imported. */
    onWarnings(warnings: string[]): void;
    busy: boolean;
  },
) {
  const { day, saved, weekStart } = props;
  const translate = useTranslate();
  const dataProvider = useDataProvider<SiaDataProvider>();
  const notify = useNotify();
  // A saved week of another week: only a new activity (its day cannot join that week).
  const otherWeek = !!saved.week && saved.week.startOfWeek !== weekStart;
  if (otherWeek && day)
    return (
      <Dialog open onClose={props.onDayClose} data-testid="day-import-dialog">
        <DialogTitle>{translate(t("day_title"), { day })}</DialogTitle>
        <DialogContent>
          <Alert severity="info">{messages.savedWeekNotFound}</Alert>
        </DialogContent>
        <DialogActions>
          <Button onClick={props.onDayClose}>{translate(t("cancel"))}</Button>
          <Button onClick={() => props.onCreateDay(day)}>{translate(t("new_activity"))}</Button>
        </DialogActions>
      </Dialog>
    );
  return (
    <FileImportDialog
      open={day !== null}
      title={translate(t("day_title"), { day: day ?? "" })}
      accept=".ics,text/calendar"
      isValidFile={isIcsFile}
      failureTitle={messages.importFailedTitle}
      onClose={props.onDayClose}
      extraActions={
        <>
          <Button onClick={props.onGoogle} disabled={props.busy}>
            {translate(t("import_google_day"))}
          </Button>
          {day && !saved.week && (
            <Button onClick={() => props.onCreateDay(day)} disabled={props.busy}>
              {translate(t("new_activity"))}
            </Button>
          )}
        </>
      }
      onImport={async (file) => {
        if (!day || !weekStart) {
          notify(messages.noDaySelected, { type: "warning" });
          return;
        }
        let warnings: string[] = [];
        const events = await dataProvider.importCalendar({ startDate: weekStart, day, file, onWarnings: (w) => (warnings = w) });
        if (props.keep(saved.week?.importType ?? "ICS", weekStart, events, day) || warnings.length) {
          props.onDayClose();
          if (warnings.length) props.onWarnings(warnings);
        }
      }}
    />
  );
}
