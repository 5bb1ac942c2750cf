/** Hours of the shown week: per local day, per action type and in total (pure helpers, unit-tested). */
import { ACTION_TYPES, type ActionType } from "../../core/constants";
import { centihoursBetween } from "../../core/hours";
import { localDate } from "../../core/week";

export interface Timed {
  begins_at: string | Date;
  ends_at: string | Date;
  action_type?: string | null;
}

const ms = (v: string | Date) => (v instanceof Date ? v.getTime() : Date.parse(v));
/** Hours of one activity, never negative, rounded as the CSV and the dashboards round it (src/core/hours.ts). */
export const hoursOf = (a: Timed) => Math.max(0, centihoursBetween(new Date(ms(a.begins_at)), new Date(ms(a.ends_at)))) / 100;
/** Rounds to two decimals (15-minute slots give .25 steps; imported events any minute). */
export const round2 = (n: number) => Math.round(n * 100) / 100;

/** Hours per local (Mexico City) date the activity begins on. */
export function hoursByDay(items: ReadonlyArray<Timed>): Record<string, number> {
  const out: Record<string, number> = {};
  for (const a of items) {
    const day = localDate(new Date(ms(a.begins_at)));
    out[day] = round2((out[day] ?? 0) + hoursOf(a));
  }
  return out;
}

/** Hours per action type, every type present (0 when none), in ACTION_TYPES order. */
export function hoursByType(items: ReadonlyArray<Timed>): Record<ActionType, number> {
  const out = Object.fromEntries(ACTION_TYPES.map((t) => [t, 0])) as Record<ActionType, number>;
  for (const a of items) {
    const type = a.action_type as ActionType;
    if (type in out) out[type] = round2(out[type] + hoursOf(a));
  }
  return out;
}

export const totalHours = (items: ReadonlyArray<Timed>) => round2(items.reduce((sum, a) => sum + hoursOf(a), 0));

const HOURS = new Intl.NumberFormat("es-MX", { maximumFractionDigits: 2 });
/** '7.5 h', '8 h', '0 h' (one formatter: toLocaleString would build one per call). */
export const formatHours = (h: number) => `${HOURS.format(round2(h))} h`;
