/**
 * Where drafts live: the browser's localStorage, one entry per owner under `weekCalendar:<user>:<employee>`
 * (SPEC §3 names the key `weekCalendar`; the owner is added so that a draft is never offered to anyone
 * else — docs/decisions/026-timesheet-draft.md). Garbage, another shape, or a draft whose recorded owner
 * differs from its key reads as no draft. A write is read back; a full quota keeps the previous value.
 */
import { IMPORT_TYPES, type LocalEvent, WEEK_STORAGE_KEY } from "../../core/localEvent";
import type { Draft, DraftOwner } from "./draft";

/** The part of the Web Storage API used here (a fake one in unit tests). */
export type DraftStorage = Pick<Storage, "getItem" | "setItem" | "removeItem">;

export const browserStorage = (): DraftStorage | null => (typeof localStorage === "undefined" ? null : localStorage);

export const draftKey = (owner: DraftOwner) => `${WEEK_STORAGE_KEY}:${owner.userId}:${owner.employeeId}`;

const DATE = /^\d{4}-\d{2}-\d{2}$/;
const isId = (v: unknown): v is number => typeof v === "number" && Number.isInteger(v) && v > 0;
const isInstant = (v: unknown) => typeof v === "string" && !Number.isNaN(Date.parse(v));

const isEvent = (e: unknown): e is LocalEvent => {
  const o = e as Partial<LocalEvent> | null;
  return !!o && typeof o === "object" && typeof o.id === "string" && isInstant(o.start) && isInstant(o.end);
};

/** A stored value as the draft of `owner`; null for anything else. */
export function parseDraft(text: string | null, owner: DraftOwner): Draft | null {
  if (!text) return null;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return null;
  }
  const d = value as Partial<Draft> | null;
  if (!d || typeof d !== "object") return null;
  if (!d.owner || d.owner.userId !== owner.userId || d.owner.employeeId !== owner.employeeId) return null;
  if (!IMPORT_TYPES.includes(d.importType as never)) return null;
  if (typeof d.startOfWeek !== "string" || !DATE.test(d.startOfWeek)) return null;
  if (typeof d.endOfWeek !== "string" || !DATE.test(d.endOfWeek)) return null;
  if (!Array.isArray(d.events) || !d.events.every(isEvent)) return null;
  const updates = d.updates && typeof d.updates === "object" && !Array.isArray(d.updates) ? d.updates : {};
  if (!Object.values(updates).every((u) => u && isId(u.id) && typeof u.lockVersion === "number" && typeof u.changes === "object"))
    return null;
  const deletions = Array.isArray(d.deletions) ? d.deletions : [];
  if (!deletions.every((x) => x && isId(x.id) && typeof x.lockVersion === "number")) return null;
  return { ...(d as Draft), updates, deletions };
}

export function loadDraft(owner: DraftOwner, storage: DraftStorage | null = browserStorage()): Draft | null {
  try {
    return parseDraft(storage?.getItem(draftKey(owner)) ?? null, owner);
  } catch {
    return null;
  }
}

/** Writes the draft under its owner's key; false (and the previous value kept) when the browser refuses. */
export function storeDraft(draft: Draft, storage: DraftStorage | null = browserStorage()): boolean {
  if (!storage) return false;
  const key = draftKey(draft.owner);
  const text = JSON.stringify(draft);
  let previous: string | null = null;
  try {
    previous = storage.getItem(key);
    storage.setItem(key, text);
    if (storage.getItem(key) === text) return true;
  } catch {
    // refused (quota): restore below
  }
  try {
    if (previous === null) storage.removeItem(key);
    else storage.setItem(key, previous);
  } catch {
    // nothing more to undo
  }
  return false;
}

export function removeDraft(owner: DraftOwner, storage: DraftStorage | null = browserStorage()) {
  try {
    storage?.removeItem(draftKey(owner));
  } catch {
    // nothing stored
  }
}
