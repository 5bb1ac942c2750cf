/**
 * A project's hours against its estimate (the sum of its estimated hours per position): the thresholds
 * whose crossing is told to its leaders and the administrators, and the forecast of when the estimate runs
 * out at the current pace. One rule for the morning e-mail and the project page.
 */
import { roundHours } from "./hours";
import { addDays, mondayOf } from "./week";

/** Percentages of the estimate whose crossing is told, once each (the last is repeated weekly while over). */
export const BUDGET_THRESHOLDS = [50, 80, 100] as const;
export type BudgetThreshold = (typeof BUDGET_THRESHOLDS)[number];
/** Days between the repeated alerts of a project still over its estimate. */
export const BUDGET_REPEAT_DAYS = 7;
/** The pace is the average of the last full weeks before the current one. */
export const BUDGET_PACE_WEEKS = 4;

/** The highest threshold the logged hours have reached (0: none). */
export function budgetLevel(logged: number, estimate: number): BudgetThreshold | 0 {
  if (!(estimate > 0)) return 0;
  let level: BudgetThreshold | 0 = 0;
  // Compared in hundredths of an hour, as hours are kept, so 80 % of 10 h is reached at exactly 8 h.
  for (const t of BUDGET_THRESHOLDS) if (Math.round(logged * 100) * 100 >= Math.round(estimate * 100) * t) level = t;
  return level;
}

export interface BudgetForecast {
  /** Hours a week over the last BUDGET_PACE_WEEKS full weeks. */
  pace_hours_per_week: number;
  /** The day the estimate runs out at that pace; null when it already has, or nothing was logged lately. */
  runs_out_on: string | null;
  /** Hours logged beyond the estimate (0 while under it). */
  over_hours: number;
  /** Percent of the estimate logged, rounded. */
  percent: number;
}

/** `weekly`: hours logged per week (by its Monday; weeks absent logged nothing). */
export function budgetForecast(
  weekly: ReadonlyArray<{ week: string; hours: number }>,
  estimate: number,
  logged: number,
  today: string,
): BudgetForecast {
  const byWeek = new Map(weekly.map((w) => [w.week, w.hours]));
  const thisMonday = mondayOf(today);
  let recent = 0;
  for (let i = 1; i <= BUDGET_PACE_WEEKS; i++) recent += byWeek.get(addDays(thisMonday, -7 * i)) ?? 0;
  const pace = roundHours(recent / BUDGET_PACE_WEEKS);
  const left = estimate - logged;
  return {
    pace_hours_per_week: pace,
    runs_out_on: left > 0 && pace > 0 ? addDays(today, Math.ceil((left / pace) * 7)) : null,
    over_hours: roundHours(Math.max(0, -left)),
    percent: estimate > 0 ? Math.round((logged / estimate) * 100) : 0,
  };
}
