/**
 * The draft week (SPEC §3 "Local saved week", §4 "Local week lifecycle"): what someone imported or changed
 * in a week and has not saved yet. Pure functions; storage is in ./storage.ts.
 *
 * A draft belongs to one person working on one employee's week: its owner ({userId, employeeId}) is part
 * of its storage key and of the draft itself, so nobody else signed in on the browser, and no other
 * employee chosen in the picker, ever sees or saves it (docs/decisions/026-timesheet-draft.md).
 *
 * The draft keeps only the changes, never copies of what is in SIA:
 * - `events`: new activities (imported, duplicated) to create;
 * - `updates`: changes to activities already in SIA, by id, with the version they were read at;
 * - `deletions`: activities in SIA to delete, with their version.
 * What the calendar shows is derived (`shownEvents`): the week's activities as SIA has them now, with the
 * updates applied and the deletions left out (brown), plus the new ones (blue, or red when invalid). So a
 * refresh never leaves stale copies behind, and saving sends all three lists in one request.
 */
import { type Activity, activityToLocalEvent, localEventToActivity } from "../../core/activity";
import { type ItemIssue, isRuleCode, MOVE_CURABLE, overlappingPairs, type RuleCode } from "../../core/activityRules";
import type { ImportType, LocalEvent } from "../../core/localEvent";
import { activityTimeIssues } from "../../core/schemas/activity";
import { hhmm, localDate } from "../../core/week";

/** Whose draft it is: the signed-in user, working on one employee's week. */
export interface DraftOwner {
  userId: number;
  employeeId: number;
}

/** Changes to an activity already in SIA, and the version they were made on. */
export interface DraftUpdate {
  id: number;
  lockVersion: number;
  changes: Partial<LocalEvent>;
  /** Why the last save refused it. */
  errors?: string[];
}

export interface DraftDeletion {
  id: number;
  lockVersion: number;
  /** What it was, for the messages ("09:00 - 10:00 Revisión"). */
  start: string;
  end: string;
  title: string;
  errors?: string[];
}

export interface Draft {
  owner: DraftOwner;
  importType: ImportType;
  /** YYYY-MM-DD of the Monday and of the Sunday. */
  startOfWeek: string;
  endOfWeek: string;
  /** New activities (imports, duplicates). */
  events: LocalEvent[];
  updates: Record<string, DraftUpdate>;
  deletions: DraftDeletion[];
}

/** An event as the calendar shows it in draft mode. */
export interface ShownEvent extends LocalEvent {
  /** The activity in SIA it shows (brown), absent for new ones. */
  activityId?: number;
  lockVersion?: number;
  /** In SIA and not editable (a closed week or month): drawn, never changed. */
  locked?: boolean;
  /** In SIA with changes of this draft not saved yet. */
  changed?: boolean;
}

const byStart = (a: LocalEvent, b: LocalEvent) => Date.parse(a.start) - Date.parse(b.start) || a.id.localeCompare(b.id);

export const BROWN_PREFIX = "SIA-";

export function newDraft(
  owner: DraftOwner,
  importType: ImportType,
  startOfWeek: string,
  endOfWeek: string,
  events: LocalEvent[],
): Draft {
  return { owner, importType, startOfWeek, endOfWeek, events: [...events].sort(byStart), updates: {}, deletions: [] };
}

/** Whether an instant lies inside the draft's week (by its local date). */
export const insideWeek = (week: Pick<Draft, "startOfWeek" | "endOfWeek">, event: Pick<LocalEvent, "start">) => {
  const day = localDate(new Date(event.start));
  return day >= week.startOfWeek && day <= week.endOfWeek;
};

/** Nothing left to save. */
export const isEmpty = (draft: Draft) => !draft.events.length && !Object.keys(draft.updates).length && !draft.deletions.length;

/** How many changes the draft would save. */
export const pendingCount = (draft: Draft) => draft.events.length + Object.keys(draft.updates).length + draft.deletions.length;

export const isLockedActivity = (a: Pick<Activity, "is_editable" | "is_month_frozen">) =>
  a.is_editable === false || a.is_month_frozen === true;

