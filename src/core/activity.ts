/**
 * The activity's vocabulary, declared once (SPEC §3, §5): each field with whether the client writes it,
 * whether a copy or duplicate carries it, the PostgreSQL type of the array it travels in when many rows
 * are inserted at once (unnest), and its name in a local event of the saved week (SPEC §3). The server's
 * writable and insert columns, the screen's copy fields, the `Activity` row and the local-event ⇄ activity
 * mappings are all read from it, so adding a field is one line here (plus its column and schema rule).
 */
import type { ActionType } from "./constants";
import type { GoogleCalendarEventInfo, LocalEvent } from "./localEvent";

type SqlType = "int4" | "text" | "timestamptz" | "bool" | "jsonb";

interface FieldSpec {
  /** The array type of the column in the unnest INSERT. */
  sql: SqlType;
  /** Sent by the client (create body, update body); false for what the server fills (update_by). */
  write: boolean;
  /** Carried by a copy or a duplicate (the new activity's times, owner and keys are its own). */
  copy: boolean;
  /** The field's name in a local event (SPEC §3); null when a local event does not hold it. */
  local: keyof LocalEvent | null;
  /** Never null in the database. */
  required?: true;
}

export const ACTIVITY_FIELDS = {
  employee_id: { sql: "int4", write: true, copy: false, local: null, required: true },
  begins_at: { sql: "timestamptz", write: true, copy: false, local: "start", required: true },
  ends_at: { sql: "timestamptz", write: true, copy: false, local: "end", required: true },
  description: { sql: "text", write: true, copy: true, local: "description", required: true },
  action_type: { sql: "text", write: true, copy: true, local: "actionType", required: true },
  activity_type_catalog_id: { sql: "int4", write: true, copy: true, local: "activityTypeCatalogId" },
  ownerable_id: { sql: "int4", write: true, copy: true, local: "clientId" },
  ownerable_type: { sql: "text", write: true, copy: true, local: "ownerableType" },
  project_id: { sql: "int4", write: true, copy: true, local: "projectId" },
  product_catalog_id: { sql: "int4", write: true, copy: true, local: "productId" },
  short_title: { sql: "text", write: true, copy: true, local: "shortTitle" },
  ticket_id: { sql: "text", write: true, copy: true, local: "ticketId" },
  ticket_name: { sql: "text", write: true, copy: true, local: "ticketName" },
  is_favorite: { sql: "bool", write: true, copy: false, local: "favorite", required: true },
  google_calendar_id: { sql: "text", write: true, copy: false, local: "google_calendar_id" },
  google_calendar_event: { sql: "jsonb", write: true, copy: false, local: "google_calendar_event" },
  import_key: { sql: "text", write: true, copy: false, local: "importKey" },
  update_by: { sql: "int4", write: false, copy: false, local: null },
} as const satisfies Record<string, FieldSpec>;

/**
 * Names the API answers beside the stored fields (computed from the references), with their local-event
 * name: what the calendar shows for an activity without asking again.
 */
export const ACTIVITY_LABELS = {
  ownerable_name: "clientName",
  project_name: "projectName",
  project_code: "project_code",
} as const satisfies Record<string, keyof LocalEvent>;

export type ActivityField = keyof typeof ACTIVITY_FIELDS;
type Fields = typeof ACTIVITY_FIELDS;
type KeysWhere<P extends keyof FieldSpec, V> = {
  [K in ActivityField]: Fields[K] extends Record<P, V> ? K : never;
}[ActivityField];

const keysWhere = <K extends ActivityField>(test: (spec: FieldSpec) => boolean) =>
  (Object.keys(ACTIVITY_FIELDS) as ActivityField[]).filter((k) => test(ACTIVITY_FIELDS[k])) as K[];

