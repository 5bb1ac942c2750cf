import { describe, expect, it } from "vitest";
import { safeHref } from "../../src/admin/products/safeHref";

describe("safeHref (product brochure and form links)", () => {
  it("keeps http(s) addresses", () => {
    expect(safeHref("https://ejemplo.mx/folleto.pdf")).toBe("https://ejemplo.mx/folleto.pdf");
    expect(safeHref(" http://ejemplo.mx ")).toBe("http://ejemplo.mx/");
  });
  it("refuses other schemes, text and empty values", () => {
    expect(safeHref("javascript:alert(1)")).toBeNull();
    expect(safeHref("data:text/html,<b>x</b>")).toBeNull();
    expect(safeHref("ejemplo.mx")).toBeNull();
    expect(safeHref("")).toBeNull();
    expect(safeHref(null)).toBeNull();
  });
});
