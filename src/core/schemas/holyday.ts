import { messages } from "../messages";
import { daysBetween } from "../week";
import { isoDate, isValidIsoDate, optionalText, z } from "./fields";

/** Holiday (SPEC §3): a unique date and an optional name. */
export const holydaySchema = z.object({
  date: isoDate(),
  name: optionalText(160),
});
export type HolydayInput = z.infer<typeof holydaySchema>;
export const holydayUpdateSchema = holydaySchema.partial();

/** Columns of the holiday CSV (download_holydays_format / import_holydays). */
export const HOLYDAY_CSV_COLUMNS = ["fecha", "nombre"] as const;
export const HOLYDAY_IMPORT_MAX_ROWS = 5000;
/** Longest range holydays_by_date answers. */
export const HOLYDAY_RANGE_MAX_DAYS = 366;

/**
 * A date of the import file, as YYYY-MM-DD or DD/MM/YYYY (day and month may have one digit), to
 * YYYY-MM-DD; null when it is not a real calendar date or lies outside DATE_MIN…DATE_MAX.
 */
export function parseHolydayDate(raw: string): string | null {
  const value = raw.trim();
  let y: number;
  let m: number;
  let d: number;
  let match = value.match(/^(\d{4})-(\d{1,2})-(\d{1,2})$/);
  if (match) {
    [y, m, d] = [Number(match[1]), Number(match[2]), Number(match[3])];
  } else {
    match = value.match(/^(\d{1,2})\/(\d{1,2})\/(\d{4})$/);
    if (!match) return null;
    [d, m, y] = [Number(match[1]), Number(match[2]), Number(match[3])];
  }
  const iso = `${String(y).padStart(4, "0")}-${String(m).padStart(2, "0")}-${String(d).padStart(2, "0")}`;
  return isValidIsoDate(iso) ? iso : null;
}

export const holydaysByDateSchema = z.object({ from: isoDate(), to: isoDate() }).superRefine((v, ctx) => {
  if (v.from > v.to) {
    ctx.addIssue({ code: "custom", path: ["from"], message: messages.dateRangeReversed });
    return;
  }
  if (daysBetween(v.from, v.to) > HOLYDAY_RANGE_MAX_DAYS)
    ctx.addIssue({ code: "custom", path: ["to"], message: messages.dateRangeTooLong });
});

/** PUT holydays/import_holydays: how many were written and skipped (and a warning when none was new). */
export const holydayImportAnswer = z.object({
  imported: z.number().int(),
  skipped: z.number().int(),
  warning: z.string().optional(),
});
export type HolidayImportResult = z.infer<typeof holydayImportAnswer>;

/** GET holydays/holydays_by_date: the holidays of the range, as the browser relies on them. */
export const holydayDay = z.looseObject({ id: z.number().int(), date: z.string(), name: z.string().nullable().optional() });
