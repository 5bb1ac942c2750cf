/** The draft week (src/timesheet/model): whose it is, what it shows, what it saves, how refusals read. */
import { describe, expect, it } from "vitest";
import type { Activity } from "../../src/core/activity";
import { type LocalEvent, WEEK_STORAGE_KEY } from "../../src/core/localEvent";
import { messages } from "../../src/core/messages";
import { zonedTime } from "../../src/core/week";
import { LOCAL_COLORS, localEventColors } from "../../src/timesheet/model/colors";
import {
  addEvent,
  applySaveErrors,
  changeEvent,
  type Draft,
  duplicateEvent,
  errorLineText,
  findConflicts,
  insideWeek,
  newDraft,
  pendingCount,
  rebase,
  removeEvent,
  replaceDay,
  savePayload,
  settle,
  shownEvents,
  timesProblems,
} from "../../src/timesheet/model/draft";
import { type DraftStorage, draftKey, loadDraft, parseDraft, removeDraft, storeDraft } from "../../src/timesheet/model/storage";

const MONDAY = "2031-03-03";
const SUNDAY = "2031-03-09";
const OWNER = { userId: 7, employeeId: 70 };
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
const activity = (id: number, date: string, from: string, to: string, extra: Partial<Activity> = {}): Activity =>
  ({
    id,
    lock_version: 3,
    employee_id: OWNER.employeeId,
    begins_at: at(date, from),
    ends_at: at(date, to),
    description: `Actividad ${id}`,
    action_type: "internal",
    activity_type_catalog_id: null,
    ownerable_id: null,
    ownerable_type: null,
    project_id: null,
    product_catalog_id: null,
    short_title: null,
    ticket_id: null,
    ticket_name: null,
    is_favorite: false,
    google_calendar_id: null,
    google_calendar_event: null,
    import_key: null,
    is_editable: true,
    is_month_frozen: false,
    ...extra,
  }) as Activity;
const draftOf = (events: LocalEvent[], owner = OWNER): Draft => newDraft(owner, "ICS", MONDAY, SUNDAY, events);

/** A Storage with a quota in characters. */
function fakeStorage(quota = Number.POSITIVE_INFINITY): DraftStorage & { data: Map<string, string> } {
  const data = new Map<string, string>();
  return {
    data,
    getItem: (k) => data.get(k) ?? null,
    setItem: (k, v) => {
      const used = [...data.entries()].filter(([key]) => key !== k).reduce((n, [, value]) => n + value.length, 0);
      if (used + v.length > quota) throw new DOMException("quota", "QuotaExceededError");
      data.set(k, v);
    },
    removeItem: (k) => void data.delete(k),
  };
}

describe("a draft belongs to one user working on one employee's week", () => {
  it("is stored under weekCalendar:<user>:<employee>, and read only by that owner", () => {
    const storage = fakeStorage();
    const draft = draftOf([ev("a", MONDAY, "09:00", "10:00")]);
    expect(storeDraft(draft, storage)).toBe(true);
    expect([...storage.data.keys()]).toEqual([`${WEEK_STORAGE_KEY}:7:70`]);
    expect(loadDraft(OWNER, storage)?.events.map((e) => e.id)).toEqual(["a"]);
    // Another user on the same browser, or the same admin looking at another employee: nothing.
    expect(loadDraft({ userId: 8, employeeId: 70 }, storage)).toBeNull();
    expect(loadDraft({ userId: 7, employeeId: 71 }, storage)).toBeNull();
    // And the first owner's draft is still there for them.
    expect(loadDraft(OWNER, storage)).not.toBeNull();
  });

  it("a value copied under another owner's key is refused (its recorded owner must match)", () => {
    const storage = fakeStorage();
    const draft = draftOf([ev("a", MONDAY, "09:00", "10:00")]);
    storage.setItem(draftKey({ userId: 8, employeeId: 80 }), JSON.stringify(draft));
    expect(loadDraft({ userId: 8, employeeId: 80 }, storage)).toBeNull();
    expect(parseDraft(JSON.stringify({ ...draft, owner: undefined }), OWNER)).toBeNull();
  });

  it("the old global weekCalendar value is never read as anyone's draft", () => {
    const storage = fakeStorage();
    const { owner: _o, updates: _u, deletions: _d, ...legacy } = draftOf([ev("a", MONDAY, "09:00", "10:00")]);
    storage.setItem(WEEK_STORAGE_KEY, JSON.stringify(legacy));
    expect(loadDraft(OWNER, storage)).toBeNull();
  });

  it("tolerates garbage; a full quota keeps the previous draft and reports a failure", () => {
    const storage = fakeStorage(400);
    for (const bad of ["", "{", "null", "[]", '{"owner":{"userId":7,"employeeId":70}}']) {
      storage.data.set(draftKey(OWNER), bad);
      expect(loadDraft(OWNER, storage)).toBeNull();
    }
    storage.data.clear();
    const small = draftOf([]);
    expect(storeDraft(small, storage)).toBe(true);
    const big = draftOf(Array.from({ length: 20 }, (_, i) => ev(`e${i}`, MONDAY, "09:00", "10:00")));
    expect(storeDraft(big, storage)).toBe(false);
    expect(loadDraft(OWNER, storage)?.events).toEqual([]);
    removeDraft(OWNER, storage);
    expect(storage.data.size).toBe(0);
  });
});

