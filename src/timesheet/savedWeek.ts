/**
 * The local saved week (SPEC §3 "Local saved week", §4 "Local week lifecycle"): the ONE module over
 * localStorage's `weekCalendar`. Pure functions change a SavedWeek; a thin storage layer loads it (garbage →
 * null), saves it (a full quota keeps the previous value and reports a failure) and removes it.
 */
import { IMPORT_TYPES, type LocalEvent, type SavedWeek, WEEK_STORAGE_KEY } from "../core/localEvent";
import { hhmm, localDate, timePrefix } from "../core/week";
import type { Activity } from "./useWeekActivities";

/** The part of the Web Storage API this module uses (a fake one in unit tests). */
export type WeekStorage = Pick<Storage, "getItem" | "setItem" | "removeItem">;

const browserStorage = (): WeekStorage | null => (typeof localStorage === "undefined" ? null : localStorage);

const isEvent = (e: unknown): e is LocalEvent => {
  const o = e as Partial<LocalEvent> | null;
  return (
    !!o &&
    typeof o === "object" &&
    typeof o.id === "string" &&
    typeof o.start === "string" &&
    typeof o.end === "string" &&
    !Number.isNaN(Date.parse(o.start)) &&
    !Number.isNaN(Date.parse(o.end))
  );
};

/** Parses a stored value; anything that is not a saved week (garbage, another shape) is null. */
export function parseSavedWeek(text: string | null): SavedWeek | null {
  if (!text) return null;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return null;
  }
  const w = value as Partial<SavedWeek> | null;
  if (!w || typeof w !== "object") return null;
  if (!IMPORT_TYPES.includes(w.importType as never)) return null;
  const date = /^\d{4}-\d{2}-\d{2}$/;
  if (typeof w.startOfWeek !== "string" || !date.test(w.startOfWeek)) return null;
  if (typeof w.endOfWeek !== "string" || !date.test(w.endOfWeek)) return null;
  if (!Array.isArray(w.events) || !w.events.every(isEvent)) return null;
  return w as SavedWeek;
}

export function loadSavedWeek(storage: WeekStorage | null = browserStorage()): SavedWeek | null {
  try {
    return parseSavedWeek(storage?.getItem(WEEK_STORAGE_KEY) ?? null);
  } catch {
    return null;
  }
}

/**
 * Writes the week. A full quota (or any refusal) leaves the previous saved week as it was; the write is
 * read back and its events counted, so a partial write is also a failure.
 */
export function storeSavedWeek(week: SavedWeek, storage: WeekStorage | null = browserStorage()): { ok: boolean } {
  if (!storage) return { ok: false };
  let previous: string | null = null;
  try {
    previous = storage.getItem(WEEK_STORAGE_KEY);
    storage.setItem(WEEK_STORAGE_KEY, JSON.stringify(week));
  } catch {
    return { ok: false };
  }
  const back = loadSavedWeek(storage);
  if (back && back.events.length === week.events.length) return { ok: true };
  try {
    if (previous === null) storage.removeItem(WEEK_STORAGE_KEY);
    else storage.setItem(WEEK_STORAGE_KEY, previous);
  } catch {
    // nothing more to undo
  }
  return { ok: false };
}

export function removeSavedWeek(storage: WeekStorage | null = browserStorage()) {
  try {
    storage?.removeItem(WEEK_STORAGE_KEY);
  } catch {
    // nothing stored
  }
}

/* ---------- pure changes ---------- */

const byStart = (a: LocalEvent, b: LocalEvent) => Date.parse(a.start) - Date.parse(b.start) || a.id.localeCompare(b.id);

/** A new saved week from an import's events (sorted by start). */
export function newSavedWeek(
  importType: SavedWeek["importType"],
  startOfWeek: string,
  endOfWeek: string,
  events: LocalEvent[],
): SavedWeek {
  return { importType, startOfWeek, endOfWeek, events: [...events].sort(byStart) };
}

/** Whether an event starts inside the saved week (only those are shown clickable). */
export const insideWeek = (week: Pick<SavedWeek, "startOfWeek" | "endOfWeek">, event: Pick<LocalEvent, "start">) => {
  const day = localDate(new Date(event.start));
  return day >= week.startOfWeek && day <= week.endOfWeek;
};

/** The server's activity as a local event already in SIA (brown; not sent again). */
export function activityToLocalEvent(a: Activity): LocalEvent {
  const extra = a as Activity & { import_key?: string | null; google_calendar_id?: string | null };
  return {
    id: `SIA-${a.id}`,
    summary: a.short_title || a.description,
    start: a.begins_at,
    end: a.ends_at,
    description: a.description,
    actionType: a.action_type as LocalEvent["actionType"],
    clientId: a.ownerable_id ?? null,
    clientName: a.ownerable_name ?? null,
    ownerableType: a.ownerable_type ?? null,
    activityTypeCatalogId: a.activity_type_catalog_id ?? null,
    projectId: a.project_id ?? null,
    projectName: a.project_name ?? null,
    project_code: a.project_code ?? null,
    productId: a.product_catalog_id ?? null,
    ticketId: a.ticket_id ?? null,
    ticketName: a.ticket_name ?? null,
    favorite: !!a.is_favorite,
    isValidate: true,
    isRecurring: false,
    isintoSia: true,
    googleCId: null,
    google_calendar_id: extra.google_calendar_id ?? null,
    google_calendar_event: null,
    shortTitle: a.short_title ?? null,
    importKey: extra.import_key ?? null,
  };
}

