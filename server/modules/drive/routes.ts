/**
 * The drive over HTTP.
 *   GET  /api/v1/drive/folders?parent_id=&page_token=   a folder's items, pages of 200 (DRIVE_PAGE_SIZE)
 *   POST /api/v1/drive/folders {parent_id, name}         creates a folder (administrators)
 *   POST /api/v1/projects/:id/drive_check                verifies the project's folder, repairs any drift
 *   POST /api/v1/clients/:id/drive_check                 the same for a client's folder and its projects'
 *   GET  /drive/folders/<id>, /drive/files/<id>          the local drive, for signed-in users only
 * Each one judges the item and the folders above it by role (access.ts, decision 034).
 */
import fs from "node:fs";
import type { FastifyInstance, FastifyRequest } from "fastify";
import { z } from "zod";
import { folderMessages, messages, pipelineMessages } from "../../../src/core/messages";
import {
  clientDriveCheckAnswer,
  driveFolderBody,
  driveItemAnswer,
  driveListAnswer,
  driveListQuery,
  projectDriveCheckAnswer,
} from "../../../src/core/schemas/drive";
import type { Db, Tx } from "../../db/client";
import { currentUser, registerAuth, requires } from "../../http/auth";
import { HttpError, notFound, ValidationError } from "../../http/errors";
import { doc, idParams } from "../../http/openapi";
import { idOf, withValidation } from "../../http/resource";
import type { DriveWork } from "../../ports/documents";
import { DocumentsError, type DocumentsPort, LocalDocuments, safeFolderName } from "../../ports/documents";
import { DRIVE_FILES_PATH, DRIVE_FOLDERS_PATH, idSegments } from "../../ports/documents/local";
import { assertDriveAccess, visibleItems } from "./access";
import { repairClientFolders, repairProjectFolders } from "./folders";
import { driveFailure, withDriveWork } from "./service";

function documentsError(error: unknown, field = "parent_id"): never {
  if (error instanceof DocumentsError) {
    if (error.code === "not_found") throw notFound();
    if (error.code === "conflict") throw ValidationError.field("name", messages.alreadyTaken);
    if (error.code === "invalid") throw ValidationError.field(field, messages.invalidValue);
  }
  throw error;
}

export async function driveApiRoutes(api: FastifyInstance) {
  const tags = ["drive"];
  api.get(
    "/drive/folders",
    {
      config: requires("drive", "list"),
      schema: doc({
        tags,
        summary: "Contenido de una carpeta del drive (páginas de 200)",
        querystring: driveListQuery,
        response: { 200: driveListAnswer },
      }),
    },
    async (request) => {
      const query = request.query as z.output<typeof driveListQuery>;
      const port = api.documents;
      const parentId = query.parent_id ?? port.rootId;
      try {
        const folder = await port.info(parentId);
        if (folder?.kind !== "folder") throw notFound();
        const user = currentUser(request);
        await assertDriveAccess(port, user, folder, "list");
        const page = await port.list(parentId, query.page_token);
        return { folder, items: visibleItems(user, page.items), next_page_token: page.nextPageToken };
      } catch (error) {
        documentsError(error, "page_token");
      }
    },
  );

  api.post(
    "/drive/folders",
    {
      config: requires("drive", "create"),
      schema: doc({
        tags,
        summary: "Crear una carpeta en el drive",
        body: driveFolderBody,
        wrap: "folder",
        response: { 201: z.object({ folder: driveItemAnswer }) },
      }),
    },
    async (request, reply) => {
      const input = (request.body as { folder: z.output<typeof driveFolderBody> }).folder;
      const port = api.documents;
      const name = input.name;
      if (safeFolderName(name) !== name) throw ValidationError.field("name", messages.invalidCharacters);
      const parent = await port.info(input.parent_id ?? port.rootId).catch(() => null);
      if (parent) await assertDriveAccess(port, currentUser(request), parent, "create");
      try {
        const folder = await port.createFolder(input.parent_id ?? port.rootId, name);
        reply.status(201);
        return { folder };
      } catch (error) {
        documentsError(error);
      }
    },
  );

  api.post(
    "/projects/:id/drive_check",
    {
      config: requires("projects", "update"),
      schema: doc({
        tags: ["projects"],
        summary: "Verificar y reparar las carpetas del proyecto",
        params: idParams,
        response: { 200: projectDriveCheckAnswer },
      }),
    },
    async (request) => {
      return checkProjectDrive(api, request, idOf(request));
    },
  );

  api.post(
    "/clients/:id/drive_check",
    {
      config: requires("clients", "update"),
      schema: doc({
        tags: ["clients"],
        summary: "Verificar y reparar las carpetas del cliente y de sus proyectos",
        params: idParams,
        response: { 200: clientDriveCheckAnswer },
      }),
    },
    async (request) => {
      return checkClientDrive(api, request, idOf(request));
    },
  );
}

/** The answer of a «Revisar drive»: SPEC's «Drive Actualizado» and what was repaired, in Spanish. */
export function repairSummary(repairs: string[]) {
  const detail = repairs.length ? repairs.join("; ") : folderMessages.inOrder.toLowerCase();
  return { message: pipelineMessages.driveUpdated, repaired: repairs, summary: `${pipelineMessages.driveUpdated}: ${detail}.` };
}

