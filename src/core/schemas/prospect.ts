import { optionalText, requiredText, z } from "./fields";

/** Prospect (SPEC §3). The drive folder is optional for now (picked later, before conversion). */
export const prospectSchema = z.object({
  name: requiredText(200),
  drive_root_id: optionalText(300),
  drive_root_url: optionalText(2000),
});
export type ProspectInput = z.infer<typeof prospectSchema>;
export const prospectUpdateSchema = prospectSchema.partial();
