/**
 * The weekly grid's model (pure, unit-tested): rows are the things a person logs time against (a project
 * with its activity type, a client and product, an action type), columns the seven days from Monday; a
 * cell is the minutes of that row's activities on that day. Typing a cell becomes changes to the week —
 * SIA's activities updated, removed or created — that the page saves through the week save, so the
 * server's rules apply to the grid exactly as to the calendar's draft.
 */
import { type Activity, copyOfActivity } from "../../core/activity";
import { ACTION_LABELS } from "../../core/constants";
import { addDays, localDate, zonedTime } from "../../core/week";
import { isLockedActivity, type SavePayload } from "../model/draft";

/** What an activity of a row carries (its copy fields): a new cell's activity is made from it. */
export type RowTemplate = ReturnType<typeof copyOfActivity>;

export interface GridRow {
  key: string;
  label: string;
  template: RowTemplate;
  /** The activity (or pin) the row was read from: pinning keeps its names. */
  source: Partial<Activity>;
}

/**
 * The identity of a row: what a person logs time against, never the times or the description. A project
 * activity's client and product are the project's, filled in by the server: they are not part of it, so a
 * row added from the form (without them) is the row of what it saves.
 */
export const rowKeyOf = (a: Partial<Activity>) => {
  const derived = a.action_type === "project";
  return [
    a.action_type,
    a.project_id ?? "",
    derived ? "" : (a.ownerable_type ?? ""),
    derived ? "" : (a.ownerable_id ?? ""),
    derived ? "" : (a.product_catalog_id ?? ""),
    a.activity_type_catalog_id ?? "",
  ].join("|");
};

/** How a row is named: the project (code and name), else the client and product, else the action type. */
export function rowLabelOf(a: Partial<Activity>): string {
  const type = a.activity_type_code ? ` · ${a.activity_type_code}` : "";
  if (a.project_id) return `${[a.project_code, a.project_name].filter(Boolean).join(" ")}${type}`;
  const kind = ACTION_LABELS[a.action_type as keyof typeof ACTION_LABELS] ?? String(a.action_type);
  const parts = [a.ownerable_name, a.product_name].filter(Boolean).join(" · ");
  return `${kind}${parts ? `: ${parts}` : ""}${type}`;
}

/**
 * The rows: one per distinct row key among the week's activities and the recent ones (latest first wins
 * the label and the template), then the pinned ones not already there, then the rows already on screen for
 * this week (`shown`: a row whose cells were just emptied stays, so the person sees what was saved and can
 * type there again); pinned keys first, then by label.
 */
export function gridRows(
  week: readonly Activity[],
  recent: readonly Activity[],
  pinned: readonly Partial<Activity>[] = [],
  shown: readonly GridRow[] = [],
): GridRow[] {
  const rows = new Map<string, GridRow>();
  const byNewest = [...week, ...recent].sort((x, y) => Date.parse(y.begins_at) - Date.parse(x.begins_at));
  for (const a of [...byNewest, ...pinned]) {
    const key = rowKeyOf(a);
    if (!rows.has(key)) rows.set(key, { key, label: rowLabelOf(a), template: copyOfActivity(a), source: a });
  }
  for (const row of shown) if (!rows.has(row.key)) rows.set(row.key, row);
  const starred = new Set(pinned.map(rowKeyOf));
  return [...rows.values()].sort(
    (x, y) => Number(starred.has(y.key)) - Number(starred.has(x.key)) || x.label.localeCompare(y.label, "es"),
  );
}

export const weekDays = (monday: string) => Array.from({ length: 7 }, (_, i) => addDays(monday, i));

export const cellId = (rowKey: string, day: string) => `${rowKey}@${day}`;

const minutesOf = (a: Pick<Activity, "begins_at" | "ends_at">) =>
  Math.round((Date.parse(a.ends_at) - Date.parse(a.begins_at)) / 60_000);