/**
 * The project's drive check: its folder exists (created in its client's "Proyectos" when it does not),
 * is named `<code> <name>`, lies in its client's "Proyectos" and holds the 9 numbered folders of SPEC §9;
 * whatever drifted is repaired (decision 027).
 */
export async function checkProjectDrive(app: FastifyInstance, request: FastifyRequest, projectId: number) {
  return driveCheck(app, request, async (tx, work) => {
    const { folder, repairs } = await repairProjectFolders(tx, work, projectId);
    return { ...repairSummary(repairs), project: { id: projectId, drive_root_id: folder.id, drive_root_url: folder.url } };
  });
}

/** The client's drive check: its folder, its name, its 4 folders and its projects' folders (decision 027). */
export async function checkClientDrive(app: FastifyInstance, request: FastifyRequest, clientId: number) {
  return driveCheck(app, request, async (tx, work) => {
    const { client, repairs } = await repairClientFolders(tx, work, clientId);
    return {
      ...repairSummary(repairs),
      client: { id: clientId, drive_root_id: client.drive_root_id, drive_root_url: client.drive_root_url },
    };
  });
}

/** A drive check's repair in one transaction, its folder work undone if it fails, refusals in Spanish. */
function driveCheck<T>(app: FastifyInstance, request: FastifyRequest, repair: (tx: Tx, work: DriveWork) => Promise<T>) {
  return withDriveWork(app, request, (work) =>
    withValidation(() =>
      (app.db.db as Db).transaction(async (tx) => {
        try {
          return await repair(tx, work);
        } catch (error) {
          driveFailure(error);
        }
      }),
    ),
  );
}

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** The id after a prefix of the raw URL ('' for the prefix itself), or null when it is not a valid id. */
function idAfter(request: FastifyRequest, prefix: string): string | null {
  const pathname = (request.raw.url ?? "").split(/[?#]/, 1)[0];
  if (pathname === prefix || pathname === `${prefix}/`) return "";
  if (!pathname.startsWith(`${prefix}/`)) return null;
  try {
    const id = pathname
      .slice(prefix.length + 1)
      .replace(/\/$/, "")
      .split("/")
      .map(decodeURIComponent)
      .join("/");
    return idSegments(id) ? id : null;
  } catch {
    return null;
  }
}

/** /drive/*: the local drive for signed-in users (session cookie or bearer), outside /api/v1. */
export async function driveFileRoutes(scope: FastifyInstance) {
  registerAuth(scope);
  const port = (): LocalDocuments => {
    const documents: DocumentsPort = scope.documents;
    if (!(documents instanceof LocalDocuments)) throw notFound();
    return documents;
  };
  const folderPage = async (request: FastifyRequest, reply: import("fastify").FastifyReply) => {
    const id = idAfter(request, DRIVE_FOLDERS_PATH);
    if (id === null) throw notFound();
    const documents = port();
    const folder = await documents.info(id);
    if (folder?.kind !== "folder") throw notFound();
    const user = currentUser(request);
    await assertDriveAccess(documents, user, folder, "show");
    const rows: string[] = [];
    let token: string | null = null;
    do {
      const page = await documents.list(id, token);
      for (const item of visibleItems(user, page.items)) {
        rows.push(
          `<li>${item.kind === "folder" ? "📁" : "📄"} <a href="${escapeHtml(item.url)}">${escapeHtml(item.name)}</a></li>`,
        );
      }
      token = page.nextPageToken;
    } while (token);
    const up =
      folder.parentId !== null ? `<p><a href="${escapeHtml(documents.getUrl(folder.parentId))}">⬑ Carpeta superior</a></p>` : "";
    const title = escapeHtml(folder.name || "Drive");
    return reply
      .type("text/html; charset=utf-8")
      .header("cache-control", "no-store")
      .send(
        `<!doctype html><html lang="es"><head><meta charset="utf-8"><title>${title}</title></head><body><h1>${title}</h1>${up}<ul>${rows.join("") || "<li>Carpeta vacía</li>"}</ul></body></html>`,
      );
  };
  const options = { config: requires("drive", "show"), schema: { hide: true } };
  scope.get("/folders", options, folderPage);
  scope.get("/folders/*", options, folderPage);
  scope.get("/files/*", options, async (request, reply) => {
    const id = idAfter(request, DRIVE_FILES_PATH);
    if (id === null || id === "") throw notFound();
    const documents = port();
    const item = await documents.info(id).catch(() => null);
    if (!item) throw notFound();
    await assertDriveAccess(documents, currentUser(request), item, "show");
    let file: string;
    try {
      file = await documents.filePath(id);
    } catch (error) {
      if (error instanceof DocumentsError || error instanceof HttpError) throw notFound();
      throw error;
    }
    const name = id.split("/").at(-1) ?? "archivo";
    const ascii = name.replace(/[^\x20-\x7e]/g, "_").replace(/["\\]/g, "_");
    return reply
      .type("application/octet-stream")
      .header("content-disposition", `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(name)}`)
      .header("cache-control", "private, no-store")
      .header("content-security-policy", "sandbox")
      .send(fs.createReadStream(file));
  });
}
