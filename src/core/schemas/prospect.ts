import { pipelineMessages } from "../messages";
import { clientFieldsSchema } from "./client";
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

/**
 * The "Convertir a cliente" dialog (POST prospects/:id/convert_to_client): the client's name and the folder
 * picked in the drive, required ('No se ha seleccionado una carpeta', SPEC §5).
 */
export const prospectConversionSchema = clientFieldsSchema
  .pick({ name: true, drive_root_id: true, drive_root_url: true, confirm_similar: true })
  .superRefine((value, ctx) => {
    if (!value.drive_root_id && !value.drive_root_url) {
      ctx.addIssue({ code: "custom", path: ["drive_root_id"], message: pipelineMessages.folderNotSelected });
    }
  });
