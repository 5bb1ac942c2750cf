/** The drive (GET/POST drive/folders, «Revisar drive»): its query, body and answers. */
import { optionalText, requiredText, z } from "./fields";

/** An item of the documents port (folders and files), as the port answers it and GET drive/folders lists it. */
export const driveItemAnswer = z.object({
  id: z.string(),
  name: z.string(),
  kind: z.enum(["folder", "file"]),
  /** Id of the containing folder (the root's is null). */
  parentId: z.string().nullable(),
  /** Where a signed-in user opens it. */
  url: z.string(),
});
export type DriveItem = z.infer<typeof driveItemAnswer>;

/** GET drive/folders: a folder (the drive's top one when parent_id is absent) and a page token. */
export const driveListQuery = z.object({ parent_id: optionalText(2000), page_token: optionalText(100) });
/** POST drive/folders. */
export const driveFolderBody = z.object({ parent_id: optionalText(2000), name: requiredText(200) });

/** GET drive/folders: the folder, the items the user may see, and the next page's token (null on the last). */
export const driveListAnswer = z.object({
  folder: driveItemAnswer,
  items: z.array(driveItemAnswer),
  next_page_token: z.string().nullable(),
});

const driveRoot = { id: z.number(), drive_root_id: z.string().nullable(), drive_root_url: z.string().nullable() };
/** «Revisar drive»: SPEC's «Drive Actualizado», what was repaired, and the record's folder as it is now. */
const driveCheck = { message: z.string(), repaired: z.array(z.string()), summary: z.string() };
export const projectDriveCheckAnswer = z.object({ ...driveCheck, project: z.object(driveRoot) });
export const clientDriveCheckAnswer = z.object({ ...driveCheck, client: z.object(driveRoot) });
