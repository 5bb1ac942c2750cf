/**
 * The week save (POST activities/batch) and its check without writing (POST activities/validate): the
 * draft's creates, updates and deletions are checked together over the week as it will be after the
 * save, then applied in one transaction, all or nothing. One function plans both calls, so a rule exists
 * once. Refusals, in this order:
 * - 403: an update or a deletion of another employee's activity by someone whose grant is "own";
 * - 409: an update or a deletion at a version that is no longer the stored one (the whole save; the
 *   answer says which);
 * - 422: everything else, keyed "N" (creates, as always), "updates.N" and "deletions.N", each message
 *   prefixed by the activity's 'HH:mm - HH:mm: '; beside them, `issues` names each refusal's item, field,
 *   rule code (src/core/activityRules.ts) and message without the prefix, for screens to act on.
 * Overlaps are checked over the final state (stored rows less the deleted and the moved ones, plus the
 * moved ones at their new times and the creates), so two activities can swap their times in one save.
 */
import { inArray, sql } from "drizzle-orm";
import { ACTIVITY_INSERT_COLUMNS, ACTIVITY_WRITABLE } from "../../../src/core/activity";
import { fieldErrorsOf, type RuleIssue } from "../../../src/core/activityRules";
import { messages, timesheetMessages } from "../../../src/core/messages";
import type { Grant } from "../../../src/core/permissions";
import {
  type ActivityBatch,
  activityBatchUpdateSchema,
  activityRefSchema,
  activitySchema,
} from "../../../src/core/schemas/activity";
import type { SessionUser } from "../../../src/core/session";
import { isInstantInRange, timePrefix } from "../../../src/core/week";
import type { Tx } from "../../db/client";
import { activities, frozen_periods } from "../../db/schema";
import { type AnsweredIssue, forbidden, HttpError, ValidationError, zodRuleIssues } from "../../http/errors";
import { outer } from "../../http/sql";
import { testPause } from "../../http/testPause";
import { rememberSeries } from "../calendar_imports";
import {
  type ActivityRow,
  type ActivityValues,
  type BatchItem,
  checkActivities,
  employeeFor,
  importKeyOf,
  localDaySql,
  rowOf,
  storedImportKeys,
} from "./service";
import { lockEmployeeWeeks } from "./weekLock";

type Errors = Record<string, string[]>;

/** A stored activity the batch updates or deletes, checked and ready to write. */
export interface TouchItem {
  key: string;
  id: number;
  lockVersion: number;
  /** The activity after the update (undefined for a deletion). */
  values?: ActivityValues;
  /** The project the stored row has (an update may keep a project no longer current). */
  storedProject?: number | null;
}

export interface WeekPlan {
  creates: BatchItem[];
  updates: TouchItem[];
  deletions: TouchItem[];
}

/** Who may do what: the grants of the caller's role for activities (src/core/permissions). */
export interface SaveGrants {
  update?: Grant;
  delete?: Grant;
}

/**
 * The refusals of a save, as SPEC §8's errors by item ({field: ['HH:mm - HH:mm: message']}) and as issues
 * with their codes (the item's key, no prefix).
 */
class Refusals {
  readonly errors: Record<string, Errors> = {};
  readonly issues: AnsweredIssue[] = [];
  add(item: string, prefix: string, issues: readonly RuleIssue[]) {
    const entry = this.errors[item] ?? {};
    for (const [field, list] of Object.entries(fieldErrorsOf(issues, prefix)))
      entry[field] = [...new Set([...(entry[field] ?? []), ...list])];
    this.errors[item] = entry;
    for (const issue of issues)
      if (!this.issues.some((x) => x.item === item && x.field === issue.field && x.message === issue.message))
        this.issues.push({ item, ...issue });
  }
  get any() {
    return this.issues.length > 0;
  }
}

/** The refusal of an employee named for an activity (employeeFor): its issues. */
const employeeIssues = (error: unknown): RuleIssue[] =>
  error instanceof ValidationError
    ? Object.entries(error.errors as Errors).flatMap(([field, list]) =>
        list.map((message) => ({ code: "invalid" as const, field, message })),
      )
    : [{ code: "own_only", field: "employee_id", message: messages.activityOwnOnly }];

