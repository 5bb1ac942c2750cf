/**
 * The grid's pinned rows: what a person starred or added, kept in the browser per signed-in user and
 * employee shown (an administrator's pins for someone else are theirs, not that employee's). A pinned row
 * is shown first, every week, even with no recent activity; it is kept as the fields a new activity of the
 * row is made from, with the names its label needs. Garbage or another shape reads as no pins.
 */
import { useCallback, useState } from "react";
import type { Activity } from "../../core/activity";
import { ACTION_TYPES } from "../../core/constants";
import { browserStorage, type DraftStorage } from "../model/storage";
import { rowKeyOf } from "./model";

/** What a pinned row keeps: a row's identity, its new activities' fields and its label's names. */
export const PINNED_FIELDS = [
  "action_type",
  "description",
  "activity_type_catalog_id",
  "activity_type_code",
  "ownerable_id",
  "ownerable_type",
  "ownerable_name",
  "project_id",
  "project_code",
  "project_name",
  "product_catalog_id",
  "product_name",
  "short_title",
  "ticket_id",
  "ticket_name",
] as const satisfies readonly (keyof Activity)[];

export type PinnedRow = Partial<Pick<Activity, (typeof PINNED_FIELDS)[number]>> & Pick<Activity, "action_type">;

/** At most this many pins: a week's grid, not a catalogue. */
export const MAX_PINNED = 40;

export const pinnedKey = (userId: number, employeeId: number) => `sia:grid-rows:${userId}:${employeeId}`;

/** A row's pinned fields, nothing else (no times, no ids of an activity). */
export const pinnedOf = (a: Partial<Activity>): PinnedRow =>
  Object.fromEntries(PINNED_FIELDS.map((k) => [k, a[k] ?? null])) as PinnedRow;

const isPinned = (v: unknown): v is PinnedRow => {
  const o = v as Partial<PinnedRow> | null;
  return !!o && typeof o === "object" && ACTION_TYPES.includes(o.action_type as never);
};

/** The stored pins; anything unreadable is none. */
export function readPinned(storage: DraftStorage | null, key: string): PinnedRow[] {
  try {
    const value: unknown = JSON.parse(storage?.getItem(key) ?? "[]");
    return Array.isArray(value) ? value.filter(isPinned).slice(0, MAX_PINNED).map(pinnedOf) : [];
  } catch {
    return [];
  }
}

/** Pins `row` when it is not pinned, unpins it when it is (by the row's identity). */
export function togglePinned(pins: readonly PinnedRow[], row: Partial<Activity>): PinnedRow[] {
  const key = rowKeyOf(row);
  return pins.some((p) => rowKeyOf(p) === key)
    ? pins.filter((p) => rowKeyOf(p) !== key)
    : [pinnedOf(row), ...pins].slice(0, MAX_PINNED);
}

/** The pins of the person signed in for the employee shown, and how to change them. */
export function usePinnedRows(userId: number | null, employeeId: number | null) {
  const key = userId !== null && employeeId !== null ? pinnedKey(userId, employeeId) : null;
  const [state, setState] = useState<{ key: string | null; pins: PinnedRow[] }>(() => ({
    key,
    pins: key ? readPinned(browserStorage(), key) : [],
  }));
  // Another employee chosen: their pins are read at once, not after an effect.
  const pins = state.key === key ? state.pins : key ? readPinned(browserStorage(), key) : [];
  const change = useCallback(
    (next: (current: PinnedRow[]) => PinnedRow[]) => {
      if (!key) return;
      const updated = next(readPinned(browserStorage(), key));
      try {
        browserStorage()?.setItem(key, JSON.stringify(updated));
      } catch {
        // A full storage keeps the pins for this visit only.
      }
      setState({ key, pins: updated });
    },
    [key],
  );
  const toggle = useCallback((row: Partial<Activity>) => change((p) => togglePinned(p, row)), [change]);
  const add = useCallback(
    (row: Partial<Activity>) =>
      change((p) => (p.some((x) => rowKeyOf(x) === rowKeyOf(row)) ? p : [pinnedOf(row), ...p].slice(0, MAX_PINNED))),
    [change],
  );
  return { pins, toggle, add };
}
