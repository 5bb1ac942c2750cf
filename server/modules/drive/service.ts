/**
 * Drive rules shared by clients, prospects, projects and quotations: which folder a record points at
 * (SPEC §5: a URL outside this drive's folders path is refused), and writes whose drive side effects
 * are undone when the database work fails.
 */
import type { FastifyInstance, FastifyRequest } from "fastify";
import { messages, pipelineMessages } from "../../../src/core/messages";
import { HttpError, ValidationError } from "../../http/errors";

import { DocumentsError, type DocumentsPort, type DriveItem, DriveWork } from "../../ports/documents";

/**
 * Resolves drive_root_id / drive_root_url of a write to a folder of this drive and writes both back in
 * canonical form. The URL, when given, must be one of this drive's folder URLs; the id must be a folder.
 * Answers null when neither is given (or both are cleared).
 */
export async function resolveDriveFolder(
  port: DocumentsPort,
  values: Record<string, unknown>,
  options: { requiredMessage?: string; allowRoot?: boolean } = {},
): Promise<DriveItem | null> {
  const url = typeof values.drive_root_url === "string" && values.drive_root_url !== "" ? values.drive_root_url : null;
  let id = typeof values.drive_root_id === "string" && values.drive_root_id !== "" ? values.drive_root_id : null;
  if (url !== null) {
    const fromUrl = port.folderIdFromUrl(url);
    if (fromUrl === null || (id !== null && id !== fromUrl))
      throw ValidationError.field("drive_root_url", messages.driveUrlInvalid);
    id = fromUrl;
  }
  if (id === null || (id === port.rootId && !options.allowRoot)) {
    if (options.requiredMessage) throw ValidationError.field("drive_root_id", options.requiredMessage);
    if (id === null) {
      values.drive_root_id = null;
      values.drive_root_url = null;
      return null;
    }
  }
  const item = await port.info(id);
  if (item?.kind !== "folder") throw ValidationError.field("drive_root_id", pipelineMessages.folderNotFound);
  values.drive_root_id = item.id;
  values.drive_root_url = item.url;
  return item;
}

/** Did this write touch the folder fields (with a value different from the stored one)? */
export function touchesFolder(values: Record<string, unknown>, existing: Record<string, unknown> | null) {
  if (!existing) return true;
  // A form sends both fields back: a new URL with the old id means "this URL".
  if (
    "drive_root_url" in values &&
    values.drive_root_url !== existing.drive_root_url &&
    values.drive_root_id === existing.drive_root_id
  ) {
    delete values.drive_root_id;
  }
  const idChanged = "drive_root_id" in values && values.drive_root_id !== existing.drive_root_id;
  const urlChanged = "drive_root_url" in values && values.drive_root_url !== existing.drive_root_url;
  if (!idChanged && !urlChanged) {
    delete values.drive_root_id;
    delete values.drive_root_url;
    return false;
  }
  return true;
}

/** The drive work of a request (one per request), undone by `withDriveWork` when the write fails. */
const works = new WeakMap<FastifyRequest, DriveWork>();
export function driveWorkOf(app: FastifyInstance, request: FastifyRequest): DriveWork {
  let work = works.get(request);
  if (!work) {
    work = new DriveWork(app.documents);
    works.set(request, work);
  }
  return work;
}

/** Runs a write; if it fails (database included, commit included), the request's drive work is undone. */
export async function withDriveWork<T>(
  app: FastifyInstance,
  request: FastifyRequest,
  write: (work: DriveWork) => Promise<T>,
): Promise<T> {
  const work = driveWorkOf(app, request);
  try {
    return await write(work);
  } catch (error) {
    await work.undo();
    throw error;
  }
}

/** A failure of the drive itself (not of the request's data) as a Spanish 422. */
export function driveFailure(error: unknown, message: string = pipelineMessages.driveFailed): never {
  if (error instanceof HttpError) throw error;
  if (error instanceof DocumentsError || error instanceof Error) throw ValidationError.base(message);
  throw error;
}

/** A declared resource's `aroundWrite` when its hooks touch the drive: a failed write undoes its folders. */
export const undoDriveWorkOnFailure = <T>(app: FastifyInstance, request: FastifyRequest, write: () => Promise<T>) =>
  withDriveWork(app, request, write);
