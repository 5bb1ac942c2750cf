/**
 * Timesheet imports: calendar events (.ics or a provider) and CSV rows become local events
 * (src/core/localEvent.ts) for the employee to fix and save; nothing is saved here.
 *
 * - loadResolver(): the lookup tables (clients, prospects, projects, selectable products, activity
 *   types, the support-excluded customer) and the user's remembered series, read ONCE per import.
 * - importableInstances(): the rules of SPEC §5 for every calendar source (cancelled, free and all-day
 *   events skipped, only starts inside the range, duplicates removed).
 * - Recurring memory (calendar_mappings, keyed by user and series UID): rememberSeries() runs inside the
 *   batch save for activities that carry google_series_id; the next import applies it to the series'
 *   instances whose title does not resolve on its own, so they arrive valid.
 */
import { createHash } from "node:crypto";
import { and, eq, inArray, sql } from "drizzle-orm";
import type { RuleCode } from "../../../src/core/activityRules";
import type { ActionType } from "../../../src/core/constants";
import {
  indexLookups,
  type LookupIndex,
  type ParsedTitle,
  parseTitle,
  type ResolvedTitle,
  resolveTitle,
  type TitleLookups,
} from "../../../src/core/eventTitle";
import type { LocalEvent } from "../../../src/core/localEvent";
import { dmy, timesheetMessages } from "../../../src/core/messages";
import { projectStateLabel } from "../../../src/core/projectMachine";
import { activityTimeIssues } from "../../../src/core/schemas/activity";
import { ARCHIVED_PROJECT_STATES } from "../../../src/core/states";
import { hhmm, localDate } from "../../../src/core/week";
import type { Tx } from "../../db/client";
import { activities, activity_type_catalogs, calendar_mappings, clients, products, projects, prospects } from "../../db/schema";
import type { CalendarInstance, CalendarRange } from "../../ports/calendar/reader";
import { loadSettings } from "../activities";

/** What a recurring series was mapped to when it was last saved (calendar_mappings.mapping). */
export interface SeriesMapping {
  actionType: ActionType;
  projectId: number | null;
  clientId: number | null;
  ownerableType: "Client" | "Prospect" | null;
  productId: number | null;
  activityTypeCatalogId: number | null;
  description: string | null;
}

export interface Resolver {
  index: LookupIndex;
  memory: Map<string, SeriesMapping>;
  /** import keys already saved for the employee (isintoSia). */
  saved: Set<string>;
}

/** Reads every lookup table once, the user's remembered series, and which keys are already saved. */
export async function loadResolver(db: Tx, userId: number, employeeId: number, keys: string[] = []): Promise<Resolver> {
  const [clientRows, prospectRows, projectRows, productRows, typeRows, settings, memoryRows] = await Promise.all([
    db.select({ id: clients.id, code: clients.client_code, name: clients.name }).from(clients),
    // A won prospect is its client now: time goes to the client.
    db
      .select({ id: prospects.id, name: prospects.name })
      .from(prospects)
      .where(sql`not exists (select 1 from ${clients} where ${clients.prospect_id} = ${prospects.id})`),
    db
      .select({
        id: projects.id,
        code: projects.project_code,
        name: projects.name,
        clientId: projects.client_id,
        clientName: sql<string | null>`(select ${clients.name} from ${clients} where ${clients.id} = ${projects.client_id})`,
        productId: projects.product_catalog_id,
        state: projects.state,
      })
      .from(projects),
    db
      .select({ id: products.id, code: products.product_code, name: products.name })
      .from(products)
      .where(eq(products.is_selectable, true)),
    db.select({ id: activity_type_catalogs.id, code: activity_type_catalogs.code }).from(activity_type_catalogs),
    loadSettings(db),
    db
      .select({ series_key: calendar_mappings.series_key, mapping: calendar_mappings.mapping })
      .from(calendar_mappings)
      .where(eq(calendar_mappings.user_id, userId)),
  ]);
  const lookups: TitleLookups = {
    clients: clientRows,
    prospects: prospectRows,
    projects: projectRows.map(({ state, ...p }) => ({
      ...p,
      closedState: (ARCHIVED_PROJECT_STATES as string[]).includes(state) ? projectStateLabel(state) : null,
    })),
    products: productRows,
    activityTypes: typeRows,
    supportExcludedClientId: settings.support_excluded_customer_id,
  };
  const saved = new Set<string>();
  const wanted = [...new Set(keys.filter(Boolean))];
  for (let i = 0; i < wanted.length; i += 500) {
    const rows = await db
      .select({ key: activities.import_key })
      .from(activities)
      .where(and(eq(activities.employee_id, employeeId), inArray(activities.import_key, wanted.slice(i, i + 500))));
    for (const row of rows) if (row.key) saved.add(row.key);
  }
  return {
    index: indexLookups(lookups),
    memory: new Map(memoryRows.map((r) => [r.series_key, r.mapping as SeriesMapping])),
    saved,
  };
}

