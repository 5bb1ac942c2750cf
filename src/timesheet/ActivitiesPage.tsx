/**
 * /app/activities, the default page: the weekly timesheet (SPEC §2 "Weekly calendar", §4 freezing, §8).
 * Admins choose an employee (or 'Todos', read-only); everyone else sees their own week. A user with no
 * employee record is told whom to ask (SPEC §6). Loaded lazily (src/admin/AdminApp.tsx) so the admin
 * lists never load FullCalendar.
 *
 * One data path: SIA's week comes from react-query (./data/queries.ts), every change goes through a
 * mutation (./data/mutations.ts) that invalidates it; a kept draft week (./data/useDraft.ts, keyed by the
 * signed-in user and the employee shown) is shown derived from SIA's week (./model/draft.ts) and saved in
 * one request. The page only composes: the pieces are in ./components.
 */
import type FullCalendar from "@fullcalendar/react";
import { Alert, Box, CircularProgress, Paper, Stack } from "@mui/material";
import { useCallback, useEffect, useMemo, useRef, useState } from "react";
import { Confirm, HttpError, Title, useDataProvider, useNotify, usePermissions, useTranslate } from "react-admin";
import { useSearchParams } from "react-router-dom";
import { SiaDatePicker } from "../admin/common/DatePickerInput";
import { type Activity, copyOfActivity, localEventChanges, templateOfLocal } from "../core/activity";
import { pickFields } from "../core/changedFields";
import { CALENDAR } from "../core/constants";
import { messages } from "../core/messages";
import type { SessionUser } from "../core/session";
import { isDateInRange, localDate, zonedTime } from "../core/week";
import type { ImportCallError, SiaDataProvider } from "../dataProvider";
import { CopyWeekButton } from "./components/CopyWeekButton";
import { DraftBar } from "./components/DraftBar";
import { FreezeButtons, ReturnedNotice } from "./components/FreezeButtons";
import {
  ActivityDialog,
  type ActivityDialogTarget,
  type ActivityFormValues,
  activityFieldLabel,
  type ChoiceLabels,
} from "./components/form";
import { PhoneFold, usePhone, useSwipe } from "./components/PhoneDay";
import { SummaryBar } from "./components/SummaryBar";
import { Downloads, EmployeePicker } from "./components/Toolbar";
import { TrashZone } from "./components/TrashZone";
import { ViewSwitch } from "./components/ViewSwitch";
import { WeekCalendar } from "./components/WeekCalendar";
import type { EmployeeChoice } from "./data/keys";
import { useTimesheetMutations } from "./data/mutations";
import { useEmployeeChoices, useHolidays, useSettings, useWeekActivities, useWeekState } from "./data/queries";
import { useDraft } from "./data/useDraft";
import { isLocked } from "./model/colors";
import { addEvent, changeEvent, type Draft, duplicateEvent, removeEvent, type ShownEvent, shownEvents } from "./model/draft";
import { hoursByDay, type Timed } from "./model/totals";
import type { WeekItem } from "./model/weekItem";
import { askedWeekStart, defaultChoice, isTimesheetAdmin, rememberChoice, WEEK_PARAM } from "./model/who";

const NO_EVENTS: ShownEvent[] = [];
/**
 * The rules' own refusals of a one-change week (without the times' prefix). A 409 has none worth showing:
 * its item names the activity by its id; the answer's own message says what happened.
 */
const ruleIssues = (error: unknown) => ((error as HttpError)?.status === 409 ? [] : ((error as ImportCallError)?.issues ?? []));
/** A refusal in a toast. */
const errorText = (error: unknown) => ruleIssues(error)[0]?.message || (error as HttpError)?.message || messages.unexpected;
/**
 * A refusal of a one-change week as the form shows it: each rule's message under its field (the week
 * save keys them by item and prefixes the times, which the form already shows).
 */
const formRefusal = (error: unknown) => {
  const issues = ruleIssues(error);
  if (!issues.length) return error;
  const errors: Record<string, string[]> = {};
  for (const { field, message } of issues) errors[field] = [...(errors[field] ?? []), message];
  return new HttpError(issues[0].message, (error as HttpError).status, { errors });
};
const toMinutes = (t: string) => {
  const [h, m] = t.split(":").map(Number);
  return h * 60 + m;
};
const timedOf = (e: ShownEvent): Timed => ({ begins_at: e.start, ends_at: e.end, action_type: e.actionType });

