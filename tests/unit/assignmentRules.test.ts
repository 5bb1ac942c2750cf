import { describe, expect, it } from "vitest";
import { assignmentErrorText, hasProducts, productChoicesOf, throttled } from "../../src/admin/assignments/assignmentRules";
import { CLIENT_NOT_CONFIGURED_THROTTLE_MS } from "../../src/core/constants";
import { dateReached } from "../../src/core/schemas/assignment";

describe("assignment form rules", () => {
  it("warns about a client without products at most once every 2.5 s", () => {
    let now = 0;
    let calls = 0;
    const warn = throttled(
      () => calls++,
      CLIENT_NOT_CONFIGURED_THROTTLE_MS,
      () => now,
    );
    warn();
    now = 1000;
    warn();
    now = 2499;
    warn();
    expect(calls).toBe(1);
    now = 2500;
    warn();
    expect(calls).toBe(2);
  });

  it("joins field errors by newline, with the SPEC §8 fallbacks", () => {
    expect(assignmentErrorText({ message: "x", body: { errors: { start_on: "ya no se puede", end_on: ["antes"] } } })).toBe(
      "ya no se puede\nantes",
    );
    expect(assignmentErrorText({ message: "Se tienen que configurar los productos del cliente", body: {} })).toBe(
      "Se tienen que configurar los productos del cliente",
    );
    expect(assignmentErrorText({ body: {} })).toBe("Ocurrió un error");
    expect(assignmentErrorText(undefined)).toBe("Error desconocido");
  });

  it("offers only the client's products", () => {
    const client = { id: 1, name: "A", client_product_catalogs: [{ product_catalog_id: 7, product_catalog_name: "Siglo CD" }] };
    expect(productChoicesOf(client)).toEqual([{ id: 7, name: "Siglo CD" }]);
    expect(hasProducts(client)).toBe(true);
    expect(hasProducts({ id: 2, name: "B", client_product_catalogs: [] })).toBe(false);
  });

  it("treats today and earlier as reached", () => {
    expect(dateReached("2024-05-01", "2024-05-01")).toBe(true);
    expect(dateReached("2024-04-30", "2024-05-01")).toBe(true);
    expect(dateReached("2024-05-02", "2024-05-01")).toBe(false);
    expect(dateReached(null, "2024-05-01")).toBe(false);
  });
});