/**
 * The week as the calendar shows it: SIA's activities (with this draft's changes, without its deletions)
 * and the new events. A new event whose import key SIA already holds was saved: SIA's copy is shown.
 */
export function shownEvents(draft: Draft, activities: readonly Activity[]): ShownEvent[] {
  const deleted = new Set(draft.deletions.map((d) => d.id));
  const stored: ShownEvent[] = [];
  const storedKeys = new Set<string>();
  for (const a of activities) {
    if (deleted.has(a.id)) continue;
    const base = activityToLocalEvent(a);
    if (base.importKey) storedKeys.add(base.importKey);
    const update = draft.updates[String(a.id)];
    stored.push({
      ...base,
      ...(update?.changes ?? {}),
      id: `${BROWN_PREFIX}${a.id}`,
      isintoSia: true,
      activityId: a.id,
      lockVersion: update?.lockVersion ?? a.lock_version ?? 0,
      locked: isLockedActivity(a),
      changed: !!update,
      isValidate: !update?.errors?.length,
      errors: update?.errors ?? [],
    });
  }
  const fresh = draft.events.filter((e) => !(e.importKey && storedKeys.has(e.importKey)));
  return [...stored, ...fresh].sort(byStart);
}

/** The fields an edit, a drag or a resize may change (never the identity of the event). */
type Changes = Partial<Omit<LocalEvent, "id" | "isintoSia">>;

/**
 * An edit, drag or resize of a shown event. An activity in SIA records the change beside the version it
 * was read at; a new event changes in place. Only an edit through the form (`fromForm`, whose fields the
 * form has checked) clears an event's reasons: a drag moves a red event, it does not make it valid.
 * Null when the event cannot change (locked) or is not part of the week any more.
 */
export function changeEvent(draft: Draft, event: ShownEvent, changes: Changes, fromForm = false): Draft | null {
  if (event.activityId !== undefined) {
    if (event.locked) return null;
    const key = String(event.activityId);
    const previous = draft.updates[key];
    const update: DraftUpdate = {
      id: event.activityId,
      lockVersion: previous?.lockVersion ?? event.lockVersion ?? 0,
      changes: { ...(previous?.changes ?? {}), ...changes },
      ...(fromForm || !previous?.errors ? {} : { errors: previous.errors }),
    };
    return { ...draft, updates: { ...draft.updates, [key]: update } };
  }
  if (!draft.events.some((e) => e.id === event.id)) return null;
  const moved = "start" in changes || "end" in changes;
  return {
    ...draft,
    events: draft.events
      .map((e) => {
        if (e.id !== event.id) return e;
        if (fromForm) return { ...e, ...changes, id: e.id, isValidate: true, errors: [], errorCodes: [] };
        if (!moved || e.isValidate) return { ...e, ...changes, id: e.id };
        // SPEC §4 "dragging or resizing sets it valid": what a move can fix is its times, by the reasons'
        // rule codes; a reason about its fields (an unknown project), or one without a code, stays, and so
        // does the red.
        const errors = e.errors ?? [];
        const cured = errors.map((_, i) => {
          const code = e.errorCodes?.[i];
          return isRuleCode(code) && MOVE_CURABLE.has(code);
        });
        const left = errors.filter((_, i) => !cured[i]);
        const leftCodes = (e.errorCodes ?? []).filter((_, i) => !cured[i]);
        const fixed = errors.length > 0 && left.length === 0;
        if (fixed) return { ...e, ...changes, id: e.id, isValidate: true, errors: [], errorCodes: [] };
        return {
          ...e,
          ...changes,
          id: e.id,
          isValidate: false,
          errors: left,
          ...(e.errorCodes ? { errorCodes: leftCodes } : {}),
        };
      })
      .sort(byStart),
  };
}

/** A new activity typed into the draft week (an empty slot clicked while a week is kept). */
export function addEvent(draft: Draft, fields: Changes, start: Date, end: Date, now = Date.now()): Draft {
  const id = `NEW-${now}`;
  const event: LocalEvent = {
    summary: "",
    description: "",
    actionType: "project",
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
    isRecurring: false,
    googleCId: null,
    google_calendar_id: null,
    google_calendar_event: null,
    shortTitle: null,
    ...fields,
    id,
    start: start.toISOString(),
    end: end.toISOString(),
    isValidate: true,
    isintoSia: false,
    errors: [],
    importKey: `manual|${id}`,
  };
  return { ...draft, events: [...draft.events, event].sort(byStart) };
}