/** What the dialog is open on: an activity in SIA, an event of the draft, or nothing yet (a new one). */
interface Target {
  dialog: ActivityDialogTarget;
  activity?: Activity;
  shown?: ShownEvent;
}

export default function ActivitiesPage() {
  const { permissions } = usePermissions<SessionUser | null>();
  const dataProvider = useDataProvider<SiaDataProvider>();
  const notify = useNotify();
  const mutations = useTimesheetMutations();
  const calendarRef = useRef<FullCalendar>(null);
  const trashRef = useRef<HTMLDivElement>(null);

  const me = permissions ?? null;
  const isAdmin = isTimesheetAdmin(me);
  const ownEmployee = me?.employee?.id ?? null;
  const [choice, setChoice] = useState<EmployeeChoice>(() => defaultChoice(me));
  // The calendar's opening week, known before it mounts (its datesSet then reports the same date), so the
  // week's data is asked for at once (./data/prefetch.ts may even have it already).
  // ?semana= names another week (the «Calendario | Cuadrícula» switch keeps the week shown).
  const [params] = useSearchParams();
  const [openingWeek] = useState(() => askedWeekStart(params.get(WEEK_PARAM)));
  const [weekStart, setWeekStart] = useState<string | null>(openingWeek);
  const [target, setTarget] = useState<Target | null>(null);
  const [trashing, setTrashing] = useState<Activity | null>(null);
  const [importDay, setImportDay] = useState<string | null>(null);
  const [jumpDate, setJumpDate] = useState<string | null>(null);
  const translate = useTranslate();
  const phone = usePhone();
  const view = phone ? "timeGridDay" : "timeGridWeek";
  useEffect(() => calendarRef.current?.getApi().changeView(view), [view]);
  const swipe = useSwipe(
    () => calendarRef.current?.getApi().prev(),
    () => calendarRef.current?.getApi().next(),
  );

  // Who is shown: admins default to themselves (or everyone when they have no employee record).
  useEffect(() => {
    if (!me || choice !== null) return;
    const initial = defaultChoice(me);
    if (initial !== null) setChoice(initial);
  }, [me, choice]);
  // The employee an admin chose stays chosen in this tab, across the calendar, the grid and a reload.
  useEffect(() => rememberChoice(me, choice), [me, choice]);

  const employees = useEmployeeChoices(isAdmin);
  const settings = useSettings(!!me);
  const read = useWeekActivities(weekStart, choice);
  // The week as read, with the direct edits still on their way drawn where they go (the keys read it).
  const { withEdits } = mutations;
  const editedActivities = useMemo(() => withEdits(read.activities), [withEdits, read.activities]);
  const week = { ...read, activities: editedActivities };
  const holidays = useHolidays(weekStart);
  const holidaySet = useMemo(() => new Set(holidays.map((h) => h.date)), [holidays]);
  const chosenEmployee = choice === "todos" || choice === null ? null : Number(choice);
  const weekState = useWeekState(weekStart, chosenEmployee);
  const readOnly = chosenEmployee === null;
  const closed = !!weekState?.frozen;
  const closedReason = closed
    ? weekState?.frozen_kind === "month"
      ? messages.timesheetMonthClosed
      : messages.timesheetWeekClosed
    : null;
  const viewingOwn = chosenEmployee !== null && chosenEmployee === ownEmployee;

  // The draft of the signed-in user for the employee shown: nobody else's is ever read.
  const owner = useMemo(
    () => (me && chosenEmployee !== null ? { userId: Number(me.id), employeeId: chosenEmployee } : null),
    [me, chosenEmployee],
  );
  const store = useDraft(owner);
  const draft = store.draft;
  const draftMode = !!draft && draft.startOfWeek === weekStart;
  const shown = useMemo(
    () => (draftMode && draft ? shownEvents(draft, week.current ? week.activities : []) : NO_EVENTS),
    [draftMode, draft, week.current, week.activities],
  );
  const timed = useMemo<ReadonlyArray<Timed>>(
    () => (draftMode ? shown.map(timedOf) : week.activities),
    [draftMode, shown, week.activities],
  );
  const perDay = useMemo(() => hoursByDay(timed), [timed]);

  const isOverTrash = useCallback((x: number, y: number) => {
    const r = trashRef.current?.getBoundingClientRect();
    return !!r && x >= r.left && x <= r.right && y >= r.top && y <= r.bottom;
  }, []);
  const goToWeek = (date: string) => calendarRef.current?.getApi().gotoDate(date);
  // A link followed while the timesheet is open (the bell's «Semana devuelta») names another week: show it.
  const askedWeek = params.get(WEEK_PARAM);
  const shownAsked = useRef(askedWeek);
  useEffect(() => {
    if (askedWeek === shownAsked.current) return;
    shownAsked.current = askedWeek;
    if (askedWeek) calendarRef.current?.getApi().gotoDate(askedWeekStart(askedWeek));
  }, [askedWeek]);
  const warn = useCallback((m: string) => notify(m, { type: "warning" }), [notify]);

  /** A change of the draft; a full quota keeps the previous one and says so (SPEC §8 'Error'). */
  const changeDraft = (next: Draft | null, success?: string) => {
    if (!next) {
      notify(messages.activityNotFoundForUpdate, { type: "warning" });
      return false;
    }
    if (!store.save(next)) {
      notify(`${messages.localSaveFailedTitle}: ${messages.localSaveFailed}`, { type: "error" });
      return false;
    }
    if (success) notify(success, { type: "success" });
    return true;
  };
  /** The draft as stored now (another tab may have changed it). */
  const currentDraft = () => {
    const stored = store.current();
    if (!stored) notify(messages.savedWeekNotFound, { type: "warning" });
    return stored;
  };

  /* ---------- opening the dialog ---------- */

  const openCreate = useCallback(
    ({ date, start, end }: { date: string; start?: Date; end?: Date }) => {
      if (readOnly) return;
      if (closedReason) return warn(closedReason);
      let begins = start ?? zonedTime(date, toMinutes(CALENDAR.defaultAllDayStart));
      let ends = end ?? zonedTime(date, toMinutes(CALENDAR.defaultAllDayEnd));
      // A single click selects one 15-minute slot: offer an hour (within the day).
      if (start && end && end.getTime() - start.getTime() <= CALENDAR.slotMinutes * 60_000) {
        const dayEnd = zonedTime(date, 24 * 60).getTime();
        ends = new Date(Math.min(start.getTime() + 3_600_000, dayEnd));
        begins = start;
      }
      setTarget({ dialog: { mode: "create", initial: {}, begins, ends } });
    },
    [readOnly, closedReason, warn],
  );

  const lockReason = (locked: boolean) =>
    readOnly ? messages.timesheetTodosReadOnly : locked ? (closedReason ?? messages.activityFrozen) : null;

  /** An event opened in the dialog: a draft's event (only drawn in draft mode) or an activity of SIA. */
  const openItem = (item: WeekItem) => {
    if (item.local) {
      const event = item.local;
      const reason = lockReason(!!event.locked);
      setTarget({
        shown: event,
        dialog: {
          mode: "edit",
          initial: templateOfLocal(event),
          begins: new Date(event.start),
          ends: new Date(event.end),
          readOnlyReason: reason,
          // A new (imported) event opens as one, with its reasons; SIA's with the reasons a save gave it.
          errors: event.activityId === undefined ? (event.errors ?? []) : event.errors?.length ? event.errors : undefined,
          canDelete: !reason,
          canDuplicate: !reason,
        },
      });
      return;
    }
    const activity = item.activity;
    const reason = lockReason(isLocked(activity));
    setTarget({
      activity,
      dialog: {
        mode: "edit",
        initial: activity,
        begins: new Date(activity.begins_at),
        ends: new Date(activity.ends_at),
        readOnlyReason: reason,
        canDelete: !reason,
        canDuplicate: !readOnly && !closedReason,
      },
    });
  };

  /* ---------- what the dialog gives back ---------- */

  const submit = async (values: ActivityFormValues, labels: ChoiceLabels, changed: (keyof ActivityFormValues)[]) => {
    if (!target) return;
    const begins = new Date(String(values.begins_at));
    const ends = new Date(String(values.ends_at));
    const local = () => ({
      ...localEventChanges(values as unknown as Record<string, unknown>, {
        project_name: labels.projectLabel,
        ownerable_name: labels.ownerLabel,
      }),
      // The calendar's title follows the edit, not the imported title it came with.
      shortTitle: null,
    });
    if (target.shown) {
      const stored = currentDraft();
      if (stored && changeDraft(changeEvent(stored, target.shown, local(), true), messages.activitiesUpdatedLocally))
        setTarget(null);
      return;
    }
    if (draftMode && target.dialog.mode === "create") {
      const stored = currentDraft();
      if (stored && changeDraft(addEvent(stored, local(), begins, ends), messages.activitiesUpdatedLocally)) setTarget(null);
      return;
    }
    if (target.activity) {
      const activity = target.activity;
      try {
        // Only what this person changed: the fields they left alone keep whatever SIA holds now.
        await mutations.edit.mutateAsync({ updates: [{ activity, data: pickFields(values, changed) }] });
      } catch (error) {
        if ((error as HttpError).status !== 409) throw formRefusal(error);
        // Someone else saved it meanwhile: the dialog shows their version with this person's changes over
        // it; the next Guardar sends those changes at the current version (the week behind shows theirs).
        const current = await dataProvider
          .getOne<Activity>("activities", { id: activity.id })
          .then((r) => r.data)
          .catch(() => undefined);
        if (!current) throw formRefusal(error);
        setTarget((t) => (t ? { ...t, activity: current } : t));
        throw new HttpError(messages.staleVersionRetry, 409, { activity: current });
      }
      notify(messages.activityEdited, { type: "success" });
    } else {
      try {
        await mutations.edit.mutateAsync({
          creates: [{ ...(values as unknown as Record<string, unknown>), employee_id: chosenEmployee }],
        });
      } catch (error) {
        throw formRefusal(error);
      }
      notify(messages.activitiesAllAdded, { type: "success" });
    }
    setTarget(null);
  };

  const deleteTarget = async () => {
    if (!target) return;
    if (target.shown) {
      const stored = currentDraft();
      if (stored && changeDraft(removeEvent(stored, target.shown), messages.activitiesUpdatedLocally)) setTarget(null);
      return;
    }
    if (target.activity) {
      try {
        await mutations.edit.mutateAsync({ deletions: [target.activity] });
      } catch (error) {
        throw formRefusal(error);
      }
      notify(messages.activityDeleted, { type: "success" });
      setTarget(null);
    }
  };

  const duplicateFromDialog = (values: ActivityFormValues, begins: Date, ends: Date) => {
    const length = ends.getTime() - begins.getTime();
    const dayEnd = zonedTime(localDate(begins), 24 * 60).getTime();
    const start = ends.getTime() + length <= dayEnd ? ends : begins;
    const { begins_at: _b, ends_at: _e, ...fields } = values as unknown as Record<string, unknown>;
    // The source's names for the pickers, where the copy still names the same records.
    const a = target?.dialog.initial ?? {};
    const same = (key: "project_id" | "ownerable_id" | "product_catalog_id") => a[key] === fields[key];
    setTarget({
      dialog: {
        mode: "create",
        initial: {
          ...fields,
          ...(same("project_id") ? { project_code: a.project_code, project_name: a.project_name } : {}),
          ...(same("ownerable_id") ? { ownerable_name: a.ownerable_name } : {}),
          ...(same("product_catalog_id") ? { product_name: a.product_name } : {}),
        } as Partial<Activity>,
        begins: start,
        ends: new Date(start.getTime() + length),
      },
    });
  };

  /*
   * ---------- calendar gestures ----------
   * One handler per gesture. A draft's event (the calendar draws only those in draft mode) changes the
   * draft, kept until «Guardar semana»; an activity (outside draft mode) is saved at once.
   */

  const moveItem = async (item: WeekItem, start: Date, end: Date, revert: () => void) => {
    if (item.local) {
      const stored = currentDraft();
      if (stored)
        changeDraft(
          changeEvent(stored, item.local, { start: start.toISOString(), end: end.toISOString() }),
          messages.activitiesUpdatedLocally,
        );
      return;
    }
    try {
      await mutations.edit.mutateAsync({
        updates: [{ activity: item.activity, data: { begins_at: start.toISOString(), ends_at: end.toISOString() } }],
      });
      notify(messages.activityEdited, { type: "success" });
    } catch (error) {
      revert();
      notify(errorText(error), { type: "error" });
    }
  };

  const duplicateItem = async (source: WeekItem, start: Date, end: Date) => {
    if (source.local) {
      const stored = currentDraft();
      if (stored) changeDraft(duplicateEvent(stored, source.local, start, end), messages.activitiesUpdatedLocally);
      return;
    }
    try {
      await mutations.edit.mutateAsync({
        creates: [
          {
            ...copyOfActivity(source.activity),
            begins_at: start.toISOString(),
            ends_at: end.toISOString(),
            employee_id: source.activity.employee_id,
          },
        ],
      });
      notify(messages.activitiesAllAdded, { type: "success" });
    } catch (error) {
      notify(errorText(error), { type: "error" });
    }
  };

  /** A draft's event leaves the draft at once; an activity is deleted once confirmed (confirmTrash). */
  const trashItem = (item: WeekItem) => {
    if (item.local) {
      const stored = currentDraft();
      if (stored) changeDraft(removeEvent(stored, item.local), messages.activitiesUpdatedLocally);
    } else if (isLocked(item.activity)) notify(messages.activityFrozen, { type: "warning" });
    else setTrashing(item.activity);
  };

  const confirmTrash = async () => {
    const activity = trashing;
    setTrashing(null);
    if (!activity) return;
    try {
      await mutations.edit.mutateAsync({ deletions: [activity] });
      notify(messages.activityDeleted, { type: "success" });
    } catch (error) {
      notify(errorText(error), { type: "error" });
    }
  };

  const freeze = async (verb: Parameters<typeof mutations.freeze.mutateAsync>[0]["verb"], date?: string, reason?: string) => {
    if (!weekStart) return;
    try {
      const r = await mutations.freeze.mutateAsync({
        verb,
        weekStart: date ?? weekStart,
        employee: isAdmin ? chosenEmployee : undefined,
        reason,
      });
      notify(r.message, { type: "success" });
    } catch (error) {
      notify(errorText(error), { type: "error" });
    }
  };
  const submitWeek = async () => {
    if (!weekStart) return;
    try {
      notify((await mutations.submit.mutateAsync({ weekStart })).message, { type: "success" });
    } catch (error) {
      notify(errorText(error), { type: "error" });
    }
  };

  if (me && !me.employee && !isAdmin) {
    return (
      <Alert severity="warning" sx={{ mt: 2 }} data-testid="no-employee">
        {messages.noEmployee}
      </Alert>
    );
  }

  const busy = mutations.freeze.isPending || mutations.submit.isPending || mutations.saveWeek.isPending;
  return (
    <Box sx={{ mt: 1 }}>
      <Title title="sia.timesheet.title" />
      {me && !me.employee && (
        <Alert severity="warning" sx={{ mb: 1 }} data-testid="no-employee">
          {messages.noEmployee}
        </Alert>
      )}
      <Paper sx={{ p: 1.5, mb: 1 }}>
        <PhoneFold phone={phone}>
          <Stack direction="row" spacing={1} sx={{ flexWrap: "wrap", alignItems: "center", rowGap: 1 }}>
            <ViewSwitch view="calendar" weekStart={weekStart} />
            {isAdmin && <EmployeePicker value={choice} employees={employees} onChange={setChoice} />}
            <CopyWeekButton
              weekStart={weekStart}
              employee={isAdmin ? chosenEmployee : undefined}
              disabled={readOnly || closed || draftMode || busy}
              reason={closedReason ?? (draftMode ? messages.timesheetDraftCopyDisabled : null)}
              mutations={mutations}
            />
            {!readOnly && (
              <DraftBar
                store={store}
                dataProvider={dataProvider}
                mutations={mutations}
                weekStart={weekStart}
                activities={week.activities}
                weekLoaded={week.current}
                refetch={week.refetch}
                disabled={busy || closed}
                day={importDay}
                onDayClose={() => setImportDay(null)}
                onCreateDay={(date) => {
                  setImportDay(null);
                  openCreate({ date });
                }}
                onGoToWeek={goToWeek}
                fieldLabel={(field) => activityFieldLabel(field) ?? field}
              />
            )}
            {(viewingOwn || (isAdmin && chosenEmployee !== null)) && (
              <FreezeButtons
                state={weekState}
                weekStart={weekStart}
                isAdmin={isAdmin}
                busy={busy}
                employeeName={employees.find((e) => Number(e.id) === chosenEmployee)?.name ?? me?.employee?.name}
                onFreeze={freeze}
                onSubmit={submitWeek}
              />
            )}
            <Box sx={{ width: "13rem" }} data-testid="go-to-date">
              <SiaDatePicker
                label={translate("sia.timesheet_more.go_to_date")}
                value={jumpDate}
                onChange={(date) => {
                  setJumpDate(date);
                  // Typed digit by digit, the year passes through 0002, 0020…: only a real date moves the week.
                  if (date && isDateInRange(date)) goToWeek(date);
                }}
              />
            </Box>
            <Box sx={{ flex: 1 }} />
            <Downloads weekStart={weekStart} employee={choice} isAdmin={isAdmin} hasEmployee={!!me?.employee} />
          </Stack>
        </PhoneFold>
      </Paper>
      <ReturnedNotice state={weekState} own={viewingOwn} />
      {/* On a phone the week's total stays in sight above the day, whatever is scrolled. */}
      <Stack
        direction="row"
        spacing={1}
        sx={{ mb: 1, alignItems: "stretch", ...(phone && { position: "sticky", top: 48, zIndex: 3 }) }}
      >
        <Paper sx={{ p: 1, flex: 1, display: "flex", alignItems: "center", gap: 1 }}>
          <SummaryBar activities={timed} />
          {week.loading && <CircularProgress size={16} />}
        </Paper>
        {/* A finger cannot drag to it: on a phone an activity is deleted from its form. */}
        {!phone && <TrashZone ref={trashRef} disabled={readOnly || closed} />}
      </Stack>
      <Paper sx={{ p: 1, ...(phone && { "& .fc-toolbar-title": { fontSize: "1.15rem" } }) }} {...(phone && swipe)}>
        <WeekCalendar
          ref={calendarRef}
          view={view}
          initialDate={params.has(WEEK_PARAM) ? openingWeek : undefined}
          activities={draftMode ? [] : week.activities}
          localEvents={shown}
          savedWeek={draftMode ? draft : null}
          onAllDayClick={closed ? undefined : setImportDay}
          holidays={holidaySet}
          hoursByDay={perDay}
          // A closed week's activities are locked one by one (red, not draggable); a click on an empty slot
          // says at once that the week is closed (openCreate), before anything is typed.
          readOnly={readOnly}
          onWeekChange={setWeekStart}
          onCreate={openCreate}
          onOpen={openItem}
          onMove={moveItem}
          onDuplicate={duplicateItem}
          onTrash={trashItem}
          onWarn={warn}
          isOverTrash={isOverTrash}
        />
      </Paper>
      <ActivityDialog
        target={target?.dialog ?? null}
        employeeId={chosenEmployee}
        settings={settings}
        onClose={() => setTarget(null)}
        onSubmit={submit}
        onDelete={deleteTarget}
        onDuplicate={duplicateFromDialog}
      />
      <Confirm
        isOpen={trashing !== null}
        title="sia.timesheet.delete_title"
        content={messages.confirmDeleteActivity}
        confirm="sia.common.confirm"
        cancel="sia.common.cancel"
        onConfirm={confirmTrash}
        onClose={() => setTrashing(null)}
      />
    </Box>
  );
}
