import { describe, expect, it } from "vitest";
import { budgetForecast, budgetLevel } from "../../src/core/budget";

describe("a project's budget", () => {
  it("reaches a threshold at exactly its share of the estimate, in hundredths of an hour", () => {
    expect(budgetLevel(4.99, 10)).toBe(0);
    expect(budgetLevel(5, 10)).toBe(50);
    expect(budgetLevel(7.99, 10)).toBe(50);
    expect(budgetLevel(8, 10)).toBe(80);
    expect(budgetLevel(10, 10)).toBe(100);
    expect(budgetLevel(250, 10)).toBe(100);
    expect(budgetLevel(5, 0)).toBe(0);
    // 80 % of 14.5 h is 11.6 h: no floating-point surprise at the boundary.
    expect(budgetLevel(11.6, 14.5)).toBe(80);
    expect(budgetLevel(11.59, 14.5)).toBe(50);
  });

  it("forecasts the day the estimate runs out at the pace of the last four full weeks", () => {
    // Today is Wednesday 2031-03-12; the four weeks before this one logged 10, 0 (absent), 20 and 10 hours.
    const weekly = [
      { week: "2031-02-10", hours: 10 },
      { week: "2031-02-24", hours: 20 },
      { week: "2031-03-03", hours: 10 },
      { week: "2031-03-10", hours: 99 }, // the current week does not count
      { week: "2031-01-06", hours: 500 }, // nor the weeks before the four
    ];
    const f = budgetForecast(weekly, 100, 70, "2031-03-12");
    expect(f).toEqual({ pace_hours_per_week: 10, runs_out_on: "2031-04-02", over_hours: 0, percent: 70 });
    expect(budgetForecast(weekly, 100, 112.5, "2031-03-12")).toMatchObject({ runs_out_on: null, over_hours: 12.5, percent: 113 });
    expect(budgetForecast([], 100, 30, "2031-03-12")).toMatchObject({ pace_hours_per_week: 0, runs_out_on: null });
  });
});
