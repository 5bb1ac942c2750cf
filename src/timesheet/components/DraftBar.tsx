/**
 * The draft week's bar (SPEC §2 "Import buttons", §4 "Local week lifecycle"): without a draft, the imports
 * (Google Calendar, CSV, .ics); with one, «Remover semana», «Refrescar actividades» and «Guardar semana»,
 * which sends the whole draft (new activities, changes, deletions) in one request. The draft is the one of
 * the signed-in user for the employee shown (../data/useDraft.ts); what it cannot save is listed by day,
 * time, field and reason, and stays in the draft.
 */
import { Alert, Button, Dialog, DialogActions, DialogContent, DialogTitle, LinearProgress, Stack } from "@mui/material";
import { useEffect, useState } from "react";
import { Confirm, type HttpError, useNotify, useTranslate } from "react-admin";
import { useSearchParams } from "react-router-dom";
import type { Activity } from "../../core/activity";
import type { ImportType, LocalEvent } from "../../core/localEvent";
import { calendarMessages, dmy, importMessages, messages, timesheetMessages } from "../../core/messages";
import { CALENDAR_IMPORT_PARAM } from "../../core/resources";
import { sundayOf } from "../../core/week";
import { ACTIVITIES_CSV_FORMAT_URL, ImportCallError, type SiaDataProvider } from "../../dataProvider";
import type { TimesheetMutations } from "../data/mutations";
import { useGoogleCalendarAvailable } from "../data/queries";
import type { DraftStore } from "../data/useDraft";
import {
  applySaveErrors,
  type Draft,
  errorLineText,
  eventTitle,
  findConflicts,
  isEmpty,
  type KeyConflict,
  keyConflictsOf,
  newDraft,
  pendingCount,
  rebase,
  replaceDay,
  resolveKeyConflicts,
  savePayload,
  settle,
  shownEvents,
  timesProblems,
  whenOf,
} from "../model/draft";
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

const t = (key: string) => `sia.timesheet_import.${key}`;
const GOOGLE_RETURN_PARAM = "google";

type Ask = "google" | "remove" | null;

export interface DraftBarProps {
  store: DraftStore;
  dataProvider: SiaDataProvider;
  mutations: TimesheetMutations;
  /** The Monday shown. */
  weekStart: string | null;
  /** SIA's activities of the week shown, and whether they are that week's (not the previous one's). */
  activities: readonly Activity[];
  weekLoaded: boolean;
  /** Read SIA's activities of the week again. */
  refetch(): Promise<unknown>;
  /** The week is closed, or something else is running: nothing can be imported or saved. */
  disabled?: boolean;
  /** The all-day cell clicked (one-day import), and closing it. */
  day: string | null;
  onDayClose(): void;
  /** A new activity for the day clicked. */
  onCreateDay(date: string): void;
  /** Show a week in the calendar. */
  onGoToWeek(date: string): void;
  /** A field's name in Spanish (error lines). */
  fieldLabel(field: string): string;
}

/** Imported events with impossible times are marked (their reasons shown) before they are kept. */
function markImpossible(events: LocalEvent[]): LocalEvent[] {
  return events.map((e) => {
    const problems = timesProblems(e.start, e.end).filter((p) => !e.errors?.includes(p.reason));
    if (!problems.length) return e;
    // The codes stay beside their reasons (a reason without one, from before, gets none a move cures).
    const known = e.errorCodes?.length === e.errors?.length ? (e.errorCodes ?? []) : (e.errors ?? []).map(() => "invalid");
    return {
      ...e,
      isValidate: false,
      errors: [...(e.errors ?? []), ...problems.map((p) => p.reason)],
      errorCodes: [...known, ...problems.map((p) => p.code)],
    };
  });
}