/** 'HH:mm - HH:mm: ' of the times an item names, or 'Actividad N: ' when it names none that can be read. */
function prefixOf(item: unknown, position: number): string {
  const raw = (item && typeof item === "object" ? item : {}) as Record<string, unknown>;
  const times = [raw.begins_at, raw.ends_at].map((v) =>
    typeof v === "string" || v instanceof Date ? new Date(v as string) : null,
  );
  return times.every((d) => d && isInstantInRange(d))
    ? timePrefix(times[0] as Date, times[1] as Date)
    : messages.activityIndex(position + 1);
}

/** What is stored of the activities the batch touches, with whether each can still change. */
interface StoredRow extends Record<string, unknown> {
  id: number;
  employee_id: number;
  lock_version: number;
  begins_at: Date;
  ends_at: Date;
  editable: boolean;
}

const storedColumns = Object.fromEntries(ACTIVITY_WRITABLE.map((k) => [k, activities[k]]));
const editableSql = sql<boolean>`(${activities.is_editable} and not exists (select 1 from ${frozen_periods}
  where ${frozen_periods.employee_id} = ${outer(activities.employee_id)}
  and ${localDaySql(outer(activities.begins_at))} between ${frozen_periods.starts_on} and ${frozen_periods.ends_on}))`;

/**
 * The stored rows of these ids. Locked (FOR UPDATE) when the batch will write them: a concurrent save of
 * the same activities waits here and then sees the new version (409), never writes over it.
 */
async function storedRows(db: Tx, ids: number[], lock: boolean): Promise<Map<number, StoredRow>> {
  if (!ids.length) return new Map();
  const query = db
    .select({ ...storedColumns, id: activities.id, lock_version: activities.lock_version, editable: editableSql })
    .from(activities)
    .where(inArray(activities.id, ids));
  const rows = (await (lock ? query.for("update") : query)) as unknown as StoredRow[];
  return new Map(rows.map((r) => [r.id, r]));
}

/** The creates, parsed as the batch always parsed them: errors keyed by index; repeated import keys once. */
function parseCreates(user: SessionUser, raw: unknown[], refusals: Refusals): BatchItem[] {
  const items: BatchItem[] = [];
  const seenKeys = new Set<string>();
  for (const [index, item] of raw.entries()) {
    const parsed = activitySchema.safeParse(item);
    if (!parsed.success) {
      refusals.add(String(index), prefixOf(item, index), zodRuleIssues(parsed.error));
      continue;
    }
    let employeeId: number;
    try {
      employeeId = employeeFor(user, (item as Record<string, unknown>).employee_id);
    } catch (error) {
      if (!(error instanceof ValidationError || error instanceof HttpError)) throw error;
      refusals.add(String(index), timePrefix(parsed.data.begins_at, parsed.data.ends_at), employeeIssues(error));
      continue;
    }
    const values: ActivityValues = { ...parsed.data, employee_id: employeeId };
    const key = values.import_key ?? values.google_calendar_id ?? null;
    if (key) {
      values.import_key = key;
      if (seenKeys.has(importKeyOf(employeeId, key))) continue; // the same event twice in one batch: written once
      seenKeys.add(importKeyOf(employeeId, key));
    }
    items.push({ index, values });
  }
  return items;
}

/** What makes an activity the activity it is: a second save of the same event must match on these. */
const CONTENT_FIELDS = [
  "begins_at",
  "ends_at",
  "description",
  "action_type",
  "activity_type_catalog_id",
  "ownerable_id",
  "ownerable_type",
  "project_id",
  "product_catalog_id",
  "ticket_id",
  "ticket_name",
] as const;

/**
 * Fields the server fills from others, never the person (checkActivities): a project's client and
 * product come from the project, internal and RH work takes the default customer.
 */
const SERVER_FILLED: Partial<Record<string, ReadonlySet<string>>> = {
  project: new Set(["ownerable_id", "ownerable_type", "product_catalog_id"]),
  internal: new Set(["ownerable_id", "ownerable_type"]),
  rh: new Set(["ownerable_id", "ownerable_type"]),
};

