/**
 * The week view of the timesheet (SPEC §2 "Weekly calendar", §9): FullCalendar timeGridWeek in Spanish,
 * Monday first, 15-minute slots, height 750, scrolled to the current hour, now indicator, all-day row
 * labelled 'Importar el día', no overlapping events, holiday cells tinted, colours by type (locked red and
 * not draggable), hours per day in the day headers. Gestures are reported to the page, which talks to the
 * server: this component only draws and translates FullCalendar's callbacks.
 */
import type {
  DateSelectArg,
  DatesSetArg,
  DayHeaderContentArg,
  EventClickArg,
  EventContentArg,
  EventDropArg,
  EventInput,
} from "@fullcalendar/core";
import esLocale from "@fullcalendar/core/locales/es";
import interactionPlugin, {
  type DateClickArg,
  Draggable,
  type EventDragStartArg,
  type EventDragStopArg,
  type EventReceiveArg,
  type EventResizeDoneArg,
} from "@fullcalendar/interaction";
import FullCalendar from "@fullcalendar/react";
import timeGridPlugin from "@fullcalendar/timegrid";
import ContentCopyIcon from "@mui/icons-material/ContentCopy";
import { Box } from "@mui/material";
import { forwardRef, useEffect, useMemo, useRef } from "react";
import { CALENDAR } from "../core/constants";
import type { LocalEvent, SavedWeek } from "../core/localEvent";
import { messages } from "../core/messages";
import { localDate } from "../core/week";
import { colorsFor, HOLIDAY_TINT, isLocked, localEventColors } from "./colors";
import { eventTitle, insideWeek } from "./savedWeek";
import { formatHours } from "./totals";
import type { Activity } from "./useWeekActivities";

export interface Revertible {
  revert(): void;
}

export interface WeekCalendarProps {
  activities: Activity[];
  holidays: ReadonlySet<string>;
  hoursByDay: Record<string, number>;
  /** Nothing can be created or moved (admin looking at 'Todos'). */
  readOnly?: boolean;
  onWeekChange(weekStart: string): void;
  /** A slot clicked or selected (all-day click → the default 09:00–18:00 of that date). */
  onCreate(range: { date: string; start?: Date; end?: Date }): void;
  onOpen(activity: Activity): void;
  onMove(activity: Activity, start: Date, end: Date, revert: () => void): void;
  onDuplicate(source: Activity, start: Date, end: Date): void;
  onTrash(activity: Activity): void;
  /** Refusals and warnings of SPEC §5 (all-day row). */
  onWarn(message: string): void;
  isOverTrash(x: number, y: number): boolean;
  /** The local saved week's events shown (SPEC §4); only those inside `savedWeek` are clickable. */
  localEvents?: LocalEvent[];
  savedWeek?: Pick<SavedWeek, "startOfWeek" | "endOfWeek"> | null;
  onOpenLocal?(event: LocalEvent): void;
  onMoveLocal?(event: LocalEvent, start: Date, end: Date): void;
  onDuplicateLocal?(source: LocalEvent, start: Date, end: Date): void;
  onTrashLocal?(event: LocalEvent): void;
  /** A click on the all-day row ('Importar el día'); without it the click creates an activity. */
  onAllDayClick?(date: string): void;
  /** Slots cannot be selected to create (the saved week is shown). */
  noCreate?: boolean;
}

const ALL_DAY_REFUSED = messages.allDayDropRefused;
const ALL_DAY_DRAG_WARNING = messages.allDayDragWarning;

const pad = (n: number) => String(n).padStart(2, "0");
const durationOf = (a: Activity) => {
  const minutes = Math.max(CALENDAR.slotMinutes, Math.round((Date.parse(a.ends_at) - Date.parse(a.begins_at)) / 60_000));
  return `${pad(Math.floor(minutes / 60))}:${pad(minutes % 60)}`;
};

export const toEventInput = (a: Activity): EventInput => {
  const locked = isLocked(a);
  const { background, text } = colorsFor(a);
  return {
    id: String(a.id),
    title: a.short_title || a.description,
    start: a.begins_at,
    end: a.ends_at,
    backgroundColor: background,
    borderColor: background,
    textColor: text,
    editable: !locked,
    classNames: [locked ? "sia-locked" : "sia-editable", `sia-type-${a.action_type}`],
    extendedProps: { activity: a },
  };
};

const localDuration = (e: LocalEvent) => durationOf({ begins_at: e.start, ends_at: e.end } as Activity);

