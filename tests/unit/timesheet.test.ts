import { describe, expect, it } from "vitest";
import { ACTION_TYPES } from "../../src/core/constants";
import { zonedTime } from "../../src/core/week";
import { ACTION_COLORS, colorsFor, isLocked, LOCKED_COLOR } from "../../src/timesheet/model/colors";
import { formatHours, hoursByDay, hoursByType, hoursOf, totalHours } from "../../src/timesheet/model/totals";

const at = (date: string, time: string) => {
  const [h, m] = time.split(":").map(Number);
  return zonedTime(date, h * 60 + m).toISOString();
};
const act = (date: string, from: string, to: string, action_type = "project") => ({
  begins_at: at(date, from),
  ends_at: at(date, to),
  action_type,
});

describe("timesheet colours (SPEC §2)", () => {
  it("colours editable activities by type, with the named hues", () => {
    expect(colorsFor({ action_type: "vacation", is_editable: true }).background).toBe(ACTION_COLORS.vacation);
    expect(ACTION_COLORS).toMatchObject({
      vacation: "#00796b",
      quote: "#8e24aa",
      support: "#f57c00",
      internal: "#fbc02d",
      project: "#1565c0",
    });
    const all = ACTION_TYPES.map((t) => ACTION_COLORS[t]);
    expect(new Set(all).size).toBe(ACTION_TYPES.length); // rh has its own colour
    expect(all).not.toContain(LOCKED_COLOR);
    expect(colorsFor({ action_type: "internal" }).text).toBe("#212121"); // dark text on yellow
  });

  it("frozen or not editable activities are locked and red", () => {
    expect(isLocked({ is_editable: false })).toBe(true);
    expect(isLocked({ is_editable: true, is_month_frozen: true })).toBe(true);
    expect(isLocked({ is_editable: true, is_month_frozen: false })).toBe(false);
    expect(isLocked({})).toBe(false);
    expect(colorsFor({ action_type: "project", is_editable: false }).background).toBe(LOCKED_COLOR);
    expect(colorsFor({ action_type: "support", is_month_frozen: true }).background).toBe(LOCKED_COLOR);
  });
});

describe("timesheet totals", () => {
  const week = [
    act("2030-01-07", "09:00", "11:30"),
    act("2030-01-07", "12:00", "13:00", "support"),
    act("2030-01-08", "09:00", "18:00", "vacation"),
    act("2030-01-08", "22:00", "24:00", "internal"), // ends at the next local midnight: still the 8th
    act("2030-01-09", "10:05", "10:50", "quote"),
  ];

  it("hours of one activity", () => {
    expect(hoursOf(week[0])).toBe(2.5);
    expect(hoursOf({ begins_at: at("2030-01-07", "10:00"), ends_at: at("2030-01-07", "09:00") })).toBe(0);
  });

  it("by local (Mexico City) day", () => {
    expect(hoursByDay(week)).toEqual({ "2030-01-07": 3.5, "2030-01-08": 11, "2030-01-09": 0.75 });
    expect(hoursByDay([])).toEqual({});
  });

  it("by type, every type present", () => {
    expect(hoursByType(week)).toEqual({ project: 2.5, support: 1, quote: 0.75, internal: 2, rh: 0, vacation: 9 });
    expect(hoursByType([act("2030-01-07", "09:00", "10:00", "unknown")])).toEqual({
      project: 0,
      support: 0,
      quote: 0,
      internal: 0,
      rh: 0,
      vacation: 0,
    });
  });

  it("week total and its text", () => {
    expect(totalHours(week)).toBe(15.25);
    expect(formatHours(15.25)).toBe("15.25 h");
    expect(formatHours(8)).toBe("8 h");
  });
});
