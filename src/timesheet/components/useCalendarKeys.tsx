/**
 * The week calendar with the keyboard alone: the time grid takes focus and the arrow keys move a visible
 * focused slot (a roving cursor: one Tab stop for the whole grid); every event takes focus too. Each key
 * calls the same callback as its gesture (the calendar's onCreate, onOpen, onMove, onDuplicate and onTrash,
 * for an activity and a draft's event alike) and follows the same rules: only an event FullCalendar lets
 * you drag moves, a move or copy never lands on another event or across midnight, a locked one is refused
 * with its reason. Above a day's first slot (or with Home) the cursor reaches that day's «Importar el día»
 * cell, and Enter there does what its click does.
 */
import { Box, Button, Dialog, DialogActions, DialogContent, DialogTitle } from "@mui/material";
import { type KeyboardEvent, type RefObject, useCallback, useEffect, useRef, useState } from "react";
import { sia } from "../../admin/i18n/es";
import type { Activity } from "../../core/activity";
import { CALENDAR } from "../../core/constants";
import { dayName, messages, timesheetMessages } from "../../core/messages";
import { addDays, businessToday, localDate, wallClock, zonedTime } from "../../core/week";
import type { ShownEvent } from "../model/draft";
import type { WeekItem } from "../model/weekItem";

/** The calendar's callbacks the keys go through (WeekCalendarProps' own, read at the time of the key). */
export interface CalendarKeyTargets {
  activities: Activity[];
  localEvents?: ShownEvent[];
  readOnly?: boolean;
  noCreate?: boolean;
  onCreate(range: { date: string; start?: Date; end?: Date }): void;
  onOpen(item: WeekItem): void;
  onMove(item: WeekItem, start: Date, end: Date, revert: () => void): void;
  onDuplicate(source: WeekItem, start: Date, end: Date): void;
  onTrash(item: WeekItem): void;
  onWarn(message: string): void;
  /** The all-day row's click ('Importar el día'); without it Enter there creates an activity that day. */
  onAllDayClick?(date: string): void;
}

const STEP = CALENDAR.slotMinutes;
const STEP_MS = STEP * 60_000;
const DAY_MINUTES = 24 * 60;
const toMinutes = (t: string) => Number(t.slice(0, 2)) * 60 + Number(t.slice(3, 5));
const FIRST_SLOT = toMinutes(CALENDAR.defaultAllDayStart);
/** The cursor's «minute» on the all-day row, above the day's first slot. */
const ALL_DAY = -1;
const pad = (n: number) => String(n).padStart(2, "0");
const clock = (minutes: number) => `${pad(Math.floor(minutes / 60))}:${pad(minutes % 60)}`;

/** A drawn event: what the callbacks are given, and where it is. */
interface Item {
  id: string;
  start: number;
  end: number;
  of: WeekItem;
}
/** Every event drawn, by the id FullCalendar's element carries (see toEventInput / toLocalEventInput). */
function itemsOf(p: CalendarKeyTargets): Item[] {
  return [
    ...p.activities.map((a) => ({
      id: String(a.id),
      start: Date.parse(a.begins_at),
      end: Date.parse(a.ends_at),
      of: { activity: a },
    })),
    ...(p.localEvents ?? []).map((e) => ({
      id: `local-${e.id}`,
      start: Date.parse(e.start),
      end: Date.parse(e.end),
      of: { local: e },
    })),
  ];
}
const overlaps = (items: Item[], start: number, end: number, except?: string) =>
  items.some((i) => i.id !== except && i.start < end && start < i.end);
const sameDay = (start: number, end: number) => localDate(new Date(start)) === localDate(new Date(end - 1));

/** The slot cursor: a date of the week shown and a minute of the day (a multiple of the slot, or ALL_DAY). */
interface Cursor {
  date: string;
  minutes: number;
}
/** Where a search for free time starts from the cursor: on the all-day row, that day's first morning. */
const timeOf = (c: Cursor): Cursor => (c.minutes === ALL_DAY ? { date: c.date, minutes: FIRST_SLOT } : c);