const sameContent = (a: Record<string, unknown>, b: Record<string, unknown>) =>
  CONTENT_FIELDS.every((field) => {
    if (a.action_type === b.action_type && SERVER_FILLED[String(b.action_type)]?.has(field)) return true;
    const x = a[field] ?? null;
    const y = b[field] ?? null;
    return x instanceof Date || y instanceof Date ? new Date(x as Date).getTime() === new Date(y as Date).getTime() : x === y;
  });

/**
 * A create whose import key is already stored is the same event saved again (a double click, a second tab)
 * only when it says the same thing. With other content (another window set another project), answering
 * «already there» would drop this person's edit while saying it was saved: 409 instead, naming each one
 * with the stored id and version, so the person chooses which to keep.
 */
async function refuseDifferentContent(db: Tx, keyed: BatchItem[], lock: boolean) {
  const existing = keyed.filter((i) => i.existingId);
  if (!existing.length) return;
  const stored = await storedRows(
    db,
    existing.map((i) => i.existingId as number),
    lock,
  );
  const conflicts = existing.filter((i) => {
    const row = stored.get(i.existingId as number);
    return row && !sameContent(row, i.values as unknown as Record<string, unknown>);
  });
  if (!conflicts.length) return;
  const refusals = new Refusals();
  for (const i of conflicts)
    refusals.add(String(i.index), timePrefix(i.values.begins_at, i.values.ends_at), [
      { code: "import_key_taken", field: "base", message: timesheetMessages.importKeyTaken },
    ]);
  throw new HttpError(409, timesheetMessages.importKeyConflictTitle, {
    error: timesheetMessages.importKeyConflictTitle,
    errors: refusals.errors,
    issues: refusals.issues,
    conflicts: conflicts.map((i) => ({
      index: i.index,
      id: i.existingId,
      lock_version: stored.get(i.existingId as number)?.lock_version,
    })),
  });
}

/**
 * Checks a whole draft (see the file's comment) and answers what to write. `lock` takes row locks on the
 * touched activities (the batch, inside its transaction); validate reads without them.
 */
/**
 * Saves of the same employee's week run one after another, and after or before a close of that week or
 * month (./weekLock.ts): the second of a double click, or of two tabs, then reads what the first wrote
 * in every statement of its plan — its import keys as already stored, not as overlaps. Without it, under
 * READ COMMITTED, the key lookup could miss a row the overlap check then saw, refusing a save that should
 * have answered «already there».
 */
async function lockEmployees(db: Tx, user: SessionUser, body: ActivityBatch, storedIds: number[]) {
  const ids = new Set<number>();
  // The owners of the stored rows it changes or deletes (an administrator's save may name none of them).
  if (storedIds.length) {
    const owners = await db.select({ id: activities.employee_id }).from(activities).where(inArray(activities.id, storedIds));
    for (const owner of owners) ids.add(owner.id);
  }
  if (user.employee?.id) ids.add(user.employee.id);
  for (const item of [...body.activities, ...body.updates] as unknown[]) {
    const id = (item as { employee_id?: unknown } | null)?.employee_id;
    if (typeof id === "number" && Number.isInteger(id) && id > 0) ids.add(id);
  }
  await lockEmployeeWeeks(db, ids);
}

