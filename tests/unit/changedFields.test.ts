/** What a person changed since the form read the record, and what a retry after a conflict sends. */
import { describe, expect, it } from "vitest";
import {
  changedFields,
  changedSince,
  differingFrom,
  mineOnTop,
  pickFields,
  rebaseChanges,
  sameValue,
} from "../../src/core/changedFields";

const read = { id: 7, name: "Cliente", email: "a@x.mx", complete_name: "Razón", color_tag: "#1565c0", lock_version: 3 };

describe("fields changed since the form read the record", () => {
  it("names only what differs from what the form started from, bookkeeping left out", () => {
    expect(changedSince(read, { ...read, email: "b@x.mx", lock_version: 9, updated_at: "x" })).toEqual(["email"]);
    expect(changedSince(read, read)).toEqual([]);
    // A colour only re-cased is not a change; null and a missing value are the same nothing.
    expect(changedSince(read, { ...read, color_tag: "#1565C0" })).toEqual([]);
    expect(sameValue(null, undefined)).toBe(true);
    expect(sameValue("", null)).toBe(true);
    expect(changedSince({ rows: [{ a: 1 }] }, { rows: [{ a: 2 }] })).toEqual(["rows"]);
  });

  it("a retry keeps the other person's change to a field this person did not touch", () => {
    // Tab 1 saved a new legal name; tab 2 changed only the e-mail, on a form that still shows the old name.
    const current = { ...read, complete_name: "Razón nueva", lock_version: 4 };
    const typed = { ...read, email: "b@x.mx" };
    const sent = mineOnTop(current, typed, changedSince(read, typed));
    expect(sent.email).toBe("b@x.mx");
    expect(sent.complete_name).toBe("Razón nueva");
    // The version is not taken from the server's record here: the caller chooses it.
    expect(sent.lock_version).toBe(3);
  });

  it("what this person changed wins, even where the other person changed it too", () => {
    const current = { ...read, email: "otro@x.mx", lock_version: 4 };
    const typed = { ...read, email: "mio@x.mx" };
    expect(mineOnTop(current, typed, changedSince(read, typed)).email).toBe("mio@x.mx");
  });

  it("a form field the server's record lacks stays as the form has it", () => {
    const typed = { ...read, audit_comment: "Motivo" };
    expect(mineOnTop({ ...read }, typed, []).audit_comment).toBe("Motivo");
  });

  it("the retry's body holds only what differs from the server's record: this person's changes", () => {
    const current = { ...read, complete_name: "Razón nueva", lock_version: 4 };
    const typed = { ...read, email: "b@x.mx" };
    const record = mineOnTop(current, typed, changedSince(read, typed));
    const body = differingFrom({ ...record, products_attributes: [{ id: 1 }], extra: 1 }, current);
    expect(body).toEqual({ email: "b@x.mx", lock_version: 3, products_attributes: [{ id: 1 }], extra: 1 });
    expect(body).not.toHaveProperty("complete_name");
  });
});

describe("changedFields", () => {
  it("treats empty values alike and instants by their time", () => {
    expect(sameValue(null, undefined)).toBe(true);
    expect(sameValue("", null)).toBe(true);
    expect(sameValue(0, null)).toBe(false);
    expect(sameValue(new Date("2026-11-30T15:00:00Z"), "2026-11-30T15:00:00.000Z")).toBe(true);
    expect(sameValue(new Date("2026-11-30T15:00:00Z"), "2026-11-30T16:00:00.000Z")).toBe(false);
    expect(sameValue({ a: 1 }, { a: 1 })).toBe(true);
  });

  it("names only what the person changed", () => {
    const read = { description: "Inicial", ends_at: "2026-11-30T16:00:00.000Z", project_id: 3 };
    const mine = { ...read, ends_at: "2026-11-30T17:00:00.000Z" };
    expect(changedFields(read, mine)).toEqual(["ends_at"]);
    expect(pickFields(mine, ["ends_at"])).toEqual({ ends_at: "2026-11-30T17:00:00.000Z" });
  });

  it("lays the person's changes over the record as it is now, keeping the other's", () => {
    const read = { description: "Inicial", ends_at: "2026-11-30T16:00:00.000Z", project_id: 3 };
    const current = { ...read, description: "De la otra pestaña" };
    const mine = { ...read, ends_at: "2026-11-30T17:00:00.000Z" };
    expect(rebaseChanges(read, mine, current)).toEqual({
      description: "De la otra pestaña",
      ends_at: "2026-11-30T17:00:00.000Z",
      project_id: 3,
    });
  });
});
