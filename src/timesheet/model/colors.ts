/**
 * Colours of the weekly calendar (SPEC §2): editable activities by action type, locked ones (frozen or
 * not editable) red.
 */
import type { ActionType } from "../../core/constants";

// Each background reads at 4.5:1 or more with its text colour (WCAG 1.4.3), which the unit test checks.
export const ACTION_COLORS: Record<ActionType, string> = {
  vacation: "#00796b", // teal
  quote: "#8e24aa", // purple
  support: "#f57c00", // orange
  internal: "#fbc02d", // yellow
  project: "#1565c0", // blue
  // rh: its own colour, a light green far from the reds of locked and invalid events (a pink read as red)
  rh: "#7cb342",
};
/** Text colour readable on each background (orange, yellow and light green need dark text). */
export const ACTION_TEXT_COLORS: Partial<Record<ActionType, string>> = {
  support: "#212121",
  internal: "#212121",
  rh: "#212121",
};
export const LOCKED_COLOR = "#d32f2f";
export const UNKNOWN_COLOR = "#757575";
/** Background tint of holiday cells. */
export const HOLIDAY_TINT = "rgba(0, 137, 123, 0.12)";

export interface Lockable {
  is_editable?: boolean | null;
  is_month_frozen?: boolean | null;
}
/** Frozen (week or month) or flagged not editable: read-only and red. */
export const isLocked = (a: Lockable) => a.is_editable === false || a.is_month_frozen === true;

export function colorsFor(a: Lockable & { action_type?: string | null }): { background: string; text: string } {
  if (isLocked(a)) return { background: LOCKED_COLOR, text: "#ffffff" };
  const type = a.action_type as ActionType;
  const background = ACTION_COLORS[type] ?? UNKNOWN_COLOR;
  return { background, text: ACTION_TEXT_COLORS[type] ?? "#ffffff" };
}

/** Events of the draft week (SPEC §2): invalid red (whatever they are), already in SIA brown. */
export const LOCAL_COLORS = { invalid: "#c62828", inSia: "#795548" } as const;

export function localEventColors(e: { isValidate: boolean; isintoSia: boolean; actionType?: string | null }) {
  if (!e.isValidate) return { background: LOCAL_COLORS.invalid, text: "#ffffff" };
  if (e.isintoSia) return { background: LOCAL_COLORS.inSia, text: "#ffffff" };
  return colorsFor({ action_type: e.actionType });
}
