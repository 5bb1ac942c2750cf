/**
 * What a person changed in a form since it read the record, and what a retry after a conflict (409)
 * sends: the record as the server has it now, with only those fields taken from the form. A field the
 * person did not touch keeps whatever the other person saved, so a retry never undoes their change.
 */

/** Fields the server keeps for itself: never "changed by the person", never news to them. */
export const BOOKKEEPING_FIELDS: ReadonlySet<string> = new Set(["lock_version", "updated_at", "created_at"]);

/**
 * Equal as the person sees them: null, undefined and "" are all "empty"; instants compare by time; colours
 * ignore letter case (#1565c0 is #1565C0); rows compare by value.
 */
export function sameValue(a: unknown, b: unknown): boolean {
  const empty = (v: unknown) => v === null || v === undefined || v === "";
  if (empty(a) || empty(b)) return empty(a) && empty(b);
  const time = (v: unknown) => (v instanceof Date ? v.getTime() : typeof v === "string" ? Date.parse(v) : Number.NaN);
  if (a instanceof Date || b instanceof Date) return time(a) === time(b);
  const text = (v: unknown) => (typeof v === "string" && /^#[0-9a-f]{3,8}$/i.test(v) ? v.toLowerCase() : v);
  return JSON.stringify(text(a)) === JSON.stringify(text(b));
}

/** The fields of `values` that differ from what the form started from (`base`), bookkeeping left out. */
export function changedSince(base: Record<string, unknown>, values: Record<string, unknown>): string[] {
  return Object.keys(values).filter((key) => !BOOKKEEPING_FIELDS.has(key) && !sameValue(values[key], base[key]));
}

/**
 * What an update sends when judged against `base` (the server's current record, for a retry): the fields
 * whose value differs from it, fields it lacks, and nested-row attributes (always whole). Another person's
 * value, already on the server, is not written back.
 */
export function differingFrom(data: Record<string, unknown>, base: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(data).filter(
      ([key, value]) =>
        BOOKKEEPING_FIELDS.has(key) || key.endsWith("_attributes") || !(key in base) || !sameValue(value, base[key]),
    ),
  );
}

/**
 * The retry's record: `current` (the server's record now) with the fields this person changed (`mine`)
 * taken from the form's `values`. Fields of the form the server's record lacks stay as the form has them.
 */
export function mineOnTop(
  current: Record<string, unknown>,
  values: Record<string, unknown>,
  mine: readonly string[],
): Record<string, unknown> {
  const out: Record<string, unknown> = { ...values };
  for (const key of Object.keys(values)) {
    if (BOOKKEEPING_FIELDS.has(key) || mine.includes(key) || !(key in current)) continue;
    out[key] = current[key];
  }
  return out;
}

/** The keys of `now` whose value differs from the one the form read (`read`). */
export function changedFields<T extends object>(read: T, now: T): (keyof T)[] {
  return (Object.keys(now) as (keyof T)[]).filter((key) => !sameValue(read[key], now[key]));
}

/** Only the given keys of `values`. */
export function pickFields<T extends object>(values: T, keys: readonly (keyof T)[]): Partial<T> {
  const out: Partial<T> = {};
  for (const key of keys) out[key] = values[key];
  return out;
}

/** The record as it is now with this person's changes (since `read`) over it. */
export function rebaseChanges<T extends object>(read: T, mine: T, current: T): T {
  return { ...current, ...pickFields(mine, changedFields(read, mine)) };
}
