/** The week's rules (src/core/activityRules.ts): one function over the week as it will be, answering codes. */
import { describe, expect, it } from "vitest";
import { fieldErrorsOf, MOVE_CURABLE, overlappingPairs, RULE_CODES, weekIssues } from "../../src/core/activityRules";
import { messages } from "../../src/core/messages";
import { zonedTime } from "../../src/core/week";

const at = (date: string, time: string) => {
  const [h, m] = time.split(":").map(Number);
  return zonedTime(date, h * 60 + m);
};
const act = (date: string, from: string, to: string, extra: { employee_id?: number; action_type?: string } = {}) => ({
  employee_id: extra.employee_id ?? 1,
  action_type: extra.action_type ?? "internal",
  begins_at: at(date, from),
  ends_at: at(date, to),
});
const codes = (issues: { code: string }[][]) => issues.map((list) => list.map((i) => i.code));

describe("weekIssues", () => {
  it("overlap: among the changed ones (both named) and with the unchanged, per employee, half-open", () => {
    const changed = [
      act("2025-03-04", "09:00", "10:00"),
      act("2025-03-04", "09:30", "10:30"),
      act("2025-03-04", "10:30", "11:00"),
      act("2025-03-04", "09:00", "10:00", { employee_id: 2 }),
    ];
    expect(codes(weekIssues(changed))).toEqual([["overlap"], ["overlap"], [], []]);
    const unchanged = [{ employee_id: 2, begins_at: at("2025-03-04", "09:45"), ends_at: at("2025-03-04", "12:00") }];
    const found = weekIssues(changed, { unchanged });
    expect(codes(found)).toEqual([["overlap"], ["overlap"], [], ["overlap"]]);
    expect(found[3][0]).toEqual({ code: "overlap", field: "base", message: messages.activityConflict });
    // Two activities that trade places: the week as it will be has no overlap.
    expect(codes(weekIssues([act("2025-03-04", "09:00", "10:00"), act("2025-03-04", "10:00", "12:00")]))).toEqual([[], []]);
  });

  it("frozen: a day inside a closed span of that employee", () => {
    const frozen = [{ employee_id: 1, starts_on: "2025-03-03", ends_on: "2025-03-09" }];
    const found = weekIssues(
      [
        act("2025-03-09", "09:00", "10:00"),
        act("2025-03-10", "09:00", "10:00"),
        act("2025-03-05", "09:00", "10:00", { employee_id: 2 }),
      ],
      { frozen },
    );
    expect(codes(found)).toEqual([["frozen"], [], []]);
    expect(found[0][0].message).toBe(messages.activityFrozen);
  });

  it("future: after today, except vacation or when allowed", () => {
    const later = act("2025-03-06", "09:00", "10:00");
    expect(codes(weekIssues([later], { today: "2025-03-05" }))).toEqual([["future"]]);
    expect(weekIssues([later], { today: "2025-03-05" })[0][0].message).toBe(messages.activityFutureDay("2025-03-06"));
    expect(codes(weekIssues([later], { today: "2025-03-06" }))).toEqual([[]]);
    expect(codes(weekIssues([{ ...later, action_type: "vacation" }], { today: "2025-03-05" }))).toEqual([[]]);
    expect(codes(weekIssues([later], { today: "2025-03-05", allowFuture: true }))).toEqual([[]]);
  });

  it("each rule once per activity, in the order future, frozen, overlap", () => {
    const found = weekIssues([act("2025-03-06", "09:00", "10:00"), act("2025-03-06", "09:30", "10:30")], {
      today: "2025-03-05",
      frozen: [{ employee_id: 1, starts_on: "2025-03-06", ends_on: "2025-03-06" }],
      unchanged: [{ employee_id: 1, begins_at: at("2025-03-06", "09:00"), ends_at: at("2025-03-06", "09:15") }],
    });
    expect(codes(found)).toEqual([
      ["future", "frozen", "overlap"],
      ["future", "frozen", "overlap"],
    ]);
  });
});

describe("the codes", () => {
  it("a move cures only the times' rules; every curable code is declared", () => {
    expect([...MOVE_CURABLE].sort()).toEqual(["ends_before_start", "overlap", "past_midnight", "whole_minutes", "zero_length"]);
    for (const code of MOVE_CURABLE) expect(RULE_CODES).toContain(code);
  });

  it("overlappingPairs skips touching and empty spans; fieldErrorsOf keeps SPEC §8's shape", () => {
    const spans = [act("2025-03-04", "09:00", "10:00"), act("2025-03-04", "10:00", "11:00"), act("2025-03-04", "09:30", "09:30")];
    expect(overlappingPairs(spans)).toEqual([]);
    expect(
      fieldErrorsOf(
        [
          { code: "overlap", field: "base", message: "a" },
          { code: "overlap", field: "base", message: "a" },
          { code: "reference", field: "project_id", message: "b" },
        ],
        "09:00 - 10:00: ",
      ),
    ).toEqual({ base: ["09:00 - 10:00: a"], project_id: ["09:00 - 10:00: b"] });
  });
});