/** The week's activities by cell, earliest first. */
export function activitiesByCell(week: readonly Activity[]): Map<string, Activity[]> {
  const out = new Map<string, Activity[]>();
  const sorted = [...week].sort((x, y) => Date.parse(x.begins_at) - Date.parse(y.begins_at));
  for (const a of sorted) {
    const id = cellId(rowKeyOf(a), localDate(new Date(a.begins_at)));
    out.set(id, [...(out.get(id) ?? []), a]);
  }
  return out;
}

/** A cell's minutes as SIA holds them. */
export const cellMinutes = (activities: readonly Activity[] | undefined) =>
  (activities ?? []).reduce((sum, a) => sum + minutesOf(a), 0);

/** A cell that cannot change: one of its activities is locked, or its day is frozen. */
export const cellLocked = (activities: readonly Activity[] | undefined, day: string, frozenDays: ReadonlySet<string>) =>
  frozenDays.has(day) || (activities ?? []).some(isLockedActivity);

/** Where the grid starts a day's hours: 09:00, the firm's morning. */
export const DAY_START_MINUTES = 9 * 60;
const DAY_END_MINUTES = 24 * 60;

interface Span {
  from: number;
  to: number;
}

/** Minutes from the day's midnight of an instant on that day. */
const minuteOfDay = (day: string, iso: string) => Math.round((Date.parse(iso) - zonedTime(day, 0).getTime()) / 60_000);

/** The free spans of a day from `from` to midnight, given what is taken. */
function freeSpans(taken: readonly Span[], from: number): Span[] {
  const spans: Span[] = [];
  let at = from;
  for (const t of [...taken].sort((x, y) => x.from - y.from)) {
    if (t.to <= at) continue;
    if (t.from > at) spans.push({ from: at, to: t.from });
    at = Math.max(at, t.to);
  }
  if (at < DAY_END_MINUTES) spans.push({ from: at, to: DAY_END_MINUTES });
  return spans;
}

/**
 * Where `minutes` go on a day: from where the cell's first activity starts, as far as the next taken time,
 * and the rest (or all, for a new cell) in the day's first free time from 09:00, split over the free spans
 * when no single one holds them. Null when the day has no room left.
 */
export function placeMinutes(minutes: number, taken: readonly Span[], keepStart?: number): Span[] | null {
  if (keepStart !== undefined && !taken.some((t) => t.from <= keepStart && t.to > keepStart)) {
    // The cell's activity stays where it is and grows up to what follows it; only the rest goes elsewhere,
    // so raising a cell and lowering it back leaves the day's timeline as it was.
    const next = Math.min(DAY_END_MINUTES, ...taken.filter((t) => t.from >= keepStart).map((t) => t.from));
    const kept = { from: keepStart, to: Math.min(keepStart + minutes, next) };
    if (kept.to - kept.from >= minutes) return [kept];
    const rest = fill(minutes - (kept.to - kept.from), freeSpans([...taken, kept], DAY_START_MINUTES));
    return rest && [kept, ...rest];
  }
  return fill(minutes, freeSpans(taken, DAY_START_MINUTES));
}

/** `minutes` in the first free span that holds them all, else split over the spans in order; null if short. */
function fill(minutes: number, spans: readonly Span[]): Span[] | null {
  const whole = spans.find((s) => s.to - s.from >= minutes);
  if (whole) return [{ from: whole.from, to: whole.from + minutes }];
  const out: Span[] = [];
  let left = minutes;
  for (const s of spans) {
    if (left <= 0) break;
    const take = Math.min(left, s.to - s.from);
    out.push({ from: s.from, to: s.from + take });
    left -= take;
  }
  return left > 0 ? null : out;
}

/** What the person typed: minutes per cell id, only for the cells they changed. */
export type CellEdits = Record<string, number>;

/** A change of the week the save sends, and the cell it came from (a refusal is shown on that cell). */
export interface GridPlan {
  payload: SavePayload;
  /** For each create, update and deletion, in the payload's order: the cell id. */
  cells: { creates: string[]; updates: string[]; deletions: string[] };
  /** Cells whose hours do not fit in their day. */
  noRoom: string[];
}