/** What a client may write (create, update): the rest is the server's. */
export const ACTIVITY_WRITABLE: readonly KeysWhere<"write", true>[] = keysWhere((s) => s.write);
/** What a copy or a duplicate carries over (the screen's copy icon, copy_previous_week's rows). */
export const ACTIVITY_COPY_FIELDS: readonly KeysWhere<"copy", true>[] = keysWhere((s) => s.copy);
/** Every stored column the server writes, with the PostgreSQL type of its array in the unnest INSERT. */
export const ACTIVITY_INSERT_COLUMNS = (Object.keys(ACTIVITY_FIELDS) as ActivityField[]).map(
  (k) => [k, ACTIVITY_FIELDS[k].sql] as const,
);

type TsOf<S extends SqlType> = S extends "int4"
  ? number
  : S extends "bool"
    ? boolean
    : S extends "jsonb"
      ? GoogleCalendarEventInfo & Record<string, unknown>
      : string;
/** The stored fields as the API answers them (instants as ISO text). */
type StoredFields = {
  [K in ActivityField]: Fields[K] extends { required: true } ? TsOf<Fields[K]["sql"]> : TsOf<Fields[K]["sql"]> | null;
};

/** One activity as the API answers it (GET activities, the batch's rows). */
export interface Activity extends Omit<StoredFields, "action_type" | "ownerable_type" | "update_by" | "google_calendar_event"> {
  id: number;
  /** The version it was read at: sent back with an update or a deletion (a stale one answers 409). */
  lock_version: number;
  action_type: ActionType;
  ownerable_type: "Client" | "Prospect" | null;
  update_by?: number | null;
  google_calendar_event?: (GoogleCalendarEventInfo & Record<string, unknown>) | null;
  employee_name?: string | null;
  ownerable_name?: string | null;
  project_name?: string | null;
  project_code?: string | null;
  product_name?: string | null;
  activity_type_code?: string | null;
  project?: { id: number; name: string; project_code: string; color_tag: string | null } | null;
  /** False when the row is locked or its day lies in a closed week or a frozen month. */
  is_editable: boolean;
  is_month_frozen: boolean;
  created_at?: string;
  updated_at?: string;
}

/** The copy of an activity's carried fields (absent ones as null). */
export const copyOfActivity = (a: Partial<Activity>) =>
  Object.fromEntries(ACTIVITY_COPY_FIELDS.map((k) => [k, a[k] ?? null])) as {
    [K in (typeof ACTIVITY_COPY_FIELDS)[number]]: Activity[K] | null;
  };

/** Fields whose local name differs from the activity's, written by the mappings below. */
const LOCAL_OF = Object.fromEntries(
  (Object.keys(ACTIVITY_FIELDS) as ActivityField[])
    .filter((k) => ACTIVITY_FIELDS[k].local)
    .map((k) => [k, ACTIVITY_FIELDS[k].local as keyof LocalEvent]),
) as Partial<Record<ActivityField, keyof LocalEvent>>;

/**
 * The body of one activity for POST activities/validate and activities/batch. The import key falls back
 * to the calendar instance id (re-saving an imported event creates no duplicate); google_series_id is
 * not stored: the batch remembers what the calendar series was mapped to, for its next week's instances.
 */
export function localEventToActivity(event: LocalEvent, employeeId?: number | null) {
  const body: Record<string, unknown> = employeeId ? { employee_id: employeeId } : {};
  for (const [field, local] of Object.entries(LOCAL_OF)) body[field] = event[local as keyof LocalEvent] ?? null;
  body.is_favorite = !!event.favorite;
  body.import_key = event.importKey ?? event.google_calendar_id ?? null;
  body.google_series_id = event.googleCId ?? null;
  return body as {
    employee_id?: number;
    begins_at: string;
    ends_at: string;
    description: string;
    action_type: ActionType;
    activity_type_catalog_id: number | null;
    ownerable_id: number | null;
    ownerable_type: "Client" | "Prospect" | null;
    project_id: number | null;
    product_catalog_id: number | null;
    short_title: string | null;
    ticket_id: string | null;
    ticket_name: string | null;
    is_favorite: boolean;
    google_calendar_id: string | null;
    google_calendar_event: GoogleCalendarEventInfo | null;
    import_key: string | null;
    google_series_id: string | null;
  };
}