export async function planWeekSave(
  db: Tx,
  user: SessionUser,
  grants: SaveGrants,
  body: ActivityBatch,
  lock: boolean,
): Promise<WeekPlan> {
  const refusals = new Refusals();
  // The stored activities named by updates and deletions: each once, with the version the draft read.
  const refs: { key: string; id: number; lockVersion: number; raw: Record<string, unknown>; kind: "update" | "delete" }[] = [];
  const seenIds = new Set<number>();
  for (const [kind, list] of [
    ["update", body.updates],
    ["delete", body.deletions],
  ] as const) {
    for (const [index, item] of list.entries()) {
      const key = `${kind === "update" ? "updates" : "deletions"}.${index}`;
      const parsed = activityRefSchema.safeParse(item);
      if (!parsed.success) {
        refusals.add(key, prefixOf(item, index), zodRuleIssues(parsed.error));
        continue;
      }
      if (seenIds.has(parsed.data.id)) {
        refusals.add(key, prefixOf(item, index), [{ code: "repeated", field: "id", message: messages.activityRepeatedInBatch }]);
        continue;
      }
      seenIds.add(parsed.data.id);
      refs.push({ key, id: parsed.data.id, lockVersion: parsed.data.lock_version, raw: item as Record<string, unknown>, kind });
    }
  }
  if (lock)
    await lockEmployees(
      db,
      user,
      body,
      refs.map((r) => r.id),
    );
  const stored = await storedRows(
    db,
    refs.map((r) => r.id),
    lock,
  );
  // 403 before anything is said about the rows: someone else's activity is not the caller's to touch.
  // Under an "own" grant a missing id gets the very same answer, so ids cannot be probed.
  for (const ref of refs) {
    const row = stored.get(ref.id);
    const grant = ref.kind === "update" ? grants.update : grants.delete;
    if (!grant) throw forbidden();
    if (grant === "own" && (!row || row.employee_id !== user.employee?.id))
      throw new HttpError(403, messages.activityNotAvailable(ref.id));
  }
  // 409 for the whole save when any version is stale: the draft was made from a week that changed.
  const stale = refs.filter((r) => stored.has(r.id) && stored.get(r.id)?.lock_version !== r.lockVersion);
  if (stale.length) {
    const staleRefusals = new Refusals();
    for (const ref of stale) {
      const row = stored.get(ref.id) as StoredRow;
      staleRefusals.add(ref.key, timePrefix(row.begins_at, row.ends_at), [
        { code: "stale", field: "lock_version", message: messages.activityStaleInBatch(ref.id) },
      ]);
    }
    throw new HttpError(409, messages.staleVersion, {
      error: messages.staleVersion,
      errors: staleRefusals.errors,
      issues: staleRefusals.issues,
      stale: stale.map((r) => ({ key: r.key, id: r.id, lock_version: stored.get(r.id)?.lock_version })),
    });
  }
  const updates: TouchItem[] = [];
  const deletions: TouchItem[] = [];
  for (const ref of refs) {
    const row = stored.get(ref.id);
    const position = Number(ref.key.split(".")[1]);
    if (!row) {
      refusals.add(ref.key, prefixOf(ref.raw, position), [
        { code: "missing", field: "id", message: messages.activityMissing(ref.id) },
      ]);
      continue;
    }
    const oldPrefix = timePrefix(row.begins_at, row.ends_at);
    if (!row.editable) {
      refusals.add(ref.key, oldPrefix, [{ code: "frozen", field: "base", message: messages.activityFrozen }]);
      continue;
    }
    if (ref.kind === "delete") {
      deletions.push({ key: ref.key, id: ref.id, lockVersion: ref.lockVersion });
      continue;
    }
    const changes = activityBatchUpdateSchema.safeParse(ref.raw);
    if (!changes.success) {
      refusals.add(ref.key, oldPrefix, zodRuleIssues(changes.error));
      continue;
    }
    // The stored row with the raw changes over it, parsed whole (as PUT /activities/:id does): changing
    // the action type drops the old type's fields unless they come again.
    const merged: Record<string, unknown> = {};
    for (const field of ACTIVITY_WRITABLE) merged[field] = row[field];
    for (const [field, value] of Object.entries(ref.raw))
      if (value !== undefined && field !== "id" && field !== "lock_version") merged[field] = value;
    const parsed = activitySchema.safeParse(merged);
    if (!parsed.success) {
      refusals.add(ref.key, prefixOf(merged, position), zodRuleIssues(parsed.error));
      continue;
    }
    let employeeId = row.employee_id;
    if (ref.raw.employee_id !== undefined && ref.raw.employee_id !== row.employee_id) {
      try {
        employeeId = employeeFor(user, ref.raw.employee_id);
      } catch (error) {
        if (!(error instanceof ValidationError)) throw error;
        refusals.add(ref.key, timePrefix(parsed.data.begins_at, parsed.data.ends_at), employeeIssues(error));
        continue;
      }
    }
    updates.push({
      key: ref.key,
      id: ref.id,
      lockVersion: ref.lockVersion,
      values: { ...parsed.data, employee_id: employeeId },
      storedProject: (row.project_id as number | null) ?? null,
    });
  }

  const createItems = parseCreates(user, body.activities, refusals);
  // Already stored import keys (idempotency); a row this save deletes does not count as stored.
  const deletedIds = new Set(deletions.map((d) => d.id));
  const keyed = createItems.filter((i) => i.values.import_key);
  if (keyed.length) {
    const byKey = await storedImportKeys(
      db,
      keyed.map((i) => i.values),
    );
    for (const item of keyed) {
      const id = byKey.get(importKeyOf(item.values.employee_id, item.values.import_key as string));
      if (id && !deletedIds.has(id)) item.existingId = id;
    }
    await refuseDifferentContent(db, keyed, lock);
  }

  // The rules, once for every activity that will be written, against the stored rows this save leaves.
  const written = [
    ...createItems
      .filter((i) => !i.existingId)
      .map((i) => ({ key: String(i.index), values: i.values, storedProject: undefined as number | null | undefined })),
    ...updates.map((u) => ({ key: u.key, values: u.values as ActivityValues, storedProject: u.storedProject })),
  ];
  // The week's rules over the week as it will be: what this save writes, together, and the stored rows it
  // leaves (src/core/activityRules.ts, through checkActivities).
  const found = await checkActivities(
    db,
    written.map((w) => w.values),
    { exceptIds: refs.map((r) => r.id), storedProjects: written.map((w) => w.storedProject), together: true },
  );
  for (const [n, item] of written.entries()) {
    if (found[n].length) refusals.add(item.key, timePrefix(item.values.begins_at, item.values.ends_at), found[n]);
  }
  if (refusals.any) throw new ValidationError(refusals.errors, refusals.issues);
  return { creates: createItems, updates, deletions };
}

