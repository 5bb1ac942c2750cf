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
import { messages } from "../core/messages";
import { localDate } from "../core/week";
import { colorsFor, HOLIDAY_TINT, isLocked } from "./colors";
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

/**
 * The copy icon of an event: a FullCalendar Draggable of its own (SPEC §2: dragging it adds a duplicate).
 * Its native pointer events must not reach the calendar, or the event itself would be dragged instead.
 */
function CopyHandle({ activity }: { activity: Activity }) {
  const ref = useRef<HTMLSpanElement>(null);
  useEffect(() => {
    const icon = ref.current;
    if (!icon) return;
    const stop = (e: Event) => e.stopPropagation();
    icon.addEventListener("mousedown", stop);
    icon.addEventListener("touchstart", stop);
    icon.addEventListener("click", stop);
    const draggable = new Draggable(icon, {
      eventData: () => ({
        title: activity.short_title || activity.description,
        duration: durationOf(activity),
        create: true,
        extendedProps: { copyOf: activity },
        backgroundColor: colorsFor(activity).background,
        borderColor: colorsFor(activity).background,
      }),
    });
    return () => {
      draggable.destroy();
      icon.removeEventListener("mousedown", stop);
      icon.removeEventListener("touchstart", stop);
      icon.removeEventListener("click", stop);
    };
  }, [activity]);
  return (
    <Box
      component="span"
      ref={ref}
      className="sia-copy-icon"
      title="Arrastra para duplicar"
      aria-label="Duplicar arrastrando"
      data-testid={`copy-${activity.id}`}
      sx={{ position: "absolute", top: 1, right: 2, cursor: "copy", fontSize: 14, lineHeight: 1, userSelect: "none" }}
    >
      <ContentCopyIcon sx={{ fontSize: 13, pointerEvents: "none" }} />
    </Box>
  );
}

export const WeekCalendar = forwardRef<FullCalendar, WeekCalendarProps>(function WeekCalendar(props, ref) {
  const { activities, holidays, hoursByDay, readOnly } = props;
  const events = useMemo(() => activities.map(toEventInput), [activities]);
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
        selectable={!readOnly}
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
          if (arg.allDay) props.onCreate({ date: arg.dateStr.slice(0, 10) });
        }}
        select={(arg: DateSelectArg) => {
          arg.view.calendar.unselect();
          if (readOnly || arg.allDay) return;
          props.onCreate({ date: localDate(arg.start), start: arg.start, end: arg.end });
        }}
        eventClick={(arg: EventClickArg) => props.onOpen(activityOf(arg.event))}
        eventDragStart={(arg: EventDragStartArg) => {
          if (arg.event.allDay) props.onWarn(ALL_DAY_DRAG_WARNING);
        }}
        eventDragStop={(arg: EventDragStopArg) => {
          if (props.isOverTrash(arg.jsEvent.clientX, arg.jsEvent.clientY)) props.onTrash(activityOf(arg.event));
        }}
        eventDrop={(arg: EventDropArg) => {
          if (arg.event.allDay || !arg.event.start || !arg.event.end) {
            arg.revert();
            props.onWarn(arg.oldEvent.allDay ? ALL_DAY_DRAG_WARNING : ALL_DAY_REFUSED);
            return;
          }
          props.onMove(activityOf(arg.event), arg.event.start, arg.event.end, arg.revert);
        }}
        eventResize={(arg: EventResizeDoneArg) => {
          if (!arg.event.start || !arg.event.end) return arg.revert();
          props.onMove(activityOf(arg.event), arg.event.start, arg.event.end, arg.revert);
        }}
        eventReceive={(arg: EventReceiveArg) => {
          const source = arg.event.extendedProps.copyOf as Activity | undefined;
          const { start, end, allDay } = arg.event;
          arg.revert();
          if (!source) return;
          if (allDay || !start || !end) return props.onWarn(ALL_DAY_REFUSED);
          props.onDuplicate(source, start, end);
        }}
      />
    </Box>
  );
});
