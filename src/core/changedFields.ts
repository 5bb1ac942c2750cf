/**
 * What a person changed in a form since it read the record, and those changes laid over the record as it
 * is now. After a stale save (409), the retry must carry only these fields: sending the whole form would
 * write back the old values of fields someone else changed meanwhile.
 */

/** Equal as a form sees them: null, undefined and "" are all "empty"; instants compare by time. */
export function sameValue(a: unknown, b: unknown): boolean {
  const empty = (v: unknown) => v === null || v === undefined || v === "";
  if (empty(a) || empty(b)) return empty(a) && empty(b);
  const time = (v: unknown) => (v instanceof Date ? v.getTime() : typeof v === "string" ? Date.parse(v) : Number.NaN);
  if (a instanceof Date || b instanceof Date) return time(a) === time(b);
  if (typeof a === "object" || typeof b === "object") return JSON.stringify(a) === JSON.stringify(b);
  return a === b;
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