/* ---------- writing ---------- */

/** An array parameter of one column, encoded as drizzle encodes it (timestamps as ISO text, jsonb as JSON text). */
function columnArray(rows: Record<string, unknown>[], column: string, type: string) {
  const values = rows.map((row) => {
    const value = row[column];
    if (value === null || value === undefined) return null;
    if (value instanceof Date) return value.toISOString();
    return type === "jsonb" ? JSON.stringify(value) : value;
  });
  return sql`${sql.param(values)}::${sql.raw(type)}[]`;
}

const rowsOf = (result: unknown) => ((result as { rows?: unknown[] }).rows ?? (result as unknown[])) as Record<string, unknown>[];

const INSERT_SQL = {
  head: `insert into "activities" (${ACTIVITY_INSERT_COLUMNS.map(([c]) => `"${c}"`).join(", ")}) select * from unnest(`,
  tail: `) on conflict ("employee_id", "import_key") do nothing returning "id", "employee_id", (extract(epoch from "begins_at") * 1000)::float8 as begins_ms`,
};

/**
 * One INSERT of many activities: each column travels as one array parameter (unnest), so the statement
 * has 18 parameters however many rows it writes, and is not rebuilt value by value (a week of 60
 * activities was 1,080 parameters, each typed and encoded by the query builder). Rows already stored
 * under their import key are skipped (ON CONFLICT DO NOTHING); the inserted ones answer id, employee and
 * start (ms).
 */
async function insertRows(tx: Tx, rows: ActivityRow[]) {
  const arrays = ACTIVITY_INSERT_COLUMNS.map(([column, type]) => columnArray(rows, column, type));
  const result = await tx.execute(sql`${sql.raw(INSERT_SQL.head)}${sql.join(arrays, sql`, `)}${sql.raw(INSERT_SQL.tail)}`);
  return rowsOf(result) as { id: number; employee_id: number; begins_ms: number }[];
}

/**
 * Writes checked creates with multi-row INSERTs (insertRows, 1,000 rows a statement). Rows whose import key
 * is already stored (found by the plan, or written meanwhile: ON CONFLICT DO NOTHING) answer their stored
 * id. Ids come back in the items' order; an employee's start time identifies a row (no overlaps).
 */