/** Removes a shown event: a new one is dropped, an activity in SIA will be deleted on save. */
export function removeEvent(draft: Draft, event: ShownEvent): Draft | null {
  if (event.activityId !== undefined) {
    if (event.locked) return null;
    const { [String(event.activityId)]: _dropped, ...updates } = draft.updates;
    if (draft.deletions.some((d) => d.id === event.activityId)) return draft;
    const deletion: DraftDeletion = {
      id: event.activityId,
      lockVersion: event.lockVersion ?? 0,
      start: event.start,
      end: event.end,
      title: eventTitle(event),
    };
    return { ...draft, updates, deletions: [...draft.deletions, deletion] };
  }
  if (!draft.events.some((e) => e.id === event.id)) return null;
  return { ...draft, events: draft.events.filter((e) => e.id !== event.id) };
}

/** A copy of a shown event at new times: a new event with its own id and import key. */
export function duplicateEvent(draft: Draft, source: ShownEvent, start: Date, end: Date, now = Date.now()): Draft {
  const id = `CP-${now}`;
  const { activityId: _a, lockVersion: _v, locked: _l, changed: _c, ...fields } = source;
  const copy: LocalEvent = {
    ...fields,
    id,
    start: start.toISOString(),
    end: end.toISOString(),
    isintoSia: false,
    isValidate: true,
    errors: [],
    google_calendar_id: null,
    importKey: `${source.importKey ?? source.google_calendar_id ?? source.id}|${id}`,
  };
  return { ...draft, events: [...draft.events, copy].sort(byStart) };
}

/** A one-day import: that day's new events are replaced by the imported ones; SIA's stay. */
export function replaceDay(draft: Draft, day: string, events: LocalEvent[]): Draft {
  const kept = draft.events.filter((e) => localDate(new Date(e.start)) !== day);
  const added = events.filter((e) => localDate(new Date(e.start)) === day);
  return { ...draft, events: [...kept, ...added].sort(byStart) };
}

/**
 * "Refrescar": SIA's activities are read again (the calendar derives from them), and what SIA now holds
 * leaves the draft: new events already saved (by import key), changes and deletions of activities that
 * no longer exist.
 */
export function settle(draft: Draft, activities: readonly Activity[]): Draft {
  const ids = new Set(activities.map((a) => a.id));
  const keys = new Set(activities.map((a) => a.import_key).filter(Boolean));
  return {
    ...draft,
    events: draft.events.filter((e) => !(e.importKey && keys.has(e.importKey))),
    updates: Object.fromEntries(Object.entries(draft.updates).filter(([id]) => ids.has(Number(id)))),
    deletions: draft.deletions.filter((d) => ids.has(d.id)),
  };
}

/**
 * After a 409 (another person changed or deleted an activity this draft changes): the person chose to
 * keep their changes over the current version. Each change is re-based on the version SIA has now;
 * changes to activities that no longer exist are dropped.
 */
export function rebase(draft: Draft, activities: readonly Activity[]): Draft {
  const version = new Map(activities.map((a) => [a.id, a.lock_version ?? 0]));
  const updates: Record<string, DraftUpdate> = {};
  for (const [key, update] of Object.entries(draft.updates)) {
    const current = version.get(update.id);
    if (current !== undefined) updates[key] = { ...update, lockVersion: current, errors: undefined };
  }
  return {
    ...draft,
    updates,
    deletions: draft.deletions
      .filter((d) => version.has(d.id))
      .map((d) => ({ ...d, lockVersion: version.get(d.id) as number, errors: undefined })),
  };
}

/** A new event of the draft whose import key another window saved with other content (the week save's 409). */
export interface KeyConflict {
  /** The draft event. */
  eventId: string;
  /** The stored activity under the same key, and its version. */
  id: number;
  lockVersion: number;
}

