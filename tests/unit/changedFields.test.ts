import { describe, expect, it } from "vitest";
import { changedFields, pickFields, rebaseChanges, sameValue } from "../../src/core/changedFields";

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
