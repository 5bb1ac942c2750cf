/**
 * What a cell of the weekly grid takes: a number of hours written as a person types it — `2`, `2,5`
 * (or `2.5`), `2:30` or `150m` — read into whole minutes. Empty means no hours (the day's activities of
 * the row go). Shared by the grid and its tests; the refusals are the product's messages.
 */
import { messages } from "./messages";

export type HoursInput = { ok: true; minutes: number } | { ok: false; error: string };

const DECIMAL = /^(\d{1,2})(?:[.,](\d{1,4}))?$/;
const CLOCK = /^(\d{1,2}):([0-5]\d)$/;
const MINUTES = /^(\d{1,4})\s*m(?:in)?$/i;
const DAY_MINUTES = 24 * 60;

/** The minutes a cell's text stands for; 0 for an empty cell. */
export function parseHoursInput(text: string): HoursInput {
  const t = text.trim().replace(/\s*h$/i, "");
  if (t === "") return { ok: true, minutes: 0 };
  let minutes: number;
  const decimal = DECIMAL.exec(t);
  const clock = CLOCK.exec(t);
  const plain = MINUTES.exec(t);
  if (decimal) {
    const exact = Number(`${decimal[1]}.${decimal[2] ?? "0"}`) * 60;
    minutes = Math.round(exact);
    if (Math.abs(exact - minutes) > 1e-9) return { ok: false, error: messages.gridHoursWholeMinutes };
  } else if (clock) minutes = Number(clock[1]) * 60 + Number(clock[2]);
  else if (plain) minutes = Number(plain[1]);
  else return { ok: false, error: messages.gridHoursInvalid };
  if (minutes > DAY_MINUTES) return { ok: false, error: messages.gridHoursTooMany };
  return { ok: true, minutes };
}

/** How a cell shows its minutes: `2`, `2,5`, `2:20` (whole or half-hour steps as decimals, others as a clock). */
export function formatCellMinutes(minutes: number): string {
  if (minutes <= 0) return "";
  if (minutes % 30 === 0 || minutes % 15 === 0) return String(minutes / 60).replace(".", ",");
  return `${Math.floor(minutes / 60)}:${String(minutes % 60).padStart(2, "0")}`;
}
