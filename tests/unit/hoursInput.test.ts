import { describe, expect, it } from "vitest";
import { formatCellMinutes, parseHoursInput } from "../../src/core/hoursInput";
import { messages } from "../../src/core/messages";

const minutes = (t: string) => {
  const r = parseHoursInput(t);
  return r.ok ? r.minutes : r.error;
};

describe("a grid cell's hours", () => {
  it("reads whole hours, decimals with a comma or a point, clock times and minutes", () => {
    expect(minutes("2")).toBe(120);
    expect(minutes("2,5")).toBe(150);
    expect(minutes("2.5")).toBe(150);
    expect(minutes("2:30")).toBe(150);
    expect(minutes("150m")).toBe(150);
    expect(minutes(" 0,25 ")).toBe(15);
    expect(minutes("8h")).toBe(480);
    expect(minutes("24")).toBe(1440);
  });

  it("takes an empty cell as no hours", () => {
    expect(minutes("")).toBe(0);
    expect(minutes("   ")).toBe(0);
  });

  it("refuses what is not hours, with the message that says how to write them", () => {
    for (const bad of ["abc", "2,5,1", "-1", "2:75", "1e2", "dos", "2 horas"])
      expect(minutes(bad)).toBe(messages.gridHoursInvalid);
  });

  it("refuses more than a day and fractions of a minute", () => {
    expect(minutes("25")).toBe(messages.gridHoursTooMany);
    expect(minutes("1500m")).toBe(messages.gridHoursTooMany);
    expect(minutes("0,001")).toBe(messages.gridHoursWholeMinutes);
  });

  it("shows minutes the way they are typed back", () => {
    expect(formatCellMinutes(0)).toBe("");
    expect(formatCellMinutes(120)).toBe("2");
    expect(formatCellMinutes(150)).toBe("2,5");
    expect(formatCellMinutes(135)).toBe("2,25");
    expect(formatCellMinutes(140)).toBe("2:20");
    for (const m of [15, 45, 140, 480, 61]) expect(minutes(formatCellMinutes(m))).toBe(m);
  });
});
