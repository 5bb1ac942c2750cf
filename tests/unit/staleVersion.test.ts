/** The stale-save notice's pure parts (src/admin/common/StaleVersion.tsx): what it lists and what it sends. */
import { describe, expect, it } from "vitest";
import { changedFields, conflictRecord, mineOverTheirs, shown } from "../../src/admin/common/StaleVersion";

describe("a stale save (409)", () => {
  it("«Guardar mis cambios» keeps the other person's changes to fields this person did not touch, rows included", () => {
    const read = {
      id: 1,
      name: "Cliente",
      email: "a@x.mx",
      products: [{ product_catalog_id: 3, support_hours: 61 }],
      lock_version: 4,
    };
    const current = { ...read, products: [{ product_catalog_id: 3, support_hours: 62 }], lock_version: 5 };
    const typed = { ...read, email: "b@x.mx" };
    const sent = mineOverTheirs(typed, read, current);
    expect(sent.email).toBe("b@x.mx");
    expect(sent.products).toEqual([{ product_catalog_id: 3, support_hours: 62 }]);
    // What the person did change wins, even where the other person changed it too.
    expect(mineOverTheirs({ ...read, products: [] }, read, current).products).toEqual([]);
    // A colour the form only re-cased is not a change of this person's.
    expect(mineOverTheirs({ color_tag: "#1565C0" }, { color_tag: "#1565c0" }, { color_tag: "#2E7D32" }).color_tag).toBe(
      "#2E7D32",
    );
  });

  it("lists what changed as a person reads it: rows by their values, no derived objects, no case-only colours", () => {
    const read = {
      color_tag: "#6a1b9a",
      products: [{ id: 9, product_catalog_id: 3, support_hours: 61 }],
      event: { name: "x" },
      default_customer_id: 1,
      default_customer_name: "Uno",
      percentage: 40,
    };
    const current = {
      color_tag: "#6A1B9A",
      products: [{ id: 9, product_catalog_id: 3, support_hours: 62 }],
      event: { name: "y" },
      default_customer_id: 11,
      default_customer_name: "Once",
      percentage: 35,
    };
    expect(changedFields(read, current)).toEqual(["products", "default_customer_name", "percentage"]);
    expect(shown(read.products)).toBe("61");
    expect(shown(current.products)).toBe("62");
  });

  it("finds the current record under the resource's name, or the one object with a version", () => {
    expect(conflictRecord({ error: "x", product: { id: 9, lock_version: 2 } }, "product")).toEqual({ id: 9, lock_version: 2 });
    expect(conflictRecord({ error: "x", product_catalog: { id: 9, lock_version: 2 } }, "product")).toEqual({
      id: 9,
      lock_version: 2,
    });
    expect(conflictRecord({ error: "x" }, "product")).toBeNull();
  });
});
