import { NEW_CLIENT_CODE } from "../constants";
import { messages } from "../messages";
import { flag, hours, nestedRow, optionalEmail, optionalId, optionalText, requiredId, requiredText, z } from "./fields";

/** RFC of a Mexican legal (12) or natural (13) person. */
export const RFC_PATTERN = /^[A-ZÑ&]{3,4}\d{6}[A-Z0-9]{3}$/;

export const clientProductSchema = nestedRow({
  product_catalog_id: requiredId(),
  annual_support_hours: hours().default(0),
});

const clientFields = z.object({
  name: requiredText(200),
  client_code: z.preprocess(
    (v) => (v === undefined || v === null || v === "" ? NEW_CLIENT_CODE : typeof v === "number" ? String(v) : v),
    z
      .string()
      .trim()
      .max(40, { error: messages.tooLong(40) })
      .regex(/^[A-Za-z0-9_-]+$/, { error: messages.invalidValue }),
  ),
  rfc: z.preprocess(
    (v) => (typeof v === "string" ? (v.trim() === "" ? null : v.trim().toUpperCase()) : v),
    z.string().regex(RFC_PATTERN, { error: messages.invalidRfc }).nullable().optional(),
  ),
  complete_name: optionalText(300),
  email: optionalEmail(),
  is_production_ready: flag(),
  /** True: the person saw the look-alike clients the server named and this is another one. */
  confirm_similar: flag(),
  client_group_id: optionalId(),
  drive_root_id: optionalText(300),
  drive_root_url: optionalText(2000),
  client_product_catalogs_attributes: z
    .array(clientProductSchema)
    .max(200)
    .optional()
    .refine(
      (rows) => {
        const ids = (rows ?? []).filter((r) => !r._destroy).map((r) => r.product_catalog_id);
        return new Set(ids).size === ids.length;
      },
      { error: messages.duplicateProduct },
    ),
});
/** The client's fields, without the create-only folder rule (used by the prospect conversion). */
export const clientFieldsSchema = clientFields;
/** A client is created with a picked drive folder (SPEC §5): its id, or one of the drive's folder URLs. */
export const clientSchema = clientFields.superRefine((value, ctx) => {
  if (!value.drive_root_id && !value.drive_root_url) {
    ctx.addIssue({ code: "custom", path: ["drive_root_id"], message: messages.clientFolderRequired });
  }
});
export type ClientInput = z.infer<typeof clientSchema>;
export const clientUpdateSchema = clientFields.partial();

/** The form's shape: rows edited as `client_product_catalogs`, sent as `_attributes` (same rules). */
export const clientFormSchema = clientFields.omit({ client_product_catalogs_attributes: true }).extend({
  client_product_catalogs: z
    .array(clientProductSchema)
    .max(200)
    .optional()
    .refine(
      (rows) => {
        const ids = (rows ?? []).map((r) => r.product_catalog_id);
        return new Set(ids).size === ids.length;
      },
      { error: messages.duplicateProduct },
    ),
});

/** GET clients/next_client_code. */
export const nextClientCodeAnswer = z.object({ client_code: z.string() });

/** GET clients/search_clients_and_prospects: the text searched (trimmed). */
export const searchClientsQuery = z.object({
  search: z
    .string({ error: messages.invalidValue })
    .trim()
    .max(200, { error: messages.tooLong(200) })
    .optional()
    .default(""),
});

/** GET clients/search_clients_and_prospects: up to 10 clients and 10 prospects not yet won (for who lists them). */
export const searchClientsAnswer = z.object({
  clients: z.array(z.object({ id: z.number().int(), name: z.string(), client_code: z.string() })),
  prospects: z.array(z.object({ id: z.number().int(), name: z.string() })),
});
