import { describe, expect, it } from "vitest";
import { type LocalEvent, type SavedWeek, WEEK_STORAGE_KEY } from "../../src/core/localEvent";
import { zonedTime } from "../../src/core/week";
import { LOCAL_COLORS, localEventColors } from "../../src/timesheet/colors";
import {
  duplicateEvent,
  eventsToSave,
  findConflicts,
  flattenBatchErrors,
  insideWeek,
  loadSavedWeek,
  markInvalid,
  mergeServerActivities,
  newSavedWeek,
  removeSavedWeek,
  replaceDay,
  storeSavedWeek,
  updateEvent,
  type WeekStorage,
} from "../../src/timesheet/savedWeek";
import type { Activity } from "../../src/timesheet/useWeekActivities";

const MONDAY = "2031-03-03";
const SUNDAY = "2031-03-09";
const at = (date: string, time: string) => {
  const [h, m] = time.split(":").map(Number);
  return zonedTime(date, h * 60 + m).toISOString();
};
const ev = (id: string, date: string, from: string, to: string, extra: Partial<LocalEvent> = {}): LocalEvent => ({
  id,
  summary: `AS|EO|${id}`,
  start: at(date, from),
  end: at(date, to),
  description: id,
  actionType: "internal",
  clientId: null,
  clientName: null,
  ownerableType: null,
  activityTypeCatalogId: null,
  projectId: null,
  projectName: null,
  project_code: null,
  productId: null,
  ticketId: null,
  ticketName: null,
  favorite: false,
  isValidate: true,
  isRecurring: false,
  isintoSia: false,
  googleCId: null,
  google_calendar_id: `${id}@google`,
  google_calendar_event: null,
  shortTitle: null,
  importKey: `key-${id}`,
  ...extra,
});
const week = (events: LocalEvent[]): SavedWeek => newSavedWeek("ICS", MONDAY, SUNDAY, events);

/** A Storage with a quota in characters. */
function fakeStorage(quota = Number.POSITIVE_INFINITY): WeekStorage & { data: Map<string, string> } {
  const data = new Map<string, string>();
  return {
    data,
    getItem: (k) => data.get(k) ?? null,
    setItem: (k, v) => {
      if (v.length > quota) throw new DOMException("full", "QuotaExceededError");
      data.set(k, v);
    },
    removeItem: (k) => {
      data.delete(k);
    },
  };
}

describe("saved week storage (SPEC §3 weekCalendar)", () => {
  it("stores, loads and removes the week under weekCalendar", () => {
    const s = fakeStorage();
    const w = week([ev("b", "2031-03-04", "10:00", "11:00"), ev("a", MONDAY, "09:00", "10:00")]);
    expect(w.events.map((e) => e.id)).toEqual(["a", "b"]);
    expect(storeSavedWeek(w, s)).toEqual({ ok: true });
    expect(JSON.parse(s.data.get(WEEK_STORAGE_KEY) ?? "{}").importType).toBe("ICS");
    expect(loadSavedWeek(s)).toEqual(w);
    removeSavedWeek(s);
    expect(loadSavedWeek(s)).toBeNull();
  });

  it("tolerates garbage: anything that is not a saved week loads as none", () => {
    const s = fakeStorage();
    for (const text of [
      "{",
      "null",
      "[]",
      '{"importType":"XYZ","startOfWeek":"2031-03-03","endOfWeek":"2031-03-09","events":[]}',
      '{"importType":"CSV","startOfWeek":"2031-03-03","endOfWeek":"2031-03-09","events":[{"id":1}]}',
    ]) {
      s.data.set(WEEK_STORAGE_KEY, text);
      expect(loadSavedWeek(s)).toBeNull();
    }
    expect(loadSavedWeek(null)).toBeNull();
  });

  it("a full quota keeps the previous saved week and reports a failure", () => {
    const small = week([ev("a", MONDAY, "09:00", "10:00")]);
    const s = fakeStorage(JSON.stringify(small).length + 10);
    expect(storeSavedWeek(small, s).ok).toBe(true);
    const big = week([ev("a", MONDAY, "09:00", "10:00"), ev("b", MONDAY, "10:00", "11:00")]);
    expect(storeSavedWeek(big, s)).toEqual({ ok: false });
    expect(loadSavedWeek(s)).toEqual(small);
  });

  it("a write that does not read back whole is a failure, and the previous value is restored", () => {
    const s = fakeStorage();
    const first = week([ev("a", MONDAY, "09:00", "10:00")]);
    storeSavedWeek(first, s);
    const lossy: WeekStorage = { ...s, setItem: (k, v) => s.setItem(k, v.replace(/"id":"b"/, '"id":2')) };
    expect(storeSavedWeek(week([ev("a", MONDAY, "09:00", "10:00"), ev("b", MONDAY, "10:00", "11:00")]), lossy).ok).toBe(false);
    expect(loadSavedWeek(s)).toEqual(first);
  });
});