export function DraftBar(props: DraftBarProps) {
  const { store, weekStart, day, dataProvider, mutations } = props;
  const draft = store.draft;
  const notify = useNotify();
  const translate = useTranslate();
  // /app/showGoogleCalendar (SPEC §2) lands here with ?importar=calendario: the calendar import opens at
  // once, unless a draft is already kept.
  const [searchParams, setSearchParams] = useSearchParams();
  const [dialog, setDialog] = useState<"ics" | "csv" | null>(() =>
    searchParams.get(CALENDAR_IMPORT_PARAM) === "calendario" && !draft ? "ics" : null,
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
  const google = useGoogleCalendarAvailable(true);
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<ImportFailure | null>(null);
  // A draft of someone else shown before (the employee picker changed): its failure is not this one's.
  const ownerKey = store.owner ? `${store.owner.userId}:${store.owner.employeeId}` : "";
  // biome-ignore lint/correctness/useExhaustiveDependencies: reset when the owner changes
  useEffect(() => setFailure(null), [ownerKey]);

  const localSaveFailed = () => setFailure({ title: messages.localSaveFailedTitle, lines: [messages.localSaveFailed] });

  /** An import's events become the draft (or replace one day of it). */
  const keep = (importType: ImportType, start: string, events: LocalEvent[], onlyDay?: string, warned = false) => {
    const owner = store.owner;
    if (!owner) return false;
    if (!events.length) {
      notify(messages.activitiesNone, { type: "warning" });
      return false;
    }
    const marked = markImpossible(events);
    const current = store.current();
    const base =
      onlyDay && current && current.startOfWeek === start
        ? current
        : newDraft(owner, importType, start, sundayOf(start), onlyDay ? [] : marked);
    const replaced = onlyDay ? replaceDay(base, onlyDay, marked) : base;
    // What SIA already holds (a re-import of saved events) is not imported again: it shows as SIA's.
    const next = start === weekStart && props.weekLoaded ? settle(replaced, props.activities) : replaced;
    if (!store.save(next)) {
      localSaveFailed();
      return false;
    }
    setFailure(null);
    // Events left out are not a success: the toast says so, beside the list of what was left out.
    if (warned) notify(messages.activitiesImportedWithWarnings, { type: "warning" });
    else notify(messages.activitiesImported, { type: "success" });
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

  /** «Refrescar actividades»: SIA's week is read again; what SIA now holds leaves the draft. */
  const refresh = async () => {
    const current = store.current();
    if (!current) return notify(messages.savedWeekNotFound, { type: "warning" });
    if (current.startOfWeek !== weekStart) return props.onGoToWeek(current.startOfWeek);
    setBusy(true);
    try {
      const result = (await props.refetch()) as { data?: Activity[]; error?: unknown };
      if (result?.error) throw result.error;
      if (result?.data && !store.save(settle(current, result.data))) localSaveFailed();
      else notify(messages.activitiesUpdatedLocally, { type: "success" });
    } catch (error) {
      notify((error as Error).message || messages.unexpected, { type: "error" });
    } finally {
      setBusy(false);
    }
  };

  const remove = () => {
    setAsk(null);
    if (!store.current()) return notify(messages.savedWeekNotFound, { type: "warning" });
    store.clear();
    setFailure(null);
    notify(messages.activitiesRemoved, { type: "success" });
  };

  /** Keeps the person's changes over another person's: re-based on SIA's current versions, then saved. */
  const keepMine = async () => {
    const current = store.current();
    if (!current) return;
    setBusy(true);
    try {
      const result = (await props.refetch()) as { data?: Activity[] };
      if (result?.data && store.save(rebase(settle(current, result.data), result.data))) {
        setFailure(null);
        notify(messages.timesheetRebased, { type: "info" });
      }
    } finally {
      setBusy(false);
    }
  };

  /** The person's choice on events another window saved differently; the week is read again either way. */
  const resolveConflicts = async (conflicts: KeyConflict[], keep: "mine" | "stored") => {
    const current = store.current();
    if (!current) return;
    setBusy(true);
    try {
      const result = (await props.refetch()) as { data?: Activity[] };
      const resolved = resolveKeyConflicts(current, conflicts, keep);
      const next = keep === "mine" ? resolved : result?.data ? settle(resolved, result.data) : resolved;
      if (!store.save(next)) return localSaveFailed();
      setFailure(null);
      notify(keep === "mine" ? timesheetMessages.importKeyKeptMine : timesheetMessages.importKeyKeptStored, {
        type: "info",
      });
    } finally {
      setBusy(false);
    }
  };

  const saveWeek = async () => {
    const current = store.current();
    if (!current) return notify(messages.savedWeekNotFound, { type: "warning" });
    if (current.startOfWeek !== weekStart || !props.weekLoaded) return props.onGoToWeek(current.startOfWeek);
    if (isEmpty(current)) {
      // Nothing left to save (what was imported is in SIA already): the week leaves draft mode and says so.
      store.clear();
      setFailure(null);
      // SPEC §8's wording, then why.
      return notify(`${messages.savedWeekNone}. ${messages.importAllSaved}`, { type: "info" });
    }
    const shown = shownEvents(current, props.activities);
    // A red new event (an import that did not resolve) is saved only once fixed: opened and confirmed
    // with «Guardar» one by one, never saved as whatever its fallback type is.
    const red = shown.filter((e) => e.activityId === undefined && !e.isValidate);
    if (red.length) {
      notify(timesheetMessages.invalidBeforeSaveTitle, { type: "warning" });
      setFailure({
        title: timesheetMessages.invalidBeforeSaveTitle,
        lines: [
          timesheetMessages.invalidBeforeSave,
          ...red.map((e) =>
            errorLineText({
              when: whenOf(e.start, e.end),
              field: null,
              reason: [eventTitle(e), ...(e.errors ?? [])].filter(Boolean).join(": "),
            }),
          ),
        ],
      });
      return;
    }
    const conflicts = findConflicts(shown, messages.activityConflict);
    if (conflicts.length) {
      notify(messages.activityConflict, { type: "error" });
      setFailure({ title: messages.weekSaveFailedTitle, lines: conflicts.map(errorLineText) });
      return;
    }
    const payload = savePayload(current, props.activities);
    setBusy(true);
    setFailure(null);
    try {
      const result = await mutations.saveWeek.mutateAsync(payload);
      const written = result.created + result.existing;
      if (
        written !== payload.creates.length ||
        result.updated.length !== payload.updates.length ||
        result.deleted.length !== payload.deletions.length
      ) {
        setFailure({
          title: messages.localSaveFailedTitle,
          lines: [messages.localSaveFailed, messages.savedCountDiffers(payload.creates.length, written)],
        });
      } else {
        store.clear();
        notify(messages.activitiesSaved, { type: "success" });
      }
    } catch (error) {
      const status = (error as HttpError).status;
      const issues = error instanceof ImportCallError ? error.issues : [];
      const refused = issues.length ? applySaveErrors(current, payload, issues, props.fieldLabel) : null;
      const keyConflicts = error instanceof ImportCallError ? keyConflictsOf(current, error.conflicts) : [];
      if (status === 409 && keyConflicts.length) {
        // Another window saved the same events differently: the person chooses, nothing is dropped silently.
        if (refused) store.save(refused.draft);
        notify(timesheetMessages.importKeyConflictTitle, { type: "error" });
        setFailure({
          title: timesheetMessages.importKeyConflictTitle,
          lines: refused?.lines.length ? refused.lines.map(errorLineText) : [timesheetMessages.importKeyTaken],
          action: { label: translate("sia.timesheet_more.keep_this_window"), run: () => resolveConflicts(keyConflicts, "mine") },
          secondAction: {
            label: translate("sia.timesheet_more.keep_other_window"),
            run: () => resolveConflicts(keyConflicts, "stored"),
          },
        });
      } else if (status === 409) {
        if (refused) store.save(refused.draft);
        setFailure({
          title: messages.timesheetStaleTitle,
          lines: refused?.lines.length ? refused.lines.map(errorLineText) : [messages.staleVersion],
          action: { label: translate(t("keep_mine")), run: keepMine },
        });
      } else if (refused) {
        if (!store.save(refused.draft)) localSaveFailed();
        setFailure({ title: messages.weekSaveFailedTitle, lines: refused.lines.map(errorLineText) });
        notify(messages.weekSaveFailedTitle, { type: "error" });
      } else importFailed(error);
    } finally {
      setBusy(false);
    }
  };

  const onShownWeek = !!draft && draft.startOfWeek === weekStart;
  const pending = draft ? pendingCount(draft) : 0;
  const invalid = draft && onShownWeek ? shownEvents(draft, props.activities).filter((e) => !e.isValidate).length : 0;

  return (
    <>
      {draft ? (
        <>
          {!onShownWeek && (
            <Button size="small" variant="outlined" onClick={() => props.onGoToWeek(draft.startOfWeek)} data-testid="go-to-draft">
              {`${translate(t("go_to_week"))} ${draft.startOfWeek} – ${draft.endOfWeek}`}
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
          {google && (
            <Button
              size="small"
              variant="outlined"
              onClick={() => setAsk("google")}
              disabled={busy || props.disabled || !weekStart}
            >
              {translate(t("import_google"))}
            </Button>
          )}
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
      {(busy || draft || failure) && (
        <Stack sx={{ width: "100%" }} spacing={1}>
          {busy && <LinearProgress data-testid="saved-week-progress" />}
          {mutations.saveWeek.isPaused && (
            <Alert severity="warning" data-testid="week-save-offline">
              {timesheetMessages.offlineWeekSave}
            </Alert>
          )}
          {draft && (
            <Alert severity={invalid ? "warning" : "info"} data-testid="saved-week-info">
              {translate(t("saved_week_info"), { type: draft.importType, smart_count: pending })}
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
          if (keep("ICS", weekStart, events, undefined, warnings.length > 0) || warnings.length) {
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
        google={google}
        draft={draft}
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
 * events replace only that day's new events), or a new activity for the day.
 */
function DayImportDialog(
  props: DraftBarProps & {
    draft: Draft | null;
    /** Google Calendar can be read on this server. */
    google: boolean;
    onGoogle(): void;
    keep(type: ImportType, start: string, events: LocalEvent[], onlyDay?: string, warned?: boolean): boolean;
    /** What the file held but could not be read, shown once the day is imported. */
    onWarnings(warnings: string[]): void;
    busy: boolean;
  },
) {
  const { day, draft, weekStart, dataProvider } = props;
  const translate = useTranslate();
  const notify = useNotify();
  // A draft of another week: only a new activity (its day cannot join that week).
  const otherWeek = !!draft && draft.startOfWeek !== weekStart;
  if (otherWeek && day)
    return (
      <Dialog open onClose={props.onDayClose} data-testid="day-import-dialog">
        <DialogTitle>{translate(t("day_title"), { day: dmy(day) })}</DialogTitle>
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
      title={translate(t("day_title"), { day: day ? dmy(day) : "" })}
      accept=".ics,text/calendar"
      isValidFile={isIcsFile}
      failureTitle={messages.importFailedTitle}
      onClose={props.onDayClose}
      extraActions={
        <>
          {props.google && (
            <Button onClick={props.onGoogle} disabled={props.busy || props.disabled}>
              {translate(t("import_google_day"))}
            </Button>
          )}
          {day && (
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
        if (props.keep(draft?.importType ?? "ICS", weekStart, events, day, warnings.length > 0) || warnings.length) {
          props.onDayClose();
          if (warnings.length) props.onWarnings(warnings);
        }
      }}
    />
  );
}