/** The local id of an activity already in SIA (brown in the calendar). */
export const SIA_EVENT_PREFIX = "SIA-";
/** The activity id of a local event that came from SIA, or null for one that is not stored yet. */
export const activityIdOfLocal = (event: Pick<LocalEvent, "id" | "isintoSia">): number | null => {
  if (!event.isintoSia || !event.id.startsWith(SIA_EVENT_PREFIX)) return null;
  const id = Number(event.id.slice(SIA_EVENT_PREFIX.length));
  return Number.isInteger(id) && id > 0 ? id : null;
};

/** An activity of the server as a local event already in SIA (brown; sent back only as an update). */
export function activityToLocalEvent(a: Partial<Activity> & Pick<Activity, "id" | "begins_at" | "ends_at">): LocalEvent {
  const event: Record<string, unknown> = {};
  for (const [field, local] of Object.entries(LOCAL_OF)) event[local as string] = a[field as ActivityField] ?? null;
  for (const [label, local] of Object.entries(ACTIVITY_LABELS)) event[local] = a[label as keyof typeof ACTIVITY_LABELS] ?? null;
  return {
    ...(event as unknown as LocalEvent),
    id: `${SIA_EVENT_PREFIX}${a.id}`,
    summary: a.short_title || a.description || "",
    description: a.description ?? "",
    favorite: !!a.is_favorite,
    isValidate: true,
    isRecurring: false,
    isintoSia: true,
    googleCId: null,
  };
}

/** The labels the activity form's pickers show, kept on a local event so the calendar can draw it. */
export type ActivityLabels = Partial<Record<keyof typeof ACTIVITY_LABELS, string | null>>;

/**
 * The activity form's values → the local event's changes (SPEC §3 names). Times come as Date or ISO text;
 * empty ids as null. The summary follows the description: the calendar shows what was edited, not the
 * import's raw title.
 */
export function localEventChanges(values: Record<string, unknown>, labels: ActivityLabels = {}): Partial<LocalEvent> {
  const iso = (v: unknown) => (v instanceof Date ? v.toISOString() : new Date(String(v)).toISOString());
  const num = (v: unknown) => (v === null || v === undefined || v === "" ? null : Number(v));
  const text = (v: unknown) => (v === null || v === undefined || v === "" ? null : String(v));
  const changes: Record<string, unknown> = {};
  for (const [field, local] of Object.entries(LOCAL_OF)) {
    if (!(field in values) || field === "google_calendar_id" || field === "google_calendar_event" || field === "import_key")
      continue;
    const value = values[field];
    const spec = ACTIVITY_FIELDS[field as ActivityField];
    changes[local as string] =
      spec.sql === "timestamptz"
        ? iso(value)
        : spec.sql === "int4"
          ? num(value)
          : spec.sql === "bool"
            ? !!value
            : field === "description"
              ? String(value ?? "")
              : text(value);
  }
  for (const [label, local] of Object.entries(ACTIVITY_LABELS)) {
    const value = labels[label as keyof ActivityLabels];
    if (value !== undefined) changes[local] = value;
  }
  if (typeof changes.description === "string") changes.summary = changes.description;
  return changes as Partial<LocalEvent>;
}

/** A local event as the activity form's template (what a new activity or a duplicate starts from). */
export function templateOfLocal(event: LocalEvent): Partial<Activity> {
  const template: Record<string, unknown> = {};
  for (const field of ACTIVITY_COPY_FIELDS) {
    const local = LOCAL_OF[field];
    if (local) template[field] = event[local] ?? null;
  }
  for (const [label, local] of Object.entries(ACTIVITY_LABELS)) template[label] = event[local] ?? null;
  template.is_favorite = !!event.favorite;
  return template as Partial<Activity>;
}
