/** The calendar's colours tell a type apart from the reds that mean «locked» and «por corregir». */
import { describe, expect, it } from "vitest";
import { ACTION_TYPES } from "../../src/core/constants";
import { ACTION_COLORS, colorsFor, LOCAL_COLORS, LOCKED_COLOR, localEventColors } from "../../src/timesheet/model/colors";

/** The hue (0–360) of a #rrggbb colour. */
function hue(hex: string) {
  const [r, g, b] = [1, 3, 5].map((i) => Number.parseInt(hex.slice(i, i + 2), 16) / 255);
  const max = Math.max(r, g, b);
  const d = max - Math.min(r, g, b);
  if (!d) return 0;
  const h = max === r ? ((g - b) / d) % 6 : max === g ? (b - r) / d + 2 : (r - g) / d + 4;
  return (h * 60 + 360) % 360;
}
/** WCAG's contrast ratio of two #rrggbb colours. */
function contrast(a: string, b: string) {
  const luminance = (hex: string) => {
    const [r, g, b] = [1, 3, 5].map((i) => {
      const c = Number.parseInt(hex.slice(i, i + 2), 16) / 255;
      return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
    });
    return 0.2126 * r + 0.7152 * g + 0.0722 * b;
  };
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return (hi + 0.05) / (lo + 0.05);
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

  it("every event's text reads on its background at 4.5:1 (WCAG 1.4.3)", () => {
    const pairs = [
      ...ACTION_TYPES.map((t) => [t, colorsFor({ action_type: t })] as const),
      ["locked", colorsFor({ action_type: "project", is_editable: false })] as const,
      ["unknown", colorsFor({ action_type: "?" })] as const,
      ["invalid", localEventColors({ isValidate: false, isintoSia: false })] as const,
      ["in SIA", localEventColors({ isValidate: true, isintoSia: true })] as const,
    ];
    for (const [name, { background, text }] of pairs) expect(contrast(background, text), name).toBeGreaterThanOrEqual(4.5);
  });
});