/**
 * A remembered mapping, checked against today's lookups (a project or client may be gone, a product may
 * have become non-selectable): null when it no longer resolves.
 */
export function resolveMapping(mapping: SeriesMapping, description: string, index: LookupIndex): ResolvedTitle | null {
  const { lookups } = index;
  const out: ResolvedTitle = {
    actionType: mapping.actionType,
    description: description || mapping.description || "",
    clientId: null,
    clientName: null,
    ownerableType: null,
    activityTypeCatalogId: null,
    projectId: null,
    projectName: null,
    project_code: null,
    productId: null,
    isValidate: true,
    errors: [],
  };
  if (mapping.activityTypeCatalogId) {
    if (!lookups.activityTypes.some((t) => t.id === mapping.activityTypeCatalogId)) return null;
    out.activityTypeCatalogId = mapping.activityTypeCatalogId;
  }
  const product = () => lookups.products.find((p) => p.id === mapping.productId);
  switch (mapping.actionType) {
    case "project": {
      const project = lookups.projects.find((p) => p.id === mapping.projectId);
      if (!project || !out.activityTypeCatalogId) return null;
      Object.assign(out, {
        projectId: project.id,
        projectName: project.name,
        project_code: project.code,
        clientId: project.clientId,
        clientName: project.clientName,
        ownerableType: project.clientId ? "Client" : null,
        productId: project.productId,
      });
      break;
    }
    case "support":
    case "quote": {
      const owner =
        mapping.ownerableType === "Prospect" && mapping.actionType === "quote"
          ? lookups.prospects.find((p) => p.id === mapping.clientId)
          : lookups.clients.find((c) => c.id === mapping.clientId);
      if (!owner || !product()) return null;
      if (mapping.actionType === "support" && owner.id === lookups.supportExcludedClientId) return null;
      Object.assign(out, {
        clientId: owner.id,
        clientName: owner.name,
        ownerableType: mapping.actionType === "support" ? "Client" : (mapping.ownerableType ?? "Client"),
        productId: mapping.productId,
      });
      break;
    }
  }
  if (!out.description) return null;
  return out;
}

/** Fits an id in the 300 characters of import_key / google_calendar_id. */
export function fitKey(key: string): string {
  if (key.length <= 300) return key;
  return `${createHash("sha256").update(key).digest("hex").slice(0, 40)}${key.slice(-40)}`;
}

/**
 * The import rules of SPEC §5, for every calendar source; sorted by start. `merged` hears each event left
 * out because another with the same title and times (under another id) was kept: the person is told.
 */
export function importableInstances(
  instances: CalendarInstance[],
  range: CalendarRange,
  merged?: (dropped: CalendarInstance) => void,
): CalendarInstance[] {
  const seen = new Set<string>();
  const out: CalendarInstance[] = [];
  const sorted = [...instances].sort((a, b) => a.start.getTime() - b.start.getTime());
  for (const i of sorted) {
    if (i.cancelled || i.transparent || i.allDay) continue;
    const start = i.start.getTime();
    if (start < range.start.getTime() || start > range.end.getTime()) continue;
    // The same instance twice (a calendar exported twice, a provider paging overlap), or the same meeting
    // copied under another id: one local event.
    const byId = `id:${i.instanceId}`;
    const bySlot = `slot:${i.summary.trim()}\u0000${start}\u0000${i.end.getTime()}`;
    if (seen.has(byId)) continue;
    if (seen.has(bySlot)) {
      merged?.(i);
      continue;
    }
    seen.add(byId);
    seen.add(bySlot);
    out.push(i);
  }
  return out;
}

/**
 * importableInstances, and one line for each group of events with one title and the same times under
 * different ids that became one activity: said, not hidden.
 */
export function importableWithNotes(instances: CalendarInstance[], range: CalendarRange) {
  const groups = new Map<string, { instance: CalendarInstance; count: number }>();
  const kept = importableInstances(instances, range, (dropped) => {
    const key = `${dropped.summary.trim()}\u0000${dropped.start.getTime()}\u0000${dropped.end.getTime()}`;
    const group = groups.get(key) ?? { instance: dropped, count: 1 };
    group.count += 1;
    groups.set(key, group);
  });
  const merged = [...groups.values()].map(({ instance, count }) =>
    timesheetMessages.importMerged(
      count,
      instance.summary.trim(),
      `${dmy(localDate(instance.start))} ${hhmm(instance.start)} - ${hhmm(instance.end)}`,
    ),
  );
  return { kept, merged };
}