export async function insertBatch(tx: Tx, items: BatchItem[], userId: number) {
  const fresh = items.filter((i) => !i.existingId);
  const idByStart = new Map<string, number>();
  const startKey = (employeeId: number, begins: Date) => `${employeeId}|${begins.getTime()}`;
  for (let i = 0; i < fresh.length; i += 1000) {
    const inserted = await insertRows(
      tx,
      fresh.slice(i, i + 1000).map((item) => rowOf(item.values, userId)),
    );
    for (const row of inserted) idByStart.set(startKey(row.employee_id, new Date(Number(row.begins_ms))), row.id);
  }
  const missing = fresh.filter((item) => !idByStart.has(startKey(item.values.employee_id, item.values.begins_at)));
  const storedByKey = await storedImportKeys(
    tx,
    missing.map((m) => m.values),
  );
  return items.map((item) => {
    if (item.existingId) return { id: item.existingId, created: false };
    const id = idByStart.get(startKey(item.values.employee_id, item.values.begins_at));
    if (id) return { id, created: true };
    return {
      id: storedByKey.get(importKeyOf(item.values.employee_id, item.values.import_key as string)) as number,
      created: false,
    };
  });
}

/**
 * Every update in one statement (UPDATE … FROM unnest), each written only at the version the plan read
 * and bumped. One statement matters for swaps: the exclusion constraint is DEFERRABLE, so it is checked
 * when the statement ends, not row by row while two activities trade places.
 */
async function updateRows(tx: Tx, updates: TouchItem[], userId: number) {
  if (!updates.length) return;
  const rows = updates.map((u) => ({
    ...rowOf(u.values as ActivityValues, userId),
    sia_id: u.id,
    sia_version: u.lockVersion,
  }));
  const columns = [["sia_id", "int4"], ["sia_version", "int4"], ...ACTIVITY_INSERT_COLUMNS] as const;
  const set = ACTIVITY_INSERT_COLUMNS.map(([c]) => `"${c}" = v."${c}"`).join(", ");
  const result = await tx.execute(
    sql`update "activities" as a set ${sql.raw(set)}, "lock_version" = a."lock_version" + 1, "updated_at" = now()
      from unnest(${sql.join(
        columns.map(([c, type]) => columnArray(rows, c, type)),
        sql`, `,
      )}) as v(${sql.raw(columns.map(([c]) => `"${c}"`).join(", "))})
      where a."id" = v."sia_id" and a."lock_version" = v."sia_version" returning a."id"`,
  );
  // The rows were read under FOR UPDATE at these versions; a shortfall means one vanished meanwhile.
  if (rowsOf(result).length !== updates.length) throw new HttpError(409, messages.staleVersion, { error: messages.staleVersion });
}

/**
 * Applies a checked plan: deletions, then the updates (one statement), then the creates. Each step leaves
 * a subset of the checked final state, so no step can overlap what the plan did not already check.
 */
export async function applyWeekSave(tx: Tx, plan: WeekPlan, userId: number) {
  if (plan.deletions.length) {
    // Each at the version the plan read (the rows are locked; the version makes the statement say so too).
    const deleted = await tx.execute(
      sql`delete from "activities" as a using unnest(${sql.param(plan.deletions.map((d) => d.id))}::int4[], ${sql.param(
        plan.deletions.map((d) => d.lockVersion),
      )}::int4[]) as v("id", "version") where a."id" = v."id" and a."lock_version" = v."version" returning a."id"`,
    );
    if (rowsOf(deleted).length !== plan.deletions.length)
      throw new HttpError(409, messages.staleVersion, { error: messages.staleVersion });
  }
  await updateRows(tx, plan.updates, userId);
  const created = await insertBatch(tx, plan.creates, userId);
  return {
    created,
    updated: plan.updates.map((u) => u.id),
    deleted: plan.deletions.map((d) => d.id),
  };
}

/**
 * The week save, in the caller's transaction: plans with the rows locked, applies, and remembers what
 * each calendar series was mapped to, for its next import.
 */
export async function saveWeek(tx: Tx, user: SessionUser, grants: SaveGrants, body: ActivityBatch) {
  const plan = await planWeekSave(tx, user, grants, body, true);
  const saved = await applyWeekSave(tx, plan, user.id);
  await testPause("week_save");
  await rememberSeries(
    tx,
    user.id,
    plan.creates.map((item) => ({
      seriesId: (body.activities[item.index] as Record<string, unknown> | null)?.google_series_id,
      values: item.values,
    })),
  );
  return saved;
}
