import { messages } from "../messages";
import { flag, optionalText, requiredId, requiredText, z } from "./fields";

/** An optional http(s) URL: '' means none. */
export const optionalUrl = (max = 2000) =>
  z.preprocess(
    (v) => (typeof v === "string" && v.trim() === "" ? null : v),
    z
      .string({ error: messages.invalidUrl })
      .trim()
      .max(max, { error: messages.tooLong(max) })
      .refine(
        (v) => {
          try {
            const url = new URL(v);
            return (url.protocol === "http:" || url.protocol === "https:") && Boolean(url.hostname);
          } catch {
            return false;
          }
        },
        { error: messages.invalidUrl },
      )
      .nullable()
      .optional(),
  );

const shape = {
  product_code: z.preprocess((v) => (typeof v === "number" ? String(v) : v), requiredText(40)),
  name: requiredText(160),
  application_id: optionalText(80),
  /** The employee responsible for the product. */
  employee_id: requiredId(),
  brochure_url: optionalUrl(),
  brochure_id: optionalText(200),
  form_url: optionalUrl(),
  form_id: optionalText(200),
  product_category: optionalText(80),
  is_selectable: flag(),
};

/** Product of the catalog (SPEC §3 Product). */
export const productSchema = z.object(shape);
export type ProductInput = z.infer<typeof productSchema>;
export const productUpdateSchema = z.object(shape).partial();
