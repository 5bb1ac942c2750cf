import { describe, expect, it } from "vitest";
import {
  ACTION_TYPES_OF_GROUP,
  capacityState,
  capacityWeeks,
  defaultCapacityRange,
  mondaysBetween,
} from "../../src/core/capacity";
import { capacityQuery } from "../../src/core/schemas/capacity";

describe("capacity rules", () => {
  it("marks over above the capacity, under below half of it, none without capacity", () => {
    expect(capacityState(48, 40)).toBe("over");
    expect(capacityState(40, 40)).toBe("ok");
    expect(capacityState(20, 40)).toBe("ok");
    expect(capacityState(19.99, 40)).toBe("under");
    expect(capacityState(0, 40)).toBe("under");
    expect(capacityState(0, 0)).toBe("none");
    expect(capacityState(8, 0)).toBe("over");
  });

  it("defaults to 12 weeks back and 8 ahead of the current week", () => {
    expect(defaultCapacityRange("2025-03-13")).toEqual({ from: "2024-12-16", to: "2025-05-05" });
    expect(mondaysBetween("2025-03-10", "2025-03-24")).toEqual(["2025-03-10", "2025-03-17", "2025-03-24"]);
  });

  it("adds overlapping assignments, skips holidays and days before the start, and logs past weeks only", () => {
    const [person] = capacityWeeks({
      weeks: ["2025-03-10", "2025-03-17"],
      currentWeek: "2025-03-10",
      employees: [{ id: 1, name: "Ana", workspace_id: null, workspace_name: null, daily_hours: 6, start_on: "2025-03-11" }],
      assignments: [
        { employee_id: 1, start_on: "2025-03-01", end_on: "2025-03-31" },
        { employee_id: 1, start_on: "2025-03-14", end_on: "2025-03-17" },
      ],
      holidays: ["2025-03-18"],
      logged: [{ employee_id: 1, week: "2025-03-10", project: 233, support: 0, internal: 45, vacation: 800 }],
    });
    // Tuesday to Friday of the first week (4 days × 6 h); Friday twice.
    expect(person.weeks[0]).toEqual({
      week: "2025-03-10",
      capacity_hours: 24,
      assigned_hours: 30,
      state: "over",
      logged: { project: 2.33, support: 0, internal: 0.45, vacation: 8, total: 10.78 },
    });
    // Four working days (Tuesday a holiday); Monday twice.
    expect(person.weeks[1]).toMatchObject({ capacity_hours: 24, assigned_hours: 30, state: "over", logged: null });
  });

  it("reads LOGGED_GROUP_OF the other way: each action type in exactly one group", () => {
    expect(ACTION_TYPES_OF_GROUP).toEqual({
      project: ["project"],
      support: ["support"],
      internal: ["quote", "internal", "rh"],
      vacation: ["vacation"],
    });
  });

  it("refuses weeks that do not start on Monday, and a range backwards", () => {
    expect(capacityQuery.safeParse({ from: "2025-03-10", to: "2025-03-24" }).success).toBe(true);
    const notMonday = capacityQuery.safeParse({ from: "2025-03-11" });
    expect(notMonday.error?.issues[0]).toMatchObject({ path: ["from"], message: expect.stringMatching(/lunes/) });
    const backwards = capacityQuery.safeParse({ from: "2025-03-24", to: "2025-03-10" });
    expect(backwards.error?.issues[0]).toMatchObject({ path: ["to"] });
  });
});
