import { messages } from "../messages";
import { requiredText, z } from "./fields";

/** Activity type (SPEC §9 summary codes): a unique code of 2 to 4 capital letters and a name. */
export const activityTypeCatalogSchema = z.object({
  code: z.preprocess(
    (v) => (typeof v === "string" ? v.trim().toUpperCase() : v),
    z
      .string({ error: messages.required })
      .min(1, { error: messages.required })
      .regex(/^[A-Z]{2,4}$/, { error: messages.invalidActivityCode }),
  ),
  name: requiredText(120),
});
export type ActivityTypeCatalogInput = z.infer<typeof activityTypeCatalogSchema>;
export const activityTypeCatalogUpdateSchema = activityTypeCatalogSchema.partial();
