import { messages } from "../messages";
import { requiredText, z } from "./fields";

export const COLOR_TAG_PATTERN = /^#[0-9A-Fa-f]{6}$/;

/** Project type (SPEC §3 Other): a unique name and its colour as #RRGGBB. */
export const projectTypeSchema = z.object({
  name: requiredText(120),
  color_tag: z.preprocess(
    (v) => (typeof v === "string" ? (v.trim() === "" ? null : v.trim().toUpperCase()) : v),
    z.string({ error: messages.invalidColor }).regex(COLOR_TAG_PATTERN, { error: messages.invalidColor }).nullable().optional(),
  ),
});
export type ProjectTypeInput = z.infer<typeof projectTypeSchema>;
export const projectTypeUpdateSchema = projectTypeSchema.partial();
