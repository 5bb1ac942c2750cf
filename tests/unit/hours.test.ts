import { describe, expect, it } from "vitest";
import { centihoursBetween, expectedWeekHours, hoursBetween, sumHours } from "../../src/core/hours";
import { hoursByDay, totalHours } from "../../src/timesheet/model/totals";

const at = (iso: string) => new Date(iso);

describe("hours of activities", () => {
  it("rounds each activity to whole hundredths of an hour, half up", () => {
    expect(hoursBetween(at("2025-03-10T15:00:00Z"), at("2025-03-10T15:20:00Z"))).toBe(0.33);
    expect(hoursBetween(at("2025-03-10T15:00:00Z"), at("2025-03-10T15:07:00Z"))).toBe(0.12);
    expect(hoursBetween(at("2025-03-10T15:00:00Z"), at("2025-03-10T17:20:00Z"))).toBe(2.33);
    // 18 seconds is exactly half a hundredth: up.
    expect(centihoursBetween(at("2025-03-10T15:00:00Z"), at("2025-03-10T15:00:18Z"))).toBe(1);
    expect(centihoursBetween(at("2025-03-10T15:00:00Z"), at("2025-03-10T15:00:17.999Z"))).toBe(0);
  });

  it("adds two-decimal hours without drift (three 20-minute activities are 0.99)", () => {
    expect(sumHours([0.33, 0.33, 0.33])).toBe(0.99);
    expect(sumHours(["0.1", "0.2"])).toBe(0.3);
    expect(sumHours([])).toBe(0);
  });

  it("gives the calendar's totals by the same rule (the CSV's and the dashboards')", () => {
    const twenty = (from: string, to: string) => ({ begins_at: `2025-03-13T${from}:00Z`, ends_at: `2025-03-13T${to}:00Z` });
    const three = [twenty("16:00", "16:20"), twenty("16:20", "16:40"), twenty("16:40", "17:00")];
    expect(totalHours(three)).toBe(0.99);
    expect(hoursByDay(three)).toEqual({ "2025-03-13": 0.99 });
  });

  it("expects 40 hours a week less 8 per weekday holiday", () => {
    expect(expectedWeekHours("2025-03-10", [])).toBe(40);
    expect(expectedWeekHours("2025-03-10", ["2025-03-12", "2025-03-15", "2025-03-17"])).toBe(32);
    expect(expectedWeekHours("2025-03-10", ["2025-03-10", "2025-03-14"])).toBe(24);
  });
});
