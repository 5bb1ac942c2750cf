import { reportMessages } from "../messages";
import { businessToday } from "../week";
import { flag, isValidIsoDate, z } from "./fields";

/**
 * The activity report (SPEC §5, §7; docs/reports.md): what the reporting screen validates and what
 * GET activities/reporting_activities.csv parses, with the same messages.
 */
export const REPORT_KINDS = ["project", "client", "employee", "client_group", "workspace"] as const;
export type ReportKind = (typeof REPORT_KINDS)[number];
/** Kinds whose members (clients of a group, employees of a workspace) can be ticked to exclude. */
export const REPORT_EXCLUDABLE: Partial<Record<ReportKind, "clients" | "employees">> = {
  client_group: "clients",
  workspace: "employees",
};
/** The query parameter that carries the chosen item of each kind: `<kind>_id`. */
export const reportIdParam = (kind: ReportKind) => `${kind}_id` as const;
export const REPORT_MAX_EXCLUDED = 1000;

const realDate = isValidIsoDate;

/** The normalised report filter (what reportQuery and reportCsvStream take). */
export interface ReportFilter {
  kind: ReportKind;
  id: number;
  start_date: string;
  end_date: string;
  excluded_ids?: number[];
  /** Only the hours of weeks approved for their employee (docs/decisions/050-week-approval.md). */
  approved_only?: boolean;
}

const idList = z.preprocess((v) => {
  if (v === undefined || v === null || v === "") return [];
  if (Array.isArray(v)) return v;
  if (typeof v === "number") return [v];
  if (typeof v !== "string") return v;
  try {
    const parsed = JSON.parse(v);
    return Array.isArray(parsed) ? parsed : [parsed];
  } catch {
    return v.split(",").filter(Boolean);
  }
}, z.array(z.coerce.number().int().positive()).max(REPORT_MAX_EXCLUDED));

/**
 * Form and route alike: { current_filter, id, start_date, end_date, excluded_ids, approved_only }. The messages of
 * SPEC §5: the item of the chosen kind, both dates, start not after end, end not after today.
 */
export const reportFilterSchema = z
  .object({
    current_filter: z.enum(REPORT_KINDS, { error: reportMessages.selectKind }),
    id: z.preprocess((v) => (v === "" || v === null ? undefined : v), z.coerce.number().int().positive().optional()),
    start_date: z.string().nullish(),
    end_date: z.string().nullish(),
    excluded_ids: idList.optional(),
    approved_only: flag(),
  })
  .superRefine((value, ctx) => {
    if (!value.id) ctx.addIssue({ code: "custom", path: ["id"], message: reportMessages.selectItem[value.current_filter] });
    const { start_date: start, end_date: end } = value;
    if (!start || !end || !realDate(start) || !realDate(end)) {
      ctx.addIssue({
        code: "custom",
        path: [!start || !realDate(start) ? "start_date" : "end_date"],
        message: reportMessages.selectDates,
      });
    } else if (start > end) {
      ctx.addIssue({ code: "custom", path: ["start_date"], message: reportMessages.startAfterEnd });
    } else if (end > businessToday()) {
      // The screen's pickers stop at today (Mexico City); a typed or crafted later date is refused alike.
      ctx.addIssue({ code: "custom", path: ["end_date"], message: reportMessages.endAfterToday });
    }
  })
  .transform(
    (v): ReportFilter => ({
      kind: v.current_filter,
      id: v.id as number,
      start_date: v.start_date as string,
      end_date: v.end_date as string,
      excluded_ids: REPORT_EXCLUDABLE[v.current_filter] ? (v.excluded_ids ?? []) : [],
      approved_only: v.approved_only === true,
    }),
  );
export type ReportFilterInput = z.input<typeof reportFilterSchema>;

/** The query string of reporting_activities.csv → the schema's input (`<kind>_id` → id). */
export function reportQueryInput(query: Record<string, unknown>): Record<string, unknown> {
  const kind = query.current_filter;
  const id = REPORT_KINDS.includes(kind as ReportKind) ? query[reportIdParam(kind as ReportKind)] : undefined;
  return {
    current_filter: kind,
    id,
    start_date: query.start_date,
    end_date: query.end_date,
    excluded_ids: query.excluded_ids ?? query["excluded_ids[]"],
    approved_only: query.approved_only,
  };
}

/** The query string the screen sends for a filter (inverse of reportQueryInput). */
export function reportSearchParams(filter: ReportFilter): Record<string, string> {
  const query: Record<string, string> = {
    current_filter: filter.kind,
    [reportIdParam(filter.kind)]: String(filter.id),
    start_date: filter.start_date,
    end_date: filter.end_date,
  };
  if (filter.excluded_ids?.length) query.excluded_ids = filter.excluded_ids.join(",");
  if (filter.approved_only) query.approved_only = "true";
  return query;
}

/** The fixed file name of a report: reporte_actividades_<inicio>_<fin>.csv (dates YYYY-MM-DD). */
export const reportFilename = (filter: Pick<ReportFilter, "start_date" | "end_date" | "approved_only">) =>
  `reporte_actividades${filter.approved_only ? "_aprobadas" : ""}_${filter.start_date}_${filter.end_date}.csv`;