/** A local event of the saved week: red when invalid, brown when already in SIA, clickable inside the week. */
export const toLocalEventInput = (e: LocalEvent, week: WeekCalendarProps["savedWeek"]): EventInput => {
  const active = !!week && insideWeek(week, e) && !e.isintoSia;
  const { background, text } = localEventColors(e);
  return {
    id: `local-${e.id}`,
    title: eventTitle(e),
    start: e.start,
    end: e.end,
    backgroundColor: background,
    borderColor: background,
    textColor: text,
    editable: active,
    classNames: [
      "sia-local",
      e.isintoSia ? "sia-in-sia" : e.isValidate ? "sia-valid" : "sia-invalid",
      active || (!!week && insideWeek(week, e)) ? "sia-clickable" : "sia-inert",
    ],
    extendedProps: { local: e, clickable: !!week && insideWeek(week, e) },
  };
};

/**
 * The copy icon of an event: a FullCalendar Draggable of its own (SPEC §2: dragging it adds a duplicate).
 * Its native pointer events must not reach the calendar, or the event itself would be dragged instead.
 */
function CopyHandle({ activity, local }: { activity?: Activity; local?: LocalEvent }) {
  const ref = useRef<HTMLSpanElement>(null);
  useEffect(() => {
    const icon = ref.current;
    if (!icon) return;
    const stop = (e: Event) => e.stopPropagation();
    icon.addEventListener("mousedown", stop);
    icon.addEventListener("touchstart", stop);
    icon.addEventListener("click", stop);
    const draggable = new Draggable(icon, {
      eventData: () =>
        local
          ? {
              title: eventTitle(local),
              duration: localDuration(local),
              create: true,
              extendedProps: { copyOfLocal: local },
              backgroundColor: localEventColors(local).background,
              borderColor: localEventColors(local).background,
            }
          : activity
            ? {
                title: activity.short_title || activity.description,
                duration: durationOf(activity),
                create: true,
                extendedProps: { copyOf: activity },
                backgroundColor: colorsFor(activity).background,
                borderColor: colorsFor(activity).background,
              }
            : {},
    });
    return () => {
      draggable.destroy();
      icon.removeEventListener("mousedown", stop);
      icon.removeEventListener("touchstart", stop);
      icon.removeEventListener("click", stop);
    };
  }, [activity, local]);
  return (
    <Box
      component="span"
      ref={ref}
      className="sia-copy-icon"
      title="Arrastra para duplicar"
      aria-label="Duplicar arrastrando"
      data-testid={`copy-${local ? local.id : activity?.id}`}
      sx={{ position: "absolute", top: 1, right: 2, cursor: "copy", fontSize: 14, lineHeight: 1, userSelect: "none" }}
    >
      <ContentCopyIcon sx={{ fontSize: 13, pointerEvents: "none" }} />
    </Box>
  );
}