describe("what the draft week shows", () => {
  const stored = [activity(1, MONDAY, "08:00", "09:00"), activity(2, "2031-03-04", "10:00", "11:00")];

  it("SIA's activities (brown) beside the new events: importing never hides the saved week", () => {
    const shown = shownEvents(draftOf([ev("a", MONDAY, "09:00", "10:00")]), stored);
    expect(shown.map((e) => [e.id, e.isintoSia])).toEqual([
      ["SIA-1", true],
      ["a", false],
      ["SIA-2", true],
    ]);
    expect(localEventColors(shown[0]).background).toBe(LOCAL_COLORS.inSia);
  });

  it("changes a brown activity in the draft (with the version it was read at) and shows the change", () => {
    const draft = draftOf([]);
    const [brown] = shownEvents(draft, stored);
    const edited = changeEvent(draft, brown, { description: "Texto nuevo", shortTitle: null }, true) as Draft;
    expect(edited.updates["1"]).toMatchObject({ id: 1, lockVersion: 3, changes: { description: "Texto nuevo" } });
    const [after] = shownEvents(edited, stored);
    expect(after).toMatchObject({ description: "Texto nuevo", changed: true, isintoSia: true });
    expect(pendingCount(edited)).toBe(1);
  });

  it("deletes a brown activity on save, and it stays gone from the calendar meanwhile", () => {
    const draft = draftOf([]);
    const [brown] = shownEvents(draft, stored);
    const removed = removeEvent(draft, brown) as Draft;
    expect(removed.deletions).toMatchObject([{ id: 1, lockVersion: 3 }]);
    expect(shownEvents(removed, stored).map((e) => e.id)).toEqual(["SIA-2"]);
  });

  it("a locked activity (closed week) cannot change or be deleted", () => {
    const draft = draftOf([]);
    const [locked] = shownEvents(draft, [activity(1, MONDAY, "08:00", "09:00", { is_editable: false })]);
    expect(locked.locked).toBe(true);
    expect(changeEvent(draft, locked, { description: "x" })).toBeNull();
    expect(removeEvent(draft, locked)).toBeNull();
  });

  it("a new event already saved (its import key in SIA) shows once, as SIA's", () => {
    const draft = draftOf([ev("a", MONDAY, "09:00", "10:00")]);
    const saved = [activity(9, MONDAY, "09:00", "10:00", { import_key: "key-a" })];
    expect(shownEvents(draft, saved).map((e) => e.id)).toEqual(["SIA-9"]);
    expect(settle(draft, saved).events).toEqual([]);
  });

  it("a drag moves a red event without making it valid; the form's edit does", () => {
    const red = ev("r", MONDAY, "09:00", "10:00", { isValidate: false, errors: ["No se encontró el cliente"] });
    const draft = draftOf([red]);
    const moved = changeEvent(draft, red, { start: at(MONDAY, "11:00"), end: at(MONDAY, "12:00") }) as Draft;
    expect(moved.events[0]).toMatchObject({ isValidate: false, errors: ["No se encontró el cliente"] });
    const fixed = changeEvent(moved, moved.events[0], { clientId: 4 }, true) as Draft;
    expect(fixed.events[0]).toMatchObject({ isValidate: true, errors: [] });
  });

  it("a move cures what a move can (its times), nothing else", () => {
    const short = ev("s", MONDAY, "09:00", "09:00", {
      isValidate: false,
      errors: [messages.importZeroLength],
      errorCodes: ["zero_length"],
    });
    const draft = draftOf([short]);
    const moved = changeEvent(draft, short, { end: at(MONDAY, "10:00") }) as Draft;
    expect(moved.events[0]).toMatchObject({ isValidate: true, errors: [] });
    const both = ev("b", MONDAY, "09:00", "09:00", {
      isValidate: false,
      errors: [messages.importZeroLength, "Proyecto: no existe"],
      errorCodes: ["zero_length", "reference"],
    });
    const still = changeEvent(draftOf([both]), both, { end: at(MONDAY, "10:00") }) as Draft;
    expect(still.events[0]).toMatchObject({ isValidate: false, errors: ["Proyecto: no existe"], errorCodes: ["reference"] });
    // The code decides, not the text: a reason that reads like a time's but says no code is not cured.
    const worded = ev("w", MONDAY, "09:00", "09:00", { isValidate: false, errors: [messages.importZeroLength] });
    expect((changeEvent(draftOf([worded]), worded, { end: at(MONDAY, "10:00") }) as Draft).events[0].isValidate).toBe(false);
    // Red without a stated reason stays red: nothing says a move fixed it.
    const unknown = ev("u", MONDAY, "09:00", "10:00", { isValidate: false, errors: [] });
    expect((changeEvent(draftOf([unknown]), unknown, { end: at(MONDAY, "11:00") }) as Draft).events[0].isValidate).toBe(false);
  });

  it("adds a typed activity, duplicates with a new id and import key, replaces one day", () => {
    let draft = draftOf([ev("a", MONDAY, "09:00", "10:00"), ev("b", "2031-03-04", "09:00", "10:00")]);
    draft = addEvent(draft, { description: "Nueva" }, new Date(at(MONDAY, "12:00")), new Date(at(MONDAY, "13:00")), 5);
    expect(draft.events.find((e) => e.id === "NEW-5")).toMatchObject({ description: "Nueva", importKey: "manual|NEW-5" });
    draft = duplicateEvent(draft, shownEvents(draft, [])[0], new Date(at(MONDAY, "14:00")), new Date(at(MONDAY, "15:00")), 6);
    expect(draft.events.find((e) => e.id === "CP-6")?.importKey).toBe("key-a|CP-6");
    const replaced = replaceDay(draft, MONDAY, [ev("c", MONDAY, "16:00", "17:00")]);
    expect(replaced.events.map((e) => e.id).sort()).toEqual(["b", "c"]);
    expect(insideWeek(draft, { start: at("2031-03-10", "09:00") })).toBe(false);
  });
});