describe("saved week changes (SPEC §4 local week lifecycle)", () => {
  const server = (id: number, date: string, from: string, to: string, import_key: string | null = null) =>
    ({
      id,
      employee_id: 1,
      begins_at: at(date, from),
      ends_at: at(date, to),
      description: `srv ${id}`,
      action_type: "project",
      import_key,
    }) as Activity;

  it("refresh: the server's activities of the week become isintoSia events; saved local events give way", () => {
    const w = week([ev("a", MONDAY, "09:00", "10:00"), ev("b", MONDAY, "11:00", "12:00")]);
    const merged = mergeServerActivities(w, [
      server(7, MONDAY, "09:00", "10:00", "key-a"),
      server(8, "2031-03-05", "08:00", "09:00"),
      server(9, "2031-03-12", "08:00", "09:00"),
    ]);
    expect(merged.events.map((e) => [e.id, e.isintoSia])).toEqual([
      ["SIA-7", true],
      ["b", false],
      ["SIA-8", true],
    ]);
    // Refreshing again replaces the server's events instead of adding them twice.
    expect(mergeServerActivities(merged, [server(8, "2031-03-05", "08:00", "09:00")]).events.map((e) => e.id)).toEqual([
      "b",
      "SIA-8",
    ]);
    expect(eventsToSave(merged).map((e) => e.id)).toEqual(["b"]);
  });

  it("one-day import replaces only that day's events", () => {
    const w = week([ev("a", MONDAY, "09:00", "10:00"), ev("b", "2031-03-04", "09:00", "10:00")]);
    const r = replaceDay(w, "2031-03-04", [ev("c", "2031-03-04", "12:00", "13:00"), ev("x", MONDAY, "15:00", "16:00")]);
    expect(r.events.map((e) => e.id)).toEqual(["a", "c"]);
  });

  it("editing, dragging or resizing an event makes it valid; a missing one is reported", () => {
    const w = week([ev("a", MONDAY, "09:00", "10:00", { isValidate: false, errors: ["falta proyecto"] })]);
    const r = updateEvent(w, "a", { start: at(MONDAY, "11:00"), end: at(MONDAY, "12:00") });
    expect(r?.events[0]).toMatchObject({ id: "a", isValidate: true, errors: [], start: at(MONDAY, "11:00") });
    expect(updateEvent(w, "zzz", {})).toBeNull();
  });

  it("the copy icon adds a duplicate with id CP-<time> and its own import key", () => {
    const w = week([ev("a", MONDAY, "09:00", "10:00")]);
    const r = duplicateEvent(w, "a", new Date(at("2031-03-04", "09:00")), new Date(at("2031-03-04", "10:00")), 1234);
    expect(r?.events.map((e) => e.id)).toEqual(["a", "CP-1234"]);
    expect(r?.events[1].importKey).not.toBe(r?.events[0].importKey);
    expect(r?.events[1].google_calendar_id).toBeNull();
    expect(duplicateEvent(w, "nope", new Date(), new Date())).toBeNull();
  });

  it("overlaps are flagged with both events' times; touching events are not", () => {
    const list = [ev("a", MONDAY, "09:00", "10:00"), ev("b", MONDAY, "10:00", "11:00"), ev("c", MONDAY, "10:30", "12:00")];
    expect(findConflicts(list, "Hay eventos con fechas en conflictos")).toEqual([
      "10:00 - 11:00: Hay eventos con fechas en conflictos",
      "10:30 - 12:00: Hay eventos con fechas en conflictos",
    ]);
    expect(findConflicts(list.slice(0, 2), "x")).toEqual([]);
  });

  it("validation errors keyed by index mark the sent events invalid", () => {
    const w = week([ev("a", MONDAY, "09:00", "10:00"), ev("b", MONDAY, "10:00", "11:00")]);
    const errors = flattenBatchErrors({ 1: { project_id: ["10:00 - 11:00: es obligatorio"], base: ["10:00 - 11:00: otro"] } });
    expect(errors).toEqual({ 1: ["10:00 - 11:00: es obligatorio", "10:00 - 11:00: otro"] });
    const r = markInvalid(w, eventsToSave(w), errors);
    expect(r.events.map((e) => e.isValidate)).toEqual([true, false]);
    expect(r.events[1].errors).toHaveLength(2);
  });

  it("only events inside the saved week count as inside; colours: invalid red, in SIA brown", () => {
    const w = week([]);
    expect(insideWeek(w, { start: at(SUNDAY, "23:00") })).toBe(true);
    expect(insideWeek(w, { start: at("2031-03-10", "00:30") })).toBe(false);
    expect(localEventColors(ev("a", MONDAY, "09:00", "10:00", { isValidate: false })).background).toBe(LOCAL_COLORS.invalid);
    expect(localEventColors(ev("a", MONDAY, "09:00", "10:00", { isintoSia: true })).background).toBe(LOCAL_COLORS.inSia);
    expect(localEventColors(ev("a", MONDAY, "09:00", "10:00")).background).toBe("#fbc02d");
  });
});
