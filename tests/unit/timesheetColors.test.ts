/** The calendar's colours tell a type apart from the reds that mean «locked» and «por corregir». */
import { describe, expect, it } from "vitest";
import { ACTION_COLORS, LOCAL_COLORS, LOCKED_COLOR } from "../../src/timesheet/model/colors";

/** The hue (0–360) of a #rrggbb colour. */
function hue(hex: string) {
  const [r, g, b] = [1, 3, 5].map((i) => Number.parseInt(hex.slice(i, i + 2), 16) / 255);
  const max = Math.max(r, g, b);
  const d = max - Math.min(r, g, b);
  if (!d) return 0;
  const h = max === r ? ((g - b) / d) % 6 : max === g ? (b - r) / d + 2 : (r - g) / d + 4;
  return (h * 60 + 360) % 360;
}
const distance = (a: number, b: number) => Math.min(Math.abs(a - b), 360 - Math.abs(a - b));

describe("timesheet colours", () => {
  it("the RH colour is far from the reds of locked and invalid events", () => {
    for (const red of [LOCKED_COLOR, LOCAL_COLORS.invalid]) expect(distance(hue(ACTION_COLORS.rh), hue(red))).toBeGreaterThan(45);
  });

  it("the RH colour shares its hue with no other type", () => {
    for (const [type, color] of Object.entries(ACTION_COLORS))
      if (type !== "rh") expect(distance(hue(ACTION_COLORS.rh), hue(color))).toBeGreaterThan(30);
  });
});