/** The conflicts of a refused save (creates by index, sorted by start as the payload sent them). */
export function keyConflictsOf(draft: Draft, conflicts: readonly { index: number; id: number; lock_version: number }[]) {
  const sorted = [...draft.events].sort(byStart);
  return conflicts
    .filter((c) => sorted[c.index])
    .map((c): KeyConflict => ({ eventId: sorted[c.index].id, id: c.id, lockVersion: c.lock_version }));
}

/** What an event says, as changes of a stored activity (never its identity or its source's keys). */
const contentOf = (e: LocalEvent): Partial<LocalEvent> => ({
  start: e.start,
  end: e.end,
  description: e.description,
  actionType: e.actionType,
  clientId: e.clientId,
  clientName: e.clientName,
  ownerableType: e.ownerableType,
  activityTypeCatalogId: e.activityTypeCatalogId,
  projectId: e.projectId,
  projectName: e.projectName,
  project_code: e.project_code,
  productId: e.productId,
  ticketId: e.ticketId,
  ticketName: e.ticketName,
  shortTitle: e.shortTitle,
});

/**
 * The person's choice on each conflict: "mine" turns the event into a change of the stored activity at
 * the version read (the next save writes it over the other window's), "stored" drops it from the draft.
 */
export function resolveKeyConflicts(draft: Draft, conflicts: readonly KeyConflict[], keep: "mine" | "stored"): Draft {
  const byEvent = new Map(conflicts.map((c) => [c.eventId, c]));
  const updates = { ...draft.updates };
  if (keep === "mine")
    for (const event of draft.events) {
      const conflict = byEvent.get(event.id);
      if (conflict)
        updates[String(conflict.id)] = { id: conflict.id, lockVersion: conflict.lockVersion, changes: contentOf(event) };
    }
  return { ...draft, events: draft.events.filter((e) => !byEvent.has(e.id)), updates };
}

/* ---------- the save ---------- */

export interface SavePayload {
  employee_id: number;
  creates: ReturnType<typeof toCreate>[];
  updates: Array<Record<string, unknown> & { id: number; lock_version: number }>;
  deletions: Array<{ id: number; lock_version: number }>;
}

const toCreate = (event: LocalEvent, employeeId: number) => localEventToActivity(event, employeeId);

/** The one request that saves the draft: new activities, changes and deletions together. */
export function savePayload(draft: Draft, activities: readonly Activity[]): SavePayload {
  const employeeId = draft.owner.employeeId;
  const shown = new Map(
    shownEvents(draft, activities)
      .filter((e) => e.activityId !== undefined)
      .map((e) => [e.activityId as number, e]),
  );
  const updates: SavePayload["updates"] = [];
  for (const update of Object.values(draft.updates)) {
    const event = shown.get(update.id);
    if (!event) continue;
    const { employee_id: _e, import_key: _k, google_series_id: _s, ...fields } = localEventToActivity(event, employeeId);
    updates.push({ ...fields, id: update.id, lock_version: update.lockVersion });
  }
  return {
    employee_id: employeeId,
    creates: [...draft.events].sort(byStart).map((e) => toCreate(e, employeeId)),
    updates,
    deletions: draft.deletions.map((d) => ({ id: d.id, lock_version: d.lockVersion })),
  };
}

/** The server's refusals of a save: each with its item ("N" creates, "updates.N", "deletions.N"), field and code. */
export type SaveIssues = readonly ItemIssue[];

export interface ErrorLine {
  /** "lun 23/11 09:00 - 10:00" */
  when: string;
  /** The field's label, or null for the activity as a whole. */
  field: string | null;
  reason: string;
}

const DAY = new Intl.DateTimeFormat("es-MX", {
  weekday: "short",
  day: "2-digit",
  month: "2-digit",
  timeZone: "America/Mexico_City",
});

/** "lun 23/11 09:00 - 10:00" for an event's times. */
export function whenOf(start: string, end: string): string {
  const s = new Date(start);
  const e = new Date(end);
  return `${DAY.format(s).replace(",", "")} ${hhmm(s)} - ${hhmm(e)}`;
}

/**
 * The refused save's issues as lines naming the day and times, the field and the reason; and the draft
 * with each refused item marked (its reasons shown on it, each with its rule code). `label` names a field
 * in Spanish. The server says the item, the field and the code apart: nothing is read out of the text.
 */
