/** Google Drive (SPEC §7): browsing and creating folders, and checking a record's folders. */
import type { Identifier } from "react-admin";
import type { DriveItem } from "../core/schemas/drive";
import { recordPath } from "./base";
import { apiFetch } from "./http";

export type { DriveItem };

export const driveVerbs = {
  listDriveFolder: (parentId?: string, pageToken?: string) =>
    apiFetch<{ folder: DriveItem; items: DriveItem[]; next_page_token: string | null }>("drive/folders", {
      query: { parent_id: parentId, page_token: pageToken },
    }),
  createDriveFolder: (parentId: string, name: string) =>
    apiFetch<{ folder: DriveItem }>("drive/folders", { method: "POST", body: { folder: { parent_id: parentId, name } } }).then(
      (r) => r.folder,
    ),
  /**
   * POST projects/:id/drive_check or clients/:id/drive_check («Revisar drive»): verifies the record's folders,
   * repairs any drift and says what it repaired (`summary`, in Spanish).
   */
  checkDrive: (resource: "projects" | "clients", id: Identifier) =>
    apiFetch<{ message: string; repaired: string[]; summary: string }>(recordPath(resource, id, "drive_check"), {
      method: "POST",
    }),
};
