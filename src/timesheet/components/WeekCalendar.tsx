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
  EventMountArg,
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
import { Box } from "@mui/material";
import { forwardRef, useCallback, useEffect, useMemo, useRef } from "react";
import { sia } from "../../admin/i18n/es";
import type { Activity } from "../../core/activity";
import { CALENDAR } from "../../core/constants";
import type { LocalEvent } from "../../core/localEvent";
import { dayName, messages, timesheetMessages } from "../../core/messages";
import { BUSINESS_TIME_ZONE, localDate, mondayOf, wallClock } from "../../core/week";
import { colorsFor, HOLIDAY_TINT, isLocked, localEventColors } from "../model/colors";
import { type Draft, eventTitle, insideWeek, type ShownEvent } from "../model/draft";
import { formatHours } from "../model/totals";
import type { WeekItem } from "../model/weekItem";
import { businessTimeZonePlugin } from "./businessTimeZone";
import { focusableEvent, useCalendarKeys } from "./useCalendarKeys";

export interface Revertible {
  revert(): void;
}

export interface WeekCalendarProps {
  /** The whole week, or one day at a time (a phone). */
  view?: "timeGridWeek" | "timeGridDay";
  /** A day to open on (the address's ?semana=); today without it (a phone's day view opens on today). */
  initialDate?: string;
  activities: Activity[];
  holidays: ReadonlySet<string>;
  hoursByDay: Record<string, number>;
  /** Nothing can be created or moved (admin looking at 'Todos'). */
  readOnly?: boolean;
  onWeekChange(weekStart: string): void;
  /** A slot clicked or selected (all-day click → the default 09:00–18:00 of that date). */
  onCreate(range: { date: string; start?: Date; end?: Date }): void;
  /**
   * The gestures on an event, an activity or a draft's event alike (a draft's event outside `savedWeek` is
   * never opened). `revert` puts a dragged event back where it was.
   */
  onOpen(item: WeekItem): void;
  onMove(item: WeekItem, start: Date, end: Date, revert: () => void): void;
  /** A copy of `source` dropped (or keyed) at `start`–`end`. */
  onDuplicate(source: WeekItem, start: Date, end: Date): void;
  onTrash(item: WeekItem): void;
  /** Refusals and warnings of SPEC §5 (all-day row). */
  onWarn(message: string): void;
  isOverTrash(x: number, y: number): boolean;
  /**
   * The draft week's events (SPEC §4): SIA's activities with the draft's changes (brown) and the new ones;
   * only those inside `savedWeek` are clickable.
   */
  localEvents?: ShownEvent[];
  savedWeek?: Pick<Draft, "startOfWeek" | "endOfWeek"> | null;
  /** A click on the all-day row ('Importar el día'); without it the click creates an activity. */
  onAllDayClick?(date: string): void;
  /** Slots cannot be selected to create (a closed week). */
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
    title: a.description || a.short_title || "",
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

const localOf = (e: { extendedProps: Record<string, unknown> }) => e.extendedProps.local as ShownEvent | undefined;
const activityOf = (e: { extendedProps: Record<string, unknown> }) => e.extendedProps.activity as Activity;
/** What a drawn event is, as the gestures report it. */
const itemOf = (e: { extendedProps: Record<string, unknown> }): WeekItem => {
  const local = localOf(e);
  return local ? { local } : { activity: activityOf(e) };
};

const localDuration = (e: LocalEvent) => durationOf({ begins_at: e.start, ends_at: e.end } as Activity);

/**
 * An event of the draft week: red when invalid, brown when it is in SIA (darker when the draft changed
 * it), the type's colour when new. Inside the week and not locked, it can be opened, moved and deleted.
 */
export const toLocalEventInput = (e: ShownEvent, week: WeekCalendarProps["savedWeek"]): EventInput => {
  const inside = !!week && insideWeek(week, e);
  const active = inside && !e.locked;
  const { background, text } = localEventColors(e);
  return {
    id: `local-${e.id}`,
    title: eventTitle(e),
    start: e.start,
    end: e.end,
    backgroundColor: background,
    borderColor: e.changed ? "#3e2723" : background,
    textColor: text,
    editable: active,
    classNames: [
      "sia-local",
      !e.isValidate ? "sia-invalid" : e.isintoSia ? "sia-in-sia" : "sia-valid",
      ...(e.changed ? ["sia-changed"] : []),
      ...(e.locked ? ["sia-locked"] : []),
      inside ? "sia-clickable" : "sia-inert",
    ],
    extendedProps: { local: e, clickable: inside },
  };
};

/** What dragging an event's copy icon drops (SPEC §2: a duplicate). */
const copyDragData = (source: WeekItem | undefined) =>
  !source
    ? {}
    : source.local
      ? {
          title: eventTitle(source.local),
          duration: localDuration(source.local),
          create: true,
          extendedProps: { copyOf: source },
          backgroundColor: localEventColors(source.local).background,
          borderColor: localEventColors(source.local).background,
        }
      : {
          title: source.activity.description || source.activity.short_title || "",
          duration: durationOf(source.activity),
          create: true,
          extendedProps: { copyOf: source },
          backgroundColor: colorsFor(source.activity).background,
          borderColor: colorsFor(source.activity).background,
        };

/** The event each drawn copy icon duplicates (read when its drag starts, so it is always the latest). */
const copySources = new WeakMap<Element, WeekItem>();
/** Undoes what eventDidMount attached to an event's element. */
const detachers = new WeakMap<Element, () => void>();

const SVG = "http://www.w3.org/2000/svg";
const COPY_PATH =
  "M16 1H4c-1.1 0-2 .9-2 2v14h2V3h12zm3 4H8c-1.1 0-2 .9-2 2v14c0 1.1.9 2 2 2h11c1.1 0 2-.9 2-2V7c0-1.1-.9-2-2-2m0 16H8V7h11z";

/**
 * An event's content as plain DOM (FullCalendar's `domNodes`): with 150 events a week, React portals
 * and styled components per event cost more than the calendar itself. Inline styles, so the copy icon's
 * drag mirror (a clone FullCalendar puts in <body>) looks the same.
 */
const VISUALLY_HIDDEN = "position:absolute;width:1px;height:1px;overflow:hidden;clip-path:inset(50%);white-space:nowrap";
function div(style: string, text?: string) {
  const el = document.createElement("div");
  el.style.cssText = style;
  if (text !== undefined) el.textContent = text;
  return el;
}
function eventNodes(arg: EventContentArg, testId: string, copy: WeekItem | null, title?: string) {
  const box = div("position:relative;height:100%;overflow:hidden;padding-right:20px");
  box.dataset.testid = testId;
  if (title) box.title = title;
  // The day, for screen readers only: the event's name (its content) then says where it is.
  if (arg.event.start) {
    const day = div(VISUALLY_HIDDEN, `${dayName(localDate(arg.event.start))} `);
    day.dataset.testid = "event-day";
    box.append(day);
  }
  box.append(div("font-size:11px", arg.timeText), div("font-size:12px;font-weight:500", arg.event.title));
  if (copy) {
    // The copy icon (SPEC §2: dragging it adds a duplicate); the Draggable lives on the event's element.
    const icon = document.createElement("span");
    icon.className = "sia-copy-icon";
    icon.title = sia.timesheet.drag_to_duplicate;
    // A mouse's handle, kept out of the event's name: the keyboard duplicates with Ctrl+D.
    icon.setAttribute("aria-hidden", "true");
    icon.dataset.testid = `copy-${copy.local ? copy.local.id : copy.activity.id}`;
    icon.style.cssText = "position:absolute;top:1px;right:2px;cursor:copy;font-size:14px;line-height:1;user-select:none";
    const svg = document.createElementNS(SVG, "svg");
    svg.setAttribute("viewBox", "0 0 24 24");
    svg.setAttribute("focusable", "false");
    svg.setAttribute("aria-hidden", "true");
    svg.setAttribute(
      "style",
      "user-select:none;width:1em;height:1em;display:inline-block;flex-shrink:0;fill:currentColor;font-size:13px;pointer-events:none",
    );
    const path = document.createElementNS(SVG, "path");
    path.setAttribute("d", COPY_PATH);
    svg.append(path);
    icon.append(svg);
    copySources.set(icon, copy);
    box.append(icon);
  }
  return { domNodes: [box] };
}

/** Whether the copy being dragged was received by the calendar (a free slot). */
let copyReceived = false;

/**
 * Each event's element gets one Draggable for its copy icon. The icon's native pointer events stop at
 * the event's element, so they reach that Draggable but not the calendar (the event itself is not dragged).
 */
function attachCopyDrag(el: HTMLElement, onRefused: () => void) {
  const stop = (e: Event) => {
    if ((e.target as Element | null)?.closest?.(".sia-copy-icon")) e.stopPropagation();
  };
  // FullCalendar drops a copy on a taken slot without a word (no overlaps): a copy icon dragged onto the
  // grid and not received there is said to be refused.
  const watch = (down: MouseEvent) => {
    if (!(down.target as Element | null)?.closest?.(".sia-copy-icon")) return;
    copyReceived = false;
    const release = (up: MouseEvent) => {
      document.removeEventListener("mouseup", release);
      window.setTimeout(() => {
        const moved = Math.abs(up.clientX - down.clientX) + Math.abs(up.clientY - down.clientY) > 8;
        const onGrid = document.elementFromPoint(up.clientX, up.clientY)?.closest?.(".fc-timegrid-body");
        if (moved && onGrid && !copyReceived) onRefused();
      }, 100);
    };
    document.addEventListener("mouseup", release);
  };
  el.addEventListener("mousedown", watch);
  el.addEventListener("mousedown", stop);
  el.addEventListener("touchstart", stop);
  el.addEventListener("click", stop);
  const draggable = new Draggable(el, {
    itemSelector: ".sia-copy-icon",
    eventData: (icon) => copyDragData(copySources.get(icon)),
  });
  detachers.set(el, () => {
    draggable.destroy();
    el.removeEventListener("mousedown", watch);
    el.removeEventListener("mousedown", stop);
    el.removeEventListener("touchstart", stop);
    el.removeEventListener("click", stop);
  });
}

// Options that never change: one object each, so FullCalendar never sees them as changed.
const PLUGINS = [timeGridPlugin, interactionPlugin, businessTimeZonePlugin];
const SLOT = { minutes: CALENDAR.slotMinutes };
const TIME_FORMAT = { hour: "2-digit", minute: "2-digit", hour12: false } as const;
const TOOLBAR = { left: "today prev,next", center: "title", right: "" };
// FullCalendar draws these outside React, so they read the catalogue itself.
const BUTTON_TEXT = { today: sia.timesheet.today };
const BUTTON_HINTS = {
  today: sia.timesheet_more.today_hint,
  prev: sia.timesheet_more.previous_week,
  next: sia.timesheet_more.next_week,
};
// On a phone the arrows move one day (timeGridDay): they say so.
const DAY_HINTS = {
  today: sia.timesheet_more.today_day_hint,
  prev: sia.timesheet_more.previous_day,
  next: sia.timesheet_more.next_day,
};
const allDayContent = () => sia.timesheet.import_day;
const selectAllow = (span: { allDay: boolean; start: Date; end: Date }) =>
  span.allDay || localDate(span.start) === localDate(new Date(span.end.getTime() - 1));

export const WeekCalendar = forwardRef<FullCalendar, WeekCalendarProps>(function WeekCalendar(props, ref) {
  const { activities, holidays, hoursByDay, readOnly, localEvents, savedWeek } = props;
  const events = useMemo(
    () => [...activities.map(toEventInput), ...(localEvents ?? []).map((e) => toLocalEventInput(e, savedWeek))],
    [activities, localEvents, savedWeek],
  );
  const scrollTime = useMemo(() => `${pad(Math.max(0, Math.floor(wallClock(new Date()).minutes / 60) - 1))}:00:00`, []);
  // FullCalendar (a plain Component) resets its options on every render of ours and redraws what
  // changed: the callbacks read the latest props through a ref so they stay the same functions.
  const latest = useRef(props);
  latest.current = props;

  const dayHeader = useCallback(
    (arg: DayHeaderContentArg) => {
      const day = localDate(arg.date);
      return (
        <Box sx={{ lineHeight: 1.2, py: 0.25 }} data-testid={`day-header-${day}`}>
          <div>{arg.text}</div>
          <Box component="small" sx={{ fontWeight: 400, opacity: 0.8 }} data-testid={`day-hours-${day}`}>
            {formatHours(hoursByDay[day] ?? 0)}
          </Box>
        </Box>
      );
    },
    [hoursByDay],
  );
  const holidayClass = useCallback(
    (arg: { date: Date }) => (holidays.has(localDate(arg.date)) ? ["sia-holiday"] : []),
    [holidays],
  );

  const eventContent = useCallback(
    (arg: EventContentArg) => {
      const local = localOf(arg.event);
      if (local) {
        const active = arg.event.startEditable && !readOnly;
        return eventNodes(arg, `local-${local.id}`, active ? { local } : null, local.errors?.join("\n") || undefined);
      }
      const a = activityOf(arg.event) as Activity | undefined;
      // Selection and drag mirrors carry no activity.
      if (!a) return { domNodes: [div("font-size:11px", arg.timeText)] };
      return eventNodes(arg, `activity-${a.id}`, !isLocked(a) && !readOnly ? { activity: a } : null);
    },
    [readOnly],
  );

  const handlers = useMemo(
    () => ({
      // The week of what is shown (one day of it, on a phone), on the firm's calendar.
      datesSet: (arg: DatesSetArg) => latest.current.onWeekChange(mondayOf(localDate(arg.start))),
      dateClick: (arg: DateClickArg) => {
        const p = latest.current;
        if (p.readOnly) return;
        // A tap on a slot: a touch never selects without a long press, so the tap itself creates.
        if (!arg.allDay && arg.jsEvent.type.startsWith("touch") && !p.noCreate) {
          const end = new Date(arg.date.getTime() + CALENDAR.slotMinutes * 60_000);
          return p.onCreate({ date: localDate(arg.date), start: arg.date, end });
        }
        if (!arg.allDay) return;
        if (p.onAllDayClick) p.onAllDayClick(arg.dateStr.slice(0, 10));
        else p.onCreate({ date: arg.dateStr.slice(0, 10) });
      },
      select: (arg: DateSelectArg) => {
        arg.view.calendar.unselect();
        if (latest.current.readOnly || arg.allDay) return;
        latest.current.onCreate({ date: localDate(arg.start), start: arg.start, end: arg.end });
      },
      eventClick: (arg: EventClickArg) => {
        const item = itemOf(arg.event);
        if (item.local && !arg.event.extendedProps.clickable) return;
        latest.current.onOpen(item);
      },
      eventDragStart: (arg: EventDragStartArg) => {
        if (arg.event.allDay) latest.current.onWarn(ALL_DAY_DRAG_WARNING);
      },
      eventDragStop: (arg: EventDragStopArg) => {
        const p = latest.current;
        if (p.isOverTrash(arg.jsEvent.clientX, arg.jsEvent.clientY)) p.onTrash(itemOf(arg.event));
      },
      eventDrop: (arg: EventDropArg) => {
        const p = latest.current;
        if (arg.event.allDay || !arg.event.start || !arg.event.end) {
          arg.revert();
          p.onWarn(arg.oldEvent.allDay ? ALL_DAY_DRAG_WARNING : ALL_DAY_REFUSED);
          return;
        }
        p.onMove(itemOf(arg.event), arg.event.start, arg.event.end, arg.revert);
      },
      eventResize: (arg: EventResizeDoneArg) => {
        const p = latest.current;
        if (!arg.event.start || !arg.event.end) return arg.revert();
        p.onMove(itemOf(arg.event), arg.event.start, arg.event.end, arg.revert);
      },
      eventReceive: (arg: EventReceiveArg) => {
        const p = latest.current;
        const source = arg.event.extendedProps.copyOf as WeekItem | undefined;
        const { start, end, allDay } = arg.event;
        copyReceived = true;
        arg.revert();
        if (!source) return;
        if (allDay || !start || !end) return p.onWarn(ALL_DAY_REFUSED);
        p.onDuplicate(source, start, end);
      },
      eventDidMount: (arg: EventMountArg) => {
        focusableEvent(arg.el, arg.event.id);
        attachCopyDrag(arg.el, () => latest.current.onWarn(timesheetMessages.copySlotTaken));
      },
      eventWillUnmount: (arg: EventMountArg) => {
        detachers.get(arg.el)?.();
        detachers.delete(arg.el);
      },
    }),
    [],
  );

  // The same element while nothing FullCalendar shows has changed: React then skips it, so a render of
  // the page (a toast, the settings arriving) costs FullCalendar no redraw.
  const noCreate = props.noCreate;
  const initialView = props.view ?? "timeGridWeek";
  const initialDate = props.initialDate;
  const calendar = useMemo(
    () => (
      <FullCalendar
        ref={ref}
        plugins={PLUGINS}
        initialView={initialView}
        initialDate={initialDate}
        locale={esLocale}
        timeZone={BUSINESS_TIME_ZONE}
        firstDay={1}
        height={CALENDAR.height}
        slotDuration={SLOT}
        snapDuration={SLOT}
        scrollTime={scrollTime}
        nowIndicator
        eventTimeFormat={TIME_FORMAT}
        slotLabelFormat={TIME_FORMAT}
        allDaySlot
        allDayContent={allDayContent}
        headerToolbar={TOOLBAR}
        buttonText={BUTTON_TEXT}
        buttonHints={initialView === "timeGridDay" ? DAY_HINTS : BUTTON_HINTS}
        events={events}
        editable={!readOnly}
        droppable={!readOnly}
        selectable={!readOnly && !noCreate}
        selectMirror
        eventOverlap={false}
        selectOverlap={false}
        selectAllow={selectAllow}
        dayHeaderContent={dayHeader}
        dayCellClassNames={holidayClass}
        dayHeaderClassNames={holidayClass}
        eventContent={eventContent}
        {...handlers}
      />
    ),
    [ref, initialView, initialDate, scrollTime, events, readOnly, noCreate, dayHeader, holidayClass, eventContent, handlers],
  );

  // The arrows are icons: their names, for screen readers and keyboard users, are set once they exist.
  const boxRef = useRef<HTMLDivElement>(null);
  const keys = useCalendarKeys(boxRef, latest);
  useEffect(() => {
    const hints = initialView === "timeGridDay" ? DAY_HINTS : BUTTON_HINTS;
    for (const [selector, name] of [
      [".fc-prev-button", hints.prev],
      [".fc-next-button", hints.next],
    ])
      boxRef.current?.querySelector(selector)?.setAttribute("aria-label", name);
    // Their chevrons are drawn as unnamed images: the button's name says it all.
    for (const icon of boxRef.current?.querySelectorAll(".fc-button .fc-icon") ?? []) icon.setAttribute("aria-hidden", "true");
  });

  return (
    <Box
      ref={boxRef}
      sx={{
        "& .sia-holiday": { backgroundColor: HOLIDAY_TINT },
        "& .fc-event.sia-locked": { cursor: "not-allowed" },
        "& .fc-event.sia-inert": { cursor: "default" },
        "& .fc-timegrid-axis-cushion": { whiteSpace: "normal", fontSize: 11, textAlign: "center" },
        "& .fc-event:focus-visible, & .fc-timegrid-body:focus-visible": { outline: "3px solid #1565c0", outlineOffset: 1 },
      }}
      data-testid="week-calendar"
      onKeyDown={keys.onKeyDown}
    >
      {calendar}
      {keys.ui}
    </Box>
  );
});