export function applySaveErrors(
  draft: Draft,
  payload: SavePayload,
  issues: SaveIssues,
  label: (field: string) => string,
): { draft: Draft; lines: ErrorLine[] } {
  const lines: ErrorLine[] = [];
  const sortedEvents = [...draft.events].sort(byStart);
  const byItem = new Map<string, ItemIssue[]>();
  for (const issue of issues) {
    if (issue.item === undefined) {
      lines.push({ when: "", field: issue.field === "base" ? null : label(issue.field), reason: issue.message });
      continue;
    }
    byItem.set(issue.item, [...(byItem.get(issue.item) ?? []), issue]);
  }
  const reasonsOf = (list: ItemIssue[], when: string) =>
    list.map(({ field, message }) => {
      const named = field === "base" ? null : label(field);
      lines.push({ when, field: named, reason: message });
      return named ? `${named}: ${message}` : message;
    });
  const byCreate = new Map<string, { errors: string[]; codes: RuleCode[] }>();
  const updates = { ...draft.updates };
  const deletions = [...draft.deletions];
  for (const [key, list] of byItem) {
    const create = /^\d+$/.test(key) ? sortedEvents[Number(key)] : undefined;
    if (create) {
      byCreate.set(create.id, { errors: reasonsOf(list, whenOf(create.start, create.end)), codes: list.map((i) => i.code) });
      continue;
    }
    const update = /^updates\.(\d+)$/.exec(key);
    if (update) {
      const sent = payload.updates[Number(update[1])];
      const stored = sent && updates[String(sent.id)];
      if (sent && stored) {
        updates[String(sent.id)] = { ...stored, errors: reasonsOf(list, whenOf(String(sent.begins_at), String(sent.ends_at))) };
      }
      continue;
    }
    const deletion = /^deletions\.(\d+)$/.exec(key);
    if (deletion) {
      const sent = payload.deletions[Number(deletion[1])];
      const index = deletions.findIndex((d) => d.id === sent?.id);
      if (index >= 0)
        deletions[index] = {
          ...deletions[index],
          errors: reasonsOf(list, whenOf(deletions[index].start, deletions[index].end)),
        };
      continue;
    }
    reasonsOf(list, "");
  }
  return {
    lines,
    draft: {
      ...draft,
      events: draft.events.map((e) => {
        const refused = byCreate.get(e.id);
        return refused ? { ...e, isValidate: false, errors: refused.errors, errorCodes: refused.codes } : e;
      }),
      updates,
      deletions,
    },
  };
}

export const errorLineText = (line: ErrorLine) =>
  [line.when, line.field ? `${line.field}: ${line.reason}` : line.reason].filter(Boolean).join(" · ");

/**
 * Overlapping shown events, each named by its day and times (none when nothing overlaps): the draft's
 * pre-check, with the server's own overlap rule (src/core/activityRules.ts).
 */
export function findConflicts(events: readonly LocalEvent[], message: string): ErrorLine[] {
  const sorted = [...events].sort(byStart);
  const spans = sorted.map((e) => ({ begins_at: new Date(e.start), ends_at: new Date(e.end) }));
  const clashing = new Set(overlappingPairs(spans).flat());
  return sorted
    .filter((_, i) => clashing.has(i))
    .map((e) => ({ when: whenOf(e.start, e.end), field: null, reason: `${message} (${eventTitle(e)})` }));
}

/**
 * Title shown on the calendar: what the activity is now — its description (edited here or by another
 * client), not the calendar title it was imported with (`P|PRY-001|DE|…`), which only stands in when there
 * is no description.
 */
export const eventTitle = (e: Pick<LocalEvent, "shortTitle" | "description" | "summary">) =>
  e.description || e.shortTitle || e.summary;

/**
 * Why an event's times cannot be an activity's (SPEC §5 time rules, src/core/schemas/activity.ts), each
 * reason once with its rule code: none when fine.
 */
export const timesProblems = (start: string, end: string) => {
  const out: { code: RuleCode; reason: string }[] = [];
  for (const { code, reason } of activityTimeIssues(new Date(start), new Date(end)))
    if (!out.some((p) => p.reason === reason)) out.push({ code, reason });
  return out;
};