export const WeekCalendar = forwardRef<FullCalendar, WeekCalendarProps>(function WeekCalendar(props, ref) {
  const { activities, holidays, hoursByDay, readOnly, localEvents, savedWeek } = props;
  const events = useMemo(
    () => [...activities.map(toEventInput), ...(localEvents ?? []).map((e) => toLocalEventInput(e, savedWeek))],
    [activities, localEvents, savedWeek],
  );
  const localOf = (e: { extendedProps: Record<string, unknown> }) => e.extendedProps.local as LocalEvent | undefined;
  const scrollTime = useMemo(() => `${pad(Math.max(0, new Date().getHours() - 1))}:00:00`, []);
  const activityOf = (e: { extendedProps: Record<string, unknown> }) => e.extendedProps.activity as Activity;

  const dayHeader = (arg: DayHeaderContentArg) => {
    const day = localDate(arg.date);
    return (
      <Box sx={{ lineHeight: 1.2, py: 0.25 }} data-testid={`day-header-${day}`}>
        <div>{arg.text}</div>
        <Box component="small" sx={{ fontWeight: 400, opacity: 0.8 }} data-testid={`day-hours-${day}`}>
          {formatHours(hoursByDay[day] ?? 0)}
        </Box>
      </Box>
    );
  };

  const eventContent = (arg: EventContentArg) => {
    const local = localOf(arg.event);
    if (local) {
      const active = arg.event.startEditable && !readOnly;
      return (
        <Box
          sx={{ position: "relative", height: "100%", overflow: "hidden", pr: 2.5 }}
          data-testid={`local-${local.id}`}
          title={local.errors?.join("\n") || undefined}
        >
          <Box sx={{ fontSize: 11 }}>{arg.timeText}</Box>
          <Box sx={{ fontSize: 12, fontWeight: 500 }}>{arg.event.title}</Box>
          {active && <CopyHandle local={local} />}
        </Box>
      );
    }
    const a = activityOf(arg.event) as Activity | undefined;
    // Selection and drag mirrors carry no activity.
    if (!a) return <Box sx={{ fontSize: 11 }}>{arg.timeText}</Box>;
    const locked = isLocked(a);
    return (
      <Box sx={{ position: "relative", height: "100%", overflow: "hidden", pr: 2.5 }} data-testid={`activity-${a.id}`}>
        <Box sx={{ fontSize: 11 }}>{arg.timeText}</Box>
        <Box sx={{ fontSize: 12, fontWeight: 500 }}>{arg.event.title}</Box>
        {!locked && !readOnly && <CopyHandle activity={a} />}
      </Box>
    );
  };

  return (
    <Box
      sx={{
        "& .sia-holiday": { backgroundColor: HOLIDAY_TINT },
        "& .fc-event.sia-locked": { cursor: "not-allowed" },
        "& .fc-event.sia-inert": { cursor: "default" },
        "& .fc-timegrid-axis-cushion": { whiteSpace: "normal", fontSize: 11, textAlign: "center" },
      }}
      data-testid="week-calendar"
    >
      <FullCalendar
        ref={ref}
        plugins={[timeGridPlugin, interactionPlugin]}
        initialView="timeGridWeek"
        locale={esLocale}
        firstDay={1}
        height={CALENDAR.height}
        slotDuration={{ minutes: CALENDAR.slotMinutes }}
        snapDuration={{ minutes: CALENDAR.slotMinutes }}
        scrollTime={scrollTime}
        nowIndicator
        eventTimeFormat={{ hour: "2-digit", minute: "2-digit", hour12: false }}
        slotLabelFormat={{ hour: "2-digit", minute: "2-digit", hour12: false }}
        allDaySlot
        allDayContent={() => "Importar el día"}
        headerToolbar={{ left: "today prev,next", center: "title", right: "" }}
        buttonText={{ today: "Hoy" }}
        events={events}
        editable={!readOnly}
        droppable={!readOnly}
        selectable={!readOnly && !props.noCreate}
        selectMirror
        eventOverlap={false}
        selectOverlap={false}
        selectAllow={(span) => span.allDay || localDate(span.start) === localDate(new Date(span.end.getTime() - 1))}
        dayHeaderContent={dayHeader}
        dayCellClassNames={(arg) => (holidays.has(localDate(arg.date)) ? ["sia-holiday"] : [])}
        dayHeaderClassNames={(arg) => (holidays.has(localDate(arg.date)) ? ["sia-holiday"] : [])}
        eventContent={eventContent}
        datesSet={(arg: DatesSetArg) => props.onWeekChange(localDate(arg.start))}
        dateClick={(arg: DateClickArg) => {
          if (readOnly) return;
          if (!arg.allDay) return;
          if (props.onAllDayClick) props.onAllDayClick(arg.dateStr.slice(0, 10));
          else props.onCreate({ date: arg.dateStr.slice(0, 10) });
        }}
        select={(arg: DateSelectArg) => {
          arg.view.calendar.unselect();
          if (readOnly || arg.allDay) return;
          props.onCreate({ date: localDate(arg.start), start: arg.start, end: arg.end });
        }}
        eventClick={(arg: EventClickArg) => {
          const local = localOf(arg.event);
          if (local) {
            if (arg.event.extendedProps.clickable) props.onOpenLocal?.(local);
            return;
          }
          props.onOpen(activityOf(arg.event));
        }}
        eventDragStart={(arg: EventDragStartArg) => {
          if (arg.event.allDay) props.onWarn(ALL_DAY_DRAG_WARNING);
        }}
        eventDragStop={(arg: EventDragStopArg) => {
          if (!props.isOverTrash(arg.jsEvent.clientX, arg.jsEvent.clientY)) return;
          const local = localOf(arg.event);
          if (local) props.onTrashLocal?.(local);
          else props.onTrash(activityOf(arg.event));
        }}
        eventDrop={(arg: EventDropArg) => {
          if (arg.event.allDay || !arg.event.start || !arg.event.end) {
            arg.revert();
            props.onWarn(arg.oldEvent.allDay ? ALL_DAY_DRAG_WARNING : ALL_DAY_REFUSED);
            return;
          }
          const local = localOf(arg.event);
          if (local) props.onMoveLocal?.(local, arg.event.start, arg.event.end);
          else props.onMove(activityOf(arg.event), arg.event.start, arg.event.end, arg.revert);
        }}
        eventResize={(arg: EventResizeDoneArg) => {
          if (!arg.event.start || !arg.event.end) return arg.revert();
          const local = localOf(arg.event);
          if (local) props.onMoveLocal?.(local, arg.event.start, arg.event.end);
          else props.onMove(activityOf(arg.event), arg.event.start, arg.event.end, arg.revert);
        }}
        eventReceive={(arg: EventReceiveArg) => {
          const source = arg.event.extendedProps.copyOf as Activity | undefined;
          const localSource = arg.event.extendedProps.copyOfLocal as LocalEvent | undefined;
          const { start, end, allDay } = arg.event;
          arg.revert();
          if (!source && !localSource) return;
          if (allDay || !start || !end) return props.onWarn(ALL_DAY_REFUSED);
          if (localSource) props.onDuplicateLocal?.(localSource, start, end);
          else if (source) props.onDuplicate(source, start, end);
        }}
      />
    </Box>
  );
});