/**
 * The week save that makes SIA's week what the grid shows: for each edited cell, its activities are
 * resized and moved to the new span(s), the ones left over removed, and new ones made from the row's
 * template where more spans are needed. Other rows' activities (and cells planned before) stay where
 * they are and are worked around.
 */
export function planWeek(employeeId: number, week: readonly Activity[], rows: readonly GridRow[], edits: CellEdits): GridPlan {
  const byCell = activitiesByCell(week);
  const templates = new Map(rows.map((r) => [r.key, r.template]));
  const plan: GridPlan = {
    payload: { employee_id: employeeId, creates: [], updates: [], deletions: [] },
    cells: { creates: [], updates: [], deletions: [] },
    noRoom: [],
  };
  // What each day holds as planned so far: every activity, then replaced cell by cell.
  const takenByDay = new Map<string, Map<string, Span[]>>();
  for (const [id, list] of byCell) {
    const day = id.slice(id.lastIndexOf("@") + 1);
    const dayMap = takenByDay.get(day) ?? new Map<string, Span[]>();
    dayMap.set(
      id,
      list.map((a) => ({ from: minuteOfDay(day, a.begins_at), to: minuteOfDay(day, a.ends_at) })),
    );
    takenByDay.set(day, dayMap);
  }
  const edited = Object.entries(edits).sort(([x], [y]) => x.localeCompare(y));
  for (const [id, minutes] of edited) {
    const at = id.lastIndexOf("@");
    const rowKey = id.slice(0, at);
    const day = id.slice(at + 1);
    const existing = byCell.get(id) ?? [];
    if (minutes === cellMinutes(existing)) continue;
    const dayMap = takenByDay.get(day) ?? new Map<string, Span[]>();
    takenByDay.set(day, dayMap);
    const others = [...dayMap].filter(([cell]) => cell !== id).flatMap(([, spans]) => spans);
    const spans =
      minutes === 0 ? [] : placeMinutes(minutes, others, existing[0] ? minuteOfDay(day, existing[0].begins_at) : undefined);
    if (spans === null) {
      plan.noRoom.push(id);
      continue;
    }
    dayMap.set(id, spans);
    const iso = (m: number) => zonedTime(day, m).toISOString();
    spans.forEach((span, i) => {
      const activity = existing[i];
      if (activity) {
        plan.payload.updates.push({
          id: activity.id,
          lock_version: activity.lock_version,
          begins_at: iso(span.from),
          ends_at: iso(span.to),
        });
        plan.cells.updates.push(id);
      } else {
        const template = templates.get(rowKey) ?? existing[0] ?? null;
        if (!template) return;
        plan.payload.creates.push({
          ...copyOfActivity(template as Partial<Activity>),
          employee_id: employeeId,
          begins_at: iso(span.from),
          ends_at: iso(span.to),
        } as SavePayload["creates"][number]);
        plan.cells.creates.push(id);
      }
    });
    for (const activity of existing.slice(spans.length)) {
      plan.payload.deletions.push({ id: activity.id, lock_version: activity.lock_version });
      plan.cells.deletions.push(id);
    }
  }
  return plan;
}

/**
 * A refused save's reasons by cell: the server keys them "N" (the Nth create), "updates.N" and
 * "deletions.N", each a list of messages or messages by field.
 */
export function errorsByCell(plan: GridPlan, byIndex: Record<string, Record<string, string[]> | string[]>) {
  const out: Record<string, string[]> = {};
  for (const [key, value] of Object.entries(byIndex)) {
    const [list, n] = key.includes(".") ? (key.split(".") as [string, string]) : ["creates", key];
    const cell = plan.cells[list as keyof GridPlan["cells"]]?.[Number(n)];
    if (!cell) continue;
    const reasons = Array.isArray(value) ? value : Object.values(value).flat();
    out[cell] = [...(out[cell] ?? []), ...reasons];
  }
  return out;
}