const FOCUS_RING = "#1565c0";

/**
 * Attributes that make an event's element a focusable button (called from eventDidMount). Its name is its
 * content (day, times and title, drawn again on every change), so a moved event is announced where it is.
 */
export function focusableEvent(el: HTMLElement, id: string) {
  el.dataset.siaEvent = id;
  el.tabIndex = 0;
  el.setAttribute("role", "button");
}

export function useCalendarKeys(box: RefObject<HTMLDivElement | null>, latest: RefObject<CalendarKeyTargets>) {
  const cursor = useRef<Cursor | null>(null);
  /** The slot the cursor left for the all-day row, where ↓ takes it back. */
  const leftSlot = useRef(FIRST_SLOT);
  /**
   * The event just moved by a key, to keep its focus when FullCalendar draws it again (for a while); a
   * deleted one's focus goes to the grid (`orGrid`), not to the page's top. One try is pending at a time.
   */
  const refocus = useRef<{ id: string; until: number; orGrid?: boolean } | null>(null);
  const restoring = useRef(false);
  const [help, setHelp] = useState(false);
  const [spoken, setSpoken] = useState("");

  const grid = useCallback(() => box.current?.querySelector<HTMLElement>(".fc-timegrid-body") ?? null, [box]);
  const weekDates = useCallback(
    () =>
      Array.from(box.current?.querySelectorAll<HTMLElement>(".fc-timegrid-col[data-date]") ?? []).map(
        (c) => c.dataset.date as string,
      ),
    [box],
  );

  /** Draws the focused slot over the grid (inside the scroller, so it scrolls with it) and says it. */
  const paint = useCallback(() => {
    const body = grid();
    const c = cursor.current;
    const scroller = body?.closest<HTMLElement>(".fc-scroller");
    let mark = box.current?.querySelector<HTMLElement>(".sia-slot-cursor") ?? null;
    if (!body || !c || !scroller || document.activeElement !== body) {
      mark?.remove();
      return;
    }
    const allDay = c.minutes === ALL_DAY;
    // The all-day row is a row of cells of its own, above the time grid's scroller.
    const col = allDay
      ? box.current?.querySelector<HTMLElement>(`.fc-daygrid-body .fc-daygrid-day[data-date="${c.date}"]`)
      : body.querySelector<HTMLElement>(`.fc-timegrid-col[data-date="${c.date}"]`);
    const lane = allDay ? col : body.querySelector<HTMLElement>(`.fc-timegrid-slot-lane[data-time="${clock(c.minutes)}:00"]`);
    const holder = allDay ? col?.closest<HTMLElement>(".fc-scroller") : scroller;
    if (!col || !lane || !holder) return;
    if (!mark || mark.parentElement !== holder) {
      mark?.remove();
      mark = document.createElement("div");
      mark.className = "sia-slot-cursor";
      mark.dataset.testid = "slot-cursor";
      mark.setAttribute("aria-hidden", "true");
      holder.append(mark);
    }
    const s = holder.getBoundingClientRect();
    const colBox = col.getBoundingClientRect();
    const laneBox = lane.getBoundingClientRect();
    mark.dataset.date = c.date;
    mark.dataset.time = allDay ? "all-day" : clock(c.minutes);
    mark.style.cssText = `position:absolute;pointer-events:none;z-index:5;box-sizing:border-box;border:3px solid ${FOCUS_RING};border-radius:2px;left:${colBox.left - s.left + holder.scrollLeft}px;top:${laneBox.top - s.top + holder.scrollTop}px;width:${colBox.width}px;height:${laneBox.height}px`;
    if (!allDay && (laneBox.top < s.top || laneBox.bottom > s.bottom)) lane.scrollIntoView({ block: "nearest" });
    const said = allDay ? sia.timesheet_keys.all_day : sia.timesheet_keys.slot;
    setSpoken(said.replace("%{date}", dayName(c.date)).replace("%{time}", clock(c.minutes)));
  }, [box, grid]);

  // FullCalendar redraws its grid outside React: after each render of the calendar the grid is made
  // focusable again, the cursor redrawn and a moved event given its focus back.
  useEffect(() => {
    const body = grid();
    if (body && body.tabIndex !== 0) {
      body.tabIndex = 0;
      body.setAttribute("aria-label", sia.timesheet_keys.grid_label);
      body.setAttribute("aria-keyshortcuts", "ArrowUp ArrowDown ArrowLeft ArrowRight Home Enter N ?");
      // FullCalendar's layout table is a grid whose body rows are presentational: a focusable element
      // there is a child a grid may not have. The time grid becomes a grid of its own (its days' columns
      // are already rows of cells), inside a row and cell of the outer one; the hour lines are layout.
      body.setAttribute("role", "grid");
      body.closest("tr")?.setAttribute("role", "row");
      body.closest("td")?.setAttribute("role", "gridcell");
      body.querySelector(".fc-timegrid-slots table")?.setAttribute("role", "presentation");
    }
    const back = refocus.current;
    if (back && back.until < Date.now()) refocus.current = null;
    else if (back && !restoring.current) {
      // Tried again while a dialog (the deletion's confirmation, still closing) holds the focus.
      const restore = () => {
        restoring.current = false;
        if (refocus.current !== back || back.until < Date.now()) return;
        if (document.querySelector("[role=dialog]")) {
          restoring.current = true;
          window.setTimeout(restore, 100);
          return;
        }
        const el = box.current?.querySelector<HTMLElement>(`[data-sia-event="${back.id}"]`);
        const lost = document.activeElement === document.body || !document.activeElement?.isConnected;
        // A removal cancelled: the event kept its focus, and a later click elsewhere is not pulled back.
        if (el && !lost && back.orGrid) refocus.current = null;
        const to = el ?? (back.orGrid ? grid() : null);
        if (!to || !lost) return;
        to.focus();
        // The grid takes it once, likewise.
        if (to !== el) refocus.current = null;
      };
      restoring.current = true;
      window.setTimeout(restore, 0);
    }
  });
  useEffect(() => {
    const el = box.current;
    if (!el) return;
    const onFocusIn = (e: FocusEvent) => {
      if (e.target !== grid()) return;
      const dates = weekDates();
      if (!cursor.current || !dates.includes(cursor.current.date)) {
        const today = businessToday();
        cursor.current = { date: dates.includes(today) ? today : (dates[0] ?? today), minutes: FIRST_SLOT };
      }
      paint();
    };
    const onFocusOut = () => window.setTimeout(paint, 0);
    el.addEventListener("focusin", onFocusIn);
    el.addEventListener("focusout", onFocusOut);
    return () => {
      el.removeEventListener("focusin", onFocusIn);
      el.removeEventListener("focusout", onFocusOut);
    };
  }, [box, grid, paint, weekDates]);

  /** The first free slot from a time on, this week (an hour where it fits, else one slot). */
  const nextFree = (items: Item[], from: Cursor): Cursor | null => {
    const dates = weekDates();
    for (let d = Math.max(0, dates.indexOf(from.date)); d < dates.length; d++) {
      for (let m = d === dates.indexOf(from.date) ? from.minutes : FIRST_SLOT; m < DAY_MINUTES; m += STEP) {
        const start = zonedTime(dates[d], m).getTime();
        if (!overlaps(items, start, start + STEP_MS)) return { date: dates[d], minutes: m };
      }
    }
    return null;
  };

  const create = (p: CalendarKeyTargets, at: Cursor) => {
    if (p.readOnly || p.noCreate) return;
    const start = zonedTime(at.date, at.minutes);
    p.onCreate({ date: at.date, start, end: new Date(start.getTime() + STEP_MS) });
  };

  const open = (p: CalendarKeyTargets, item: Item, el: Element) => {
    // A draft's event outside the draft's week is drawn but not opened (as a click).
    if (item.of.local && !el.classList.contains("sia-clickable")) return;
    p.onOpen(item.of);
  };

  /** A move or resize by the keys: refused where the drag could not drop it. */
  const move = (p: CalendarKeyTargets, item: Item, el: Element, start: number, end: number) => {
    if (!el.classList.contains("fc-event-draggable")) {
      if (el.classList.contains("sia-locked")) p.onWarn(messages.activityFrozen);
      return;
    }
    if (end - start < STEP_MS) return;
    if (!sameDay(start, end)) return p.onWarn(messages.activitySameDay);
    const items = itemsOf(p);
    if (overlaps(items, start, end, item.id)) return p.onWarn(timesheetMessages.moveSlotTaken);
    refocus.current = { id: item.id, until: Date.now() + 5000 };
    // Nothing was drawn moved, so there is nothing to put back.
    p.onMove(item.of, new Date(start), new Date(end), () => {});
  };

  /** A copy by the keys: the same length in the first free time after the source, the same day. */
  const duplicate = (p: CalendarKeyTargets, item: Item, el: Element) => {
    if (p.readOnly || !el.querySelector(".sia-copy-icon")) return;
    const length = item.end - item.start;
    const items = itemsOf(p);
    for (let start = item.end; sameDay(start, start + length); start += STEP_MS) {
      if (overlaps(items, start, start + length)) continue;
      p.onDuplicate(item.of, new Date(start), new Date(start + length));
      return;
    }
    p.onWarn(timesheetMessages.copySlotTaken);
  };

  const onKeyDown = (e: KeyboardEvent<HTMLElement>) => {
    const p = latest.current;
    const target = e.target as HTMLElement;
    if (target.closest("input, textarea, [contenteditable=true], button, .fc-header-toolbar")) return;
    const command = e.ctrlKey || e.metaKey;
    if (e.key === "?") {
      e.preventDefault();
      setHelp(true);
      return;
    }
    const eventEl = target.closest<HTMLElement>("[data-sia-event]");
    const onGrid = target === grid();
    if (!eventEl && !onGrid) return;
    if ((e.key === "n" || e.key === "N") && !command && !e.altKey) {
      e.preventDefault();
      const items = itemsOf(p);
      // From the focused event's end, else the focused slot, else the week's first morning.
      const item = eventEl ? items.find((i) => i.id === eventEl.dataset.siaEvent) : undefined;
      const from = item ? wallClock(new Date(item.end)) : timeOf(cursor.current ?? { date: weekDates()[0], minutes: FIRST_SLOT });
      const free = nextFree(items, from);
      if (free) create(p, free);
      else p.onWarn(timesheetMessages.noFreeSlot);
      return;
    }
    if (eventEl) {
      const item = itemsOf(p).find((i) => i.id === eventEl.dataset.siaEvent);
      if (!item) return;
      const step = (ms: number) => {
        e.preventDefault();
        if (p.readOnly) return;
        if (e.shiftKey) move(p, item, eventEl, item.start, item.end + ms);
        else move(p, item, eventEl, item.start + ms, item.end + ms);
      };
      const day = (days: number) => {
        e.preventDefault();
        if (p.readOnly || e.shiftKey) return;
        const from = wallClock(new Date(item.start));
        const start = zonedTime(addDays(from.date, days), from.minutes).getTime();
        move(p, item, eventEl, start, start + (item.end - item.start));
      };
      if (e.key === "Enter" || e.key === " ") {
        e.preventDefault();
        open(p, item, eventEl);
      } else if (e.key === "ArrowUp") step(-STEP_MS);
      else if (e.key === "ArrowDown") step(STEP_MS);
      else if (e.key === "ArrowLeft") day(-1);
      else if (e.key === "ArrowRight") day(1);
      else if (e.key === "Delete" || e.key === "Backspace") {
        e.preventDefault();
        if (p.readOnly) return;
        // Its confirmation may take a while; once it is gone the focus stays on the grid.
        refocus.current = { id: item.id, until: Date.now() + 60_000, orGrid: true };
        // A draft's event goes only where it could be dragged to the trash; an activity is always offered
        // (the page refuses a locked one with its reason).
        if (item.of.activity || eventEl.classList.contains("fc-event-draggable")) p.onTrash(item.of);
      } else if (command && (e.key === "d" || e.key === "D")) {
        e.preventDefault();
        duplicate(p, item, eventEl);
      } else if (e.key === "Escape") grid()?.focus();
      return;
    }
    // The grid: the arrows move the focused slot, Enter opens it (or the event on it).
    const c = cursor.current;
    if (!c) return;
    const dates = weekDates();
    const moveCursor = (date: string, minutes: number) => {
      e.preventDefault();
      cursor.current = { date, minutes: minutes === ALL_DAY ? ALL_DAY : Math.min(DAY_MINUTES - STEP, Math.max(0, minutes)) };
      paint();
    };
    const toAllDay = () => {
      if (c.minutes !== ALL_DAY) leftSlot.current = c.minutes;
      moveCursor(c.date, ALL_DAY);
    };
    const at = dates.indexOf(c.date);
    const allDay = c.minutes === ALL_DAY;
    if (e.key === "ArrowUp") {
      if (allDay || c.minutes === 0) toAllDay();
      else moveCursor(c.date, c.minutes - STEP);
    } else if (e.key === "Home") toAllDay();
    else if (e.key === "ArrowDown") moveCursor(c.date, allDay ? leftSlot.current : c.minutes + STEP);
    else if (e.key === "PageUp") moveCursor(c.date, allDay ? ALL_DAY : c.minutes - 60);
    else if (e.key === "PageDown") moveCursor(c.date, allDay ? leftSlot.current : c.minutes + 60);
    else if (e.key === "ArrowLeft") moveCursor(dates[Math.max(0, at - 1)] ?? c.date, c.minutes);
    else if (e.key === "ArrowRight") moveCursor(dates[Math.min(dates.length - 1, at + 1)] ?? c.date, c.minutes);
    else if ((e.key === "Enter" || e.key === " ") && allDay) {
      // What a click on the day's «Importar el día» cell does.
      e.preventDefault();
      if (p.readOnly) return;
      if (p.onAllDayClick) p.onAllDayClick(c.date);
      else p.onCreate({ date: c.date });
    } else if (e.key === "Enter" || e.key === " ") {
      e.preventDefault();
      const start = zonedTime(c.date, c.minutes).getTime();
      const items = itemsOf(p);
      const taken = items.find((i) => i.start < start + STEP_MS && start < i.end);
      if (!taken) return create(p, c);
      const el = box.current?.querySelector(`[data-sia-event="${taken.id}"]`);
      if (el) open(p, taken, el);
    }
  };

  const ui = (
    <>
      {/* Pixels, not 1: in sx a width of 1 is 100%, which pushed the page 16 px past a phone's edge. */}
      <Box
        aria-live="polite"
        sx={{
          position: "absolute",
          width: "1px",
          height: "1px",
          overflow: "hidden",
          clipPath: "inset(50%)",
          whiteSpace: "nowrap",
        }}
      >
        {spoken}
      </Box>
      <Dialog open={help} onClose={() => setHelp(false)} aria-labelledby="sia-keys-title" data-testid="keys-help">
        <DialogTitle id="sia-keys-title">{sia.timesheet_keys.help_title}</DialogTitle>
        <DialogContent>
          <Box component="dl" sx={{ display: "grid", gridTemplateColumns: "auto 1fr", columnGap: 2, rowGap: 1, m: 0 }}>
            {Object.entries(sia.timesheet_keys.shortcuts).map(([name, { keys, what }]) => (
              <Box key={name} sx={{ display: "contents" }}>
                <Box component="dt" sx={{ whiteSpace: "nowrap", fontWeight: 600 }}>
                  <kbd>{keys}</kbd>
                </Box>
                <Box component="dd" sx={{ m: 0 }}>
                  {what}
                </Box>
              </Box>
            ))}
          </Box>
        </DialogContent>
        <DialogActions>
          <Button onClick={() => setHelp(false)} autoFocus>
            {sia.timesheet_keys.close}
          </Button>
        </DialogActions>
      </Dialog>
    </>
  );

  return { onKeyDown, ui };
}