/** A local event from a resolved title (shared by calendar instances and CSV rows). */
export function localEventOf(
  resolved: ResolvedTitle,
  fields: Pick<LocalEvent, "id" | "summary" | "start" | "end"> &
    Partial<Pick<LocalEvent, "googleCId" | "google_calendar_id" | "google_calendar_event" | "ticketId" | "importKey">>,
  resolver: Resolver,
): LocalEvent {
  const importKey = fields.importKey ?? fields.google_calendar_id ?? null;
  // The activity's own time rules (zero length, past midnight, seconds): such an event is invalid now,
  // with the reason, rather than valid until the save refuses it.
  const timeIssues = activityTimeIssues(new Date(fields.start), new Date(fields.end));
  // Each reason with its rule's code (a drag cures the times' ones); a reference not found is no time's.
  const errors = [...resolved.errors];
  const errorCodes: RuleCode[] = resolved.errors.map(() => "reference");
  for (const issue of timeIssues)
    if (!errors.includes(issue.reason)) {
      errors.push(issue.reason);
      errorCodes.push(issue.code);
    }
  return {
    id: fields.id,
    summary: fields.summary,
    start: fields.start,
    end: fields.end,
    description: resolved.description,
    actionType: resolved.actionType,
    clientId: resolved.clientId,
    clientName: resolved.clientName,
    ownerableType: resolved.ownerableType,
    activityTypeCatalogId: resolved.activityTypeCatalogId,
    projectId: resolved.projectId,
    projectName: resolved.projectName,
    project_code: resolved.project_code,
    productId: resolved.productId,
    ticketId: fields.ticketId ?? null,
    ticketName: null,
    favorite: false,
    isValidate: resolved.isValidate && !timeIssues.length,
    isRecurring: Boolean(fields.googleCId),
    isintoSia: importKey ? resolver.saved.has(importKey) : false,
    googleCId: fields.googleCId ?? null,
    google_calendar_id: fields.google_calendar_id ?? null,
    google_calendar_event: fields.google_calendar_event ?? null,
    shortTitle: fields.summary.slice(0, 300) || null,
    errors,
    ...(errors.length ? { errorCodes } : {}),
    importKey,
  };
}

/** Calendar instances (already filtered) → local events: title parsed and resolved, memory applied. */
export function calendarLocalEvents(instances: CalendarInstance[], resolver: Resolver): LocalEvent[] {
  return instances.map((instance) => {
    const parsed: ParsedTitle = parseTitle(instance.summary, resolver.index.lookups);
    let resolved = resolveTitle(parsed, resolver.index);
    const mapping = instance.seriesId ? resolver.memory.get(fitKey(instance.seriesId)) : undefined;
    if (!resolved.isValidate && mapping) {
      const description =
        parsed.format === "generic" || parsed.format === "untitled" ? instance.summary.trim() : resolved.description;
      resolved = resolveMapping(mapping, description, resolver.index) ?? resolved;
    }
    const id = fitKey(instance.instanceId);
    return localEventOf(
      resolved,
      {
        id,
        summary: instance.summary,
        start: instance.start.toISOString(),
        end: instance.end.toISOString(),
        googleCId: instance.seriesId ? fitKey(instance.seriesId) : null,
        google_calendar_id: id,
        google_calendar_event: { organizer: instance.organizer, hangoutLink: instance.hangoutLink },
      },
      resolver,
    );
  });
}

/**
 * Remembers, per user and series, what the saved activities of recurring events were mapped to
 * (called inside the batch transaction: it commits or rolls back with the activities).
 */
export async function rememberSeries(
  tx: Tx,
  userId: number,
  saved: Array<{
    seriesId: unknown;
    values: {
      action_type: ActionType;
      project_id?: number | null;
      ownerable_id?: number | null;
      ownerable_type?: "Client" | "Prospect" | null;
      product_catalog_id?: number | null;
      activity_type_catalog_id?: number | null;
      description: string;
    };
  }>,
) {
  for (const { seriesId, values } of saved) {
    if (typeof seriesId !== "string" || !seriesId.trim()) continue;
    const keepsOwner = values.action_type === "support" || values.action_type === "quote";
    const mapping: SeriesMapping = {
      actionType: values.action_type,
      projectId: values.project_id ?? null,
      clientId: keepsOwner ? (values.ownerable_id ?? null) : null,
      ownerableType: keepsOwner ? (values.ownerable_type ?? null) : null,
      productId: keepsOwner ? (values.product_catalog_id ?? null) : null,
      activityTypeCatalogId: values.activity_type_catalog_id ?? null,
      description: values.description || null,
    };
    await tx
      .insert(calendar_mappings)
      .values({ user_id: userId, series_key: fitKey(seriesId.trim()), mapping })
      .onConflictDoUpdate({
        target: [calendar_mappings.user_id, calendar_mappings.series_key],
        set: { mapping, updated_at: new Date() },
      });
  }
}
