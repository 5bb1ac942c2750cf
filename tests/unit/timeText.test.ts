/** The activity form's times: read as the firm writes them, 24-hour HH:mm. */
import { describe, expect, it } from "vitest";
import { readTime } from "../../src/core/week";

describe("a typed time of day", () => {
  it("reads whole times, with or without the leading zero or the colon", () => {
    expect(readTime("09:00")).toBe("09:00");
    expect(readTime("9:00")).toBe("09:00");
    expect(readTime("0930")).toBe("09:30");
    expect(readTime(" 17:45 ")).toBe("17:45");
    expect(readTime("00:00")).toBe("00:00");
    expect(readTime("23:59")).toBe("23:59");
  });

  it("refuses what is not a time of day: no 12-hour suffixes, no impossible hours", () => {
    for (const text of ["", "9", "9:", "24:00", "12:60", "09:00 AM", "3:00 p.m.", "abc", "123456"])
      expect(readTime(text)).toBeNull();
  });
});
