import { optionalText, requiredText, z } from "./fields";

/**
 * Prospect (SPEC §3). On create the folder given (optional) is where the prospect's `CV_<name>` folder
 * is made (the drive's root when none); afterwards drive_root_id/url are that CV_ folder.
 */
export const prospectSchema = z.object({
  name: requiredText(200),
  drive_root_id: optionalText(300),
  drive_root_url: optionalText(2000),
});
export type ProspectInput = z.infer<typeof prospectSchema>;
export const prospectUpdateSchema = prospectSchema.partial();