/**
 * "Refrescar actividades": the server's activities of the week replace the previous `isintoSia` events;
 * a local event whose import key the server already holds is dropped (it was saved).
 */
export function mergeServerActivities(week: SavedWeek, activities: Activity[]): SavedWeek {
  const server = activities.map(activityToLocalEvent).filter((e) => insideWeek(week, e));
  const savedKeys = new Set(server.map((e) => e.importKey).filter(Boolean));
  const local = week.events.filter((e) => !e.isintoSia && !(e.importKey && savedKeys.has(e.importKey)));
  return { ...week, events: [...local, ...server].sort(byStart) };
}

/** One-day import: that day's events are replaced by the imported ones; the other days stay. */
export function replaceDay(week: SavedWeek, day: string, events: LocalEvent[]): SavedWeek {
  const kept = week.events.filter((e) => localDate(new Date(e.start)) !== day);
  const added = events.filter((e) => localDate(new Date(e.start)) === day);
  return { ...week, events: [...kept, ...added].sort(byStart) };
}

/** An edit, drag or resize: the event changes and becomes valid (SPEC §4). Null when it is not there. */
export function updateEvent(week: SavedWeek, id: string, changes: Partial<LocalEvent>): SavedWeek | null {
  if (!week.events.some((e) => e.id === id)) return null;
  return {
    ...week,
    events: week.events.map((e) => (e.id === id ? { ...e, ...changes, id, isValidate: true, errors: [] } : e)).sort(byStart),
  };
}

export function removeEvent(week: SavedWeek, id: string): SavedWeek {
  return { ...week, events: week.events.filter((e) => e.id !== id) };
}

/** The copy icon: a duplicate at the new times, id `CP-<time>` (and its own import key). */
export function duplicateEvent(week: SavedWeek, id: string, start: Date, end: Date, now = Date.now()): SavedWeek | null {
  const source = week.events.find((e) => e.id === id);
  if (!source) return null;
  const copyId = `CP-${now}`;
  const copy: LocalEvent = {
    ...source,
    id: copyId,
    start: start.toISOString(),
    end: end.toISOString(),
    isintoSia: false,
    google_calendar_id: null,
    importKey: `${source.importKey ?? source.google_calendar_id ?? source.id}|${copyId}`,
  };
  return { ...week, events: [...week.events, copy].sort(byStart) };
}

/** Marks the events named by the server's validation (index into `sent`) invalid with its messages. */
export function markInvalid(week: SavedWeek, sent: LocalEvent[], errors: Record<string, string[]>): SavedWeek {
  const byId = new Map(Object.entries(errors).map(([index, list]) => [sent[Number(index)]?.id, list]));
  return {
    ...week,
    events: week.events.map((e) => (byId.has(e.id) ? { ...e, isValidate: false, errors: byId.get(e.id) } : e)),
  };
}

/** The events to save: not already in SIA, sorted by start. */
export const eventsToSave = (week: SavedWeek) => week.events.filter((e) => !e.isintoSia).sort(byStart);

/**
 * Overlapping events of the week (sorted by start), each message prefixed by its times like the server's:
 * empty when none overlap.
 */
export function findConflicts(events: LocalEvent[], message: string): string[] {
  const sorted = [...events].sort(byStart);
  const out: string[] = [];
  for (let i = 0; i < sorted.length; i++) {
    for (let j = i + 1; j < sorted.length; j++) {
      if (Date.parse(sorted[j].start) >= Date.parse(sorted[i].end)) break;
      for (const e of [sorted[i], sorted[j]]) {
        const text = `${timePrefix(new Date(e.start), new Date(e.end))}${message}`;
        if (!out.includes(text)) out.push(text);
      }
    }
  }
  return out;
}

/** Validation errors keyed by index ({field: [msg]}) → one list of messages per index. */
export function flattenBatchErrors(errors: Record<string, unknown>): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const [index, value] of Object.entries(errors)) {
    if (!/^\d+$/.test(index)) continue;
    const fields = (value ?? {}) as Record<string, unknown>;
    out[index] = Object.values(fields).flatMap((v) => (Array.isArray(v) ? v.map(String) : [String(v)]));
  }
  return out;
}

/** Title shown on the calendar for a local event. */
export const eventTitle = (e: LocalEvent) => e.shortTitle || e.description || e.summary;
export const eventTimes = (e: LocalEvent) => `${hhmm(new Date(e.start))} - ${hhmm(new Date(e.end))}`;