describe("the save: one request, its refusals named by day, field and reason", () => {
  const stored = [activity(1, MONDAY, "08:00", "09:00"), activity(2, MONDAY, "10:00", "11:00")];

  it("sends the new events, the changes (at their version) and the deletions together", () => {
    let draft = draftOf([ev("a", MONDAY, "12:00", "13:00")]);
    const [one, two] = shownEvents(draft, stored).filter((e) => e.activityId);
    draft = changeEvent(draft, one, { description: "Cambiada" }, true) as Draft;
    draft = removeEvent(draft, two) as Draft;
    const payload = savePayload(draft, stored);
    expect(payload.creates).toHaveLength(1);
    expect(payload.creates[0]).toMatchObject({ employee_id: 70, description: "a", import_key: "key-a" });
    expect(payload.updates).toEqual([expect.objectContaining({ id: 1, lock_version: 3, description: "Cambiada" })]);
    expect(payload.deletions).toEqual([{ id: 2, lock_version: 3 }]);
  });

  it("marks each refused item and writes a line with its day, times, field and reason", () => {
    let draft = draftOf([ev("a", MONDAY, "12:00", "13:00")]);
    const [one] = shownEvents(draft, stored).filter((e) => e.activityId);
    draft = changeEvent(draft, one, { description: "" }, true) as Draft;
    const payload = savePayload(draft, stored);
    const labels: Record<string, string> = { description: "Descripción", ownerable_id: "Cliente o prospecto" };
    const { draft: marked, lines } = applySaveErrors(
      draft,
      payload,
      [
        { item: "0", code: "reference", field: "ownerable_id", message: "no existe" },
        { item: "0", code: "overlap", field: "base", message: messages.activityConflict },
        { item: "updates.0", code: "invalid", field: "description", message: "es obligatorio" },
      ],
      (f) => labels[f] ?? f,
    );
    expect(lines.map(errorLineText)).toEqual([
      "lun 03/03 12:00 - 13:00 · Cliente o prospecto: no existe",
      `lun 03/03 12:00 - 13:00 · ${messages.activityConflict}`,
      "lun 03/03 08:00 - 09:00 · Descripción: es obligatorio",
    ]);
    expect(marked.events[0]).toMatchObject({
      isValidate: false,
      errors: ["Cliente o prospecto: no existe", messages.activityConflict],
      errorCodes: ["reference", "overlap"],
    });
    // A drag cures the overlap by its code; the unknown client stays, and so does the red.
    const dragged = changeEvent(marked, marked.events[0], { start: at(MONDAY, "14:00"), end: at(MONDAY, "15:00") }) as Draft;
    expect(dragged.events[0]).toMatchObject({
      isValidate: false,
      errors: ["Cliente o prospecto: no existe"],
      errorCodes: ["reference"],
    });
    expect(shownEvents(marked, stored).find((e) => e.activityId === 1)).toMatchObject({ isValidate: false });
  });

  it("after another person's change, keeping mine re-bases each change on the current version", () => {
    let draft = draftOf([]);
    const [one, two] = shownEvents(draft, stored).filter((e) => e.activityId);
    draft = changeEvent(draft, one, { description: "Mía" }, true) as Draft;
    draft = removeEvent(draft, two) as Draft;
    const now = [activity(1, MONDAY, "08:00", "09:00", { lock_version: 5 })];
    const rebased = rebase(draft, now);
    expect(rebased.updates["1"]).toMatchObject({ lockVersion: 5, changes: { description: "Mía" } });
    // Deleted meanwhile by the other person: nothing left to delete.
    expect(rebased.deletions).toEqual([]);
  });

  it("overlaps and impossible times are named before anything is sent", () => {
    const lines = findConflicts(
      [ev("a", MONDAY, "09:00", "10:00"), ev("b", MONDAY, "09:30", "10:30")],
      "Hay eventos con fechas en conflictos",
    );
    expect(lines.map(errorLineText)).toEqual([
      "lun 03/03 09:00 - 10:00 · Hay eventos con fechas en conflictos (a)",
      "lun 03/03 09:30 - 10:30 · Hay eventos con fechas en conflictos (b)",
    ]);
    expect(findConflicts([ev("a", MONDAY, "09:00", "10:00"), ev("b", MONDAY, "10:00", "11:00")], "x")).toEqual([]);
    expect(timesProblems(at(MONDAY, "09:00"), at(MONDAY, "09:00"))).toEqual([
      { code: "zero_length", reason: messages.importZeroLength },
    ]);
    expect(timesProblems(at(MONDAY, "23:00"), at("2031-03-04", "01:00"))).toEqual([
      { code: "past_midnight", reason: messages.importPastMidnight },
    ]);
    expect(timesProblems(at(MONDAY, "23:00"), at("2031-03-04", "00:00"))).toEqual([]);
  });
});
