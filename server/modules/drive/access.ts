/**
 * Which drive folders a role reads (docs/decisions/034-drive-folders-by-role.md): everything the `drive`
 * row allows, except what lies in an «Administración» folder, which takes the `drive_administration`
 * row too. Judged on the item and every folder above it, so a file's own URL is refused like its folder.
 */
import { ADMINISTRATION_FOLDER } from "../../../src/core/constants";
import { type Action, grantFor } from "../../../src/core/permissions";
import type { SessionUser } from "../../../src/core/session";
import { forbidden } from "../../http/errors";
import type { DocumentsPort, DriveItem } from "../../ports/documents";

/** How far up a chain of folders is followed (a drive is not that deep; a loop is not followed forever). */
const MAX_DEPTH = 50;

/** Compared without case, accents or outer spaces: «administracion» is the same folder to a person. */
const plain = (name: string) => name.normalize("NFD").replace(/\p{M}/gu, "").trim().toLowerCase();
const RESTRICTED = plain(ADMINISTRATION_FOLDER);

/** Whether the item itself is an «Administración» folder. */
export const isAdministrationFolder = (item: DriveItem) => item.kind === "folder" && plain(item.name) === RESTRICTED;

/** Whether the user reads (or, for `create`, writes in) «Administración» folders. */
export const readsAdministration = (user: SessionUser, action: Action) => grantFor(user, "drive_administration", action) !== null;

/** Whether the item is an «Administración» folder or lies inside one. */
export async function insideAdministration(port: DocumentsPort, item: DriveItem): Promise<boolean> {
  let current: DriveItem | null = item;
  for (let depth = 0; current && depth < MAX_DEPTH; depth += 1) {
    if (isAdministrationFolder(current)) return true;
    current = current.parentId === null ? null : await port.info(current.parentId);
  }
  return false;
}

/** A 403 when the item lies in a folder the user's role does not read. */
export async function assertDriveAccess(port: DocumentsPort, user: SessionUser, item: DriveItem, action: Action) {
  if (readsAdministration(user, action)) return;
  if (await insideAdministration(port, item)) throw forbidden();
}

/** A folder's items without the «Administración» folders the user does not read (they are not offered). */
export function visibleItems<T extends DriveItem>(user: SessionUser, items: T[]): T[] {
  return readsAdministration(user, "list") ? items : items.filter((item) => !isAdministrationFolder(item));
}
