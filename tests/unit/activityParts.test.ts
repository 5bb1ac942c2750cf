import { describe, expect, it } from "vitest";
import { ACTION_TYPES } from "../../src/core/constants";
import { parseTitle } from "../../src/core/eventTitle";
import { ACTION_PARTS, activitySchema } from "../../src/core/schemas/activity";

const base = {
  employee_id: 1,
  begins_at: "2031-03-10T15:00:00.000Z",
  ends_at: "2031-03-10T16:00:00.000Z",
  description: "Revisión",
  ownerable_id: 7,
  product_catalog_id: 3,
  project_id: 9,
  activity_type_catalog_id: 2,
};

describe("the parts of each action type agree with the import's titles", () => {
  const titles = {
    project: "P|PRY-0101|AN|Revisión",
    support: "S|Cliente|Producto|AN|Revisión",
    quote: "PC|Cliente|Producto|Revisión",
    internal: "AS|AN|Revisión",
    rh: "RH|Revisión",
  } as const;

  it.each(Object.entries(titles))("%s carries an activity type exactly when its title does", (type, title) => {
    const parsed = parseTitle(title);
    expect(parsed.actionType).toBe(type);
    expect(!!ACTION_PARTS[parsed.actionType].activityType).toBe(parsed.typeCode !== null);
    expect(!!ACTION_PARTS[parsed.actionType].product).toBe(parsed.product !== null);
  });

  it.each(ACTION_TYPES)("%s keeps the activity type only when it carries one", (action_type) => {
    const parsed = activitySchema.safeParse({ ...base, action_type });
    expect(parsed.success).toBe(true);
    const kept = parsed.data?.activity_type_catalog_id ?? null;
    expect(kept).toBe(ACTION_PARTS[action_type].activityType ? 2 : null);
  });

  it("a support or internal activity without a type is still valid (activities from before have none)", () => {
    for (const action_type of ["support", "internal"])
      expect(activitySchema.safeParse({ ...base, action_type, activity_type_catalog_id: null }).success).toBe(true);
    expect(activitySchema.safeParse({ ...base, action_type: "project", activity_type_catalog_id: null }).success).toBe(false);
  });
});

describe("activityFieldLabel", () => {
  it("names each field in Spanish, and none for a message about the whole activity", async () => {
    const { activityFieldLabel } = await import("../../src/timesheet/components/form/labels");
    expect(activityFieldLabel("product_catalog_id")).toBe("Producto");
    expect(activityFieldLabel("activity_type_catalog_id")).toBe("Tipo de actividad");
    expect(activityFieldLabel("begins_at")).toBe("Inicio");
    expect(activityFieldLabel("base")).toBeNull();
  });
});
