/**
 * GoogleDriveDocuments: the drive in a Google Drive folder (DOCUMENTS_ADAPTER=google), through the official
 * client (`@googleapis/drive`, Drive API v3) with a service account (google-auth-library's JWT client).
 *
 * - The root is GOOGLE_DRIVE_ROOT_ID, a folder of a shared drive or of the service account's own drive
 *   (every call sends supportsAllDrives, lists also includeItemsFromAllDrives).
 * - Ids are Drive's file ids: they do not change on rename or move. An id outside the root is not one of
 *   this drive's (info answers null): ancestors are walked up to the root once and remembered.
 * - Drive allows two items with one name in a folder; the port does not (as the local drive), so create,
 *   copy, rename and move look for the name first (`name = '…'` in the folder) and answer `conflict`.
 * - "Delete" moves the item to Drive's trash (recoverable for 30 days; what a content manager of a shared
 *   drive may do); trashed items are gone for the port.
 * - 403 for a rate limit (reasons rateLimitExceeded, userRateLimitExceeded), 429 and 5xx are retried up to
 *   5 times with a doubling delay (SPEC §8/§9: "Drive retries max 5"); other errors become DocumentsError.
 * - The service account's token endpoint is the key file's `token_uri` (Google's, unless a test or proxy
 *   says otherwise); the API base is GOOGLE_API_ROOT_URL (default https://www.googleapis.com/).
 */

import fs from "node:fs";
import { Readable } from "node:stream";
import { drive_v3 } from "@googleapis/drive";
import { JWT } from "google-auth-library";
import { pipelineMessages } from "../../../src/core/messages";
import { DocumentsError, type DocumentsPort, type DriveItem, type DrivePage, PAGE_SIZE } from "./port";

export const FOLDER_MIME = "application/vnd.google-apps.folder";
export const DRIVE_SCOPE = "https://www.googleapis.com/auth/drive";
export const GOOGLE_TOKEN_URL = "https://oauth2.googleapis.com/token";
const FOLDER_URL = "https://drive.google.com/drive/folders/";
const ITEM_FIELDS = "id,name,mimeType,parents,trashed,webViewLink";
/** Retries after the first attempt (SPEC: drive retries max 5). */
export const DRIVE_MAX_RETRIES = 5;
const RATE_LIMIT_REASONS = new Set(["rateLimitExceeded", "userRateLimitExceeded"]);
const MAX_DEPTH = 50;
/** No call waits longer for Google (an answer that never comes is a failure, not a hung request). */
export const GOOGLE_TIMEOUT_MS = 30_000;

/** Drive file ids: letters, digits, '-' and '_'. Anything else is not one of this drive's ids. */
const validId = (id: unknown): id is string => typeof id === "string" && /^[A-Za-z0-9_-]{1,200}$/.test(id);

function validName(name: unknown): name is string {
  return (
    typeof name === "string" &&
    name.length > 0 &&
    Buffer.byteLength(name) <= 255 &&
    name.trim() === name &&
    name !== "." &&
    name !== ".." &&
    // biome-ignore lint/suspicious/noControlCharactersInRegex: refused characters (as in the local drive)
    !/[\u0000-\u001f\u007f/\\]/.test(name)
  );
}

/** A literal inside Drive's `q`: quoted, with \ and ' escaped. */
const literal = (value: string) => `'${value.replace(/\\/g, "\\\\").replace(/'/g, "\\'")}'`;

const MIME_BY_EXTENSION: Record<string, string> = {
  ".txt": "text/plain",
  ".csv": "text/csv",
  ".pdf": "application/pdf",
  ".docx": "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
  ".xlsx": "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
  ".json": "application/json",
  ".png": "image/png",
  ".jpg": "image/jpeg",
};
const mimeOf = (name: string) => MIME_BY_EXTENSION[name.slice(name.lastIndexOf(".")).toLowerCase()] ?? "application/octet-stream";

const invalid = (what = "Identificador de Google Drive no válido") => new DocumentsError("invalid", what);
const notFound = () => new DocumentsError("not_found", "No se encontró el elemento en el drive");
const conflict = () => new DocumentsError("conflict", "Ya existe un elemento con ese nombre");

interface ServiceAccountKey {
  client_email: string;
  private_key: string;
  private_key_id?: string;
  token_uri?: string;
}

/** What an error of the client says: HTTP status and Google's reasons. */
function failureOf(error: unknown): { status: number | null; reasons: string[] } {
  const e = error as {
    status?: number;
    code?: number | string;
    response?: { status?: number; data?: { error?: { errors?: Array<{ reason?: string }> } | string } };
  };
  const status = e?.response?.status ?? (typeof e?.status === "number" ? e.status : null);
  const data = e?.response?.data?.error;
  const reasons = typeof data === "object" && data?.errors ? data.errors.map((r) => r.reason ?? "") : [];
  return { status, reasons };
}

export interface GoogleDriveOptions {
  rootId: string;
  /** The service account's JSON key (parsed), or the path of its file. */
  key: ServiceAccountKey | string;
  /** Base of the APIs (default https://www.googleapis.com/). */
  rootUrl?: string;
  /** First retry delay in ms; doubled on each retry (tests make it small). */
  retryDelayMs?: number;
}

export class GoogleDriveDocuments implements DocumentsPort {
  readonly kind = "google";
  readonly rootId: string;
  private readonly drive: drive_v3.Drive;
  private readonly retryDelayMs: number;
  private readonly rootUrl: string | undefined;
  /** Folders known to be inside the root (the root, what was created or listed under them). */
  private readonly inside = new Set<string>();

  constructor(options: GoogleDriveOptions) {
    if (!validId(options.rootId)) throw new Error("GOOGLE_DRIVE_ROOT_ID no es un id de carpeta de Google Drive");
    this.rootId = options.rootId;
    this.inside.add(this.rootId);
    this.retryDelayMs = options.retryDelayMs ?? 1000;
    this.rootUrl = options.rootUrl;
    const key = typeof options.key === "string" ? readKeyFile(options.key) : options.key;
    const tokenUri = key.token_uri ?? GOOGLE_TOKEN_URL;
    // google-auth-library signs for and posts to Google's token endpoint; the key's token_uri decides.
    const auth = new JWT({ email: key.client_email, key: key.private_key, keyId: key.private_key_id, scopes: [DRIVE_SCOPE] });
    redirectTokenRequests(auth, tokenUri);
    // retry: false — the retries are this adapter's (below), counted and with Drive's reasons.
    // (googleapis-common pins its own patch release of google-auth-library: same API, other type identity.)
    this.drive = new drive_v3.Drive({
      auth: auth as unknown as drive_v3.Options["auth"],
      rootUrl: options.rootUrl,
      retry: false,
      timeout: GOOGLE_TIMEOUT_MS,
    });
  }

  /** Runs one call, retrying rate limits (403 with a rate-limit reason, 429) and 5xx with a doubling delay. */
  private async call<T>(run: () => Promise<{ data: T }>): Promise<T> {
    for (let attempt = 0; ; attempt++) {
      try {
        return (await run()).data;
      } catch (error) {
        const { status, reasons } = failureOf(error);
        const retriable =
          (status === 403 && reasons.some((r) => RATE_LIMIT_REASONS.has(r))) || status === 429 || (status ?? 0) >= 500;
        if (retriable && attempt < DRIVE_MAX_RETRIES) {
          await new Promise((resolve) => setTimeout(resolve, this.retryDelayMs * 2 ** attempt));
          continue;
        }
        throw toDocumentsError(error);
      }
    }
  }

  private toItem(file: drive_v3.Schema$File): DriveItem {
    const id = file.id as string;
    const folder = file.mimeType === FOLDER_MIME;
    return {
      id,
      name: file.name ?? "",
      kind: folder ? "folder" : "file",
      parentId: id === this.rootId ? null : (file.parents?.[0] ?? null),
      url: folder ? this.getUrl(id) : (file.webViewLink ?? `https://drive.google.com/file/d/${id}/view`),
    };
  }

  private async get(id: string): Promise<drive_v3.Schema$File> {
    return this.call(() => this.drive.files.get({ fileId: id, fields: ITEM_FIELDS, supportsAllDrives: true }));
  }

  /** Is the item inside the root (or the root)? Walks its ancestors once; remembers the folders found inside. */
  private async isInside(file: drive_v3.Schema$File): Promise<boolean> {
    if (file.id === this.rootId) return true;
    const path: string[] = [];
    let parent = file.parents?.[0];
    for (let depth = 0; parent && depth < MAX_DEPTH; depth++) {
      if (this.inside.has(parent)) {
        for (const id of path) this.inside.add(id);
        return true;
      }
      path.push(parent);
      let next: drive_v3.Schema$File;
      try {
        next = await this.get(parent);
      } catch (error) {
        if (error instanceof DocumentsError && error.code === "not_found") return false;
        throw error;
      }
      parent = next.trashed ? undefined : next.parents?.[0];
    }
    return false;
  }

  /** An item of this drive (not trashed, inside the root), or not_found. */
  private async existing(id: string): Promise<drive_v3.Schema$File> {
    if (!validId(id)) throw invalid();
    const file = await this.get(id);
    if (file.trashed || !(await this.isInside(file))) throw notFound();
    return file;
  }

  private async folder(id: string): Promise<drive_v3.Schema$File> {
    const file = await this.existing(id);
    if (file.mimeType !== FOLDER_MIME) throw invalid("No es una carpeta");
    this.inside.add(id);
    return file;
  }

  /** Is the name taken in the folder (by another item)? */
  private async taken(parentId: string, name: string, except?: string): Promise<boolean> {
    const data = await this.call(() =>
      this.drive.files.list({
        q: `${literal(parentId)} in parents and name = ${literal(name)} and trashed = false`,
        pageSize: 10,
        fields: "files(id)",
        supportsAllDrives: true,
        includeItemsFromAllDrives: true,
      }),
    );
    return (data.files ?? []).some((f) => f.id !== except);
  }

  getUrl(id: string): string {
    if (!validId(id)) throw invalid();
    return `${FOLDER_URL}${id}`;
  }

  folderIdFromUrl(url: string): string | null {
    if (typeof url !== "string" || url.length > 2000) return null;
    let parsed: URL;
    try {
      parsed = new URL(url);
    } catch {
      return null;
    }
    if (parsed.protocol !== "https:" || parsed.hostname !== "drive.google.com") return null;
    // /drive/folders/<id>, also /drive/u/<n>/folders/<id> (what a browser signed into several accounts shows).
    const match = parsed.pathname.match(/^\/drive\/(?:u\/\d+\/)?folders\/([A-Za-z0-9_-]+)\/?$/);
    return match && validId(match[1]) ? match[1] : null;
  }

  /** Drive's ids are stable: nothing changes id when a folder is renamed or moved. */
  idAfterMove(id: string): string {
    return id;
  }

  /** Drive's ids say nothing about where an item lies. */
  idPrefixInside(): null {
    return null;
  }

  /** The root folder answers to the service account (token, permission, shared drive). */
  async check(): Promise<void> {
    try {
      const root = await this.get(this.rootId);
      if (root.mimeType !== FOLDER_MIME || root.trashed) throw new Error("no es una carpeta");
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      throw new Error(`Google Drive no responde con la carpeta raíz ${this.rootId}: ${reason}`);
    }
  }

  async info(id: string): Promise<DriveItem | null> {
    if (!validId(id)) return null;
    try {
      return this.toItem(await this.existing(id));
    } catch (error) {
      if (error instanceof DocumentsError && (error.code === "not_found" || error.code === "invalid")) return null;
      throw error;
    }
  }

  async createFolder(parentId: string, name: string): Promise<DriveItem> {
    if (!validName(name)) throw invalid("Nombre de carpeta no válido");
    await this.folder(parentId);
    if (await this.taken(parentId, name)) throw conflict();
    const file = await this.call(() =>
      this.drive.files.create({
        requestBody: { name, mimeType: FOLDER_MIME, parents: [parentId] },
        fields: ITEM_FIELDS,
        supportsAllDrives: true,
      }),
    );
    if (file.id) this.inside.add(file.id);
    return this.toItem(file);
  }

  async upload(parentId: string, name: string, content: Buffer | string): Promise<DriveItem> {
    if (!validName(name)) throw invalid("Nombre de archivo no válido");
    await this.folder(parentId);
    if (await this.taken(parentId, name)) throw conflict();
    const body = typeof content === "string" ? Buffer.from(content, "utf8") : content;
    const mimeType = mimeOf(name);
    const file = await this.call(() =>
      this.drive.files.create(
        {
          requestBody: { name, parents: [parentId], mimeType },
          // A fresh stream per attempt: a retried upload sends the whole content again.
          media: { mimeType, body: Readable.from([body]) },
          fields: ITEM_FIELDS,
          supportsAllDrives: true,
        },
        // The client applies a global rootUrl to the API path but not to the upload path: say it here too.
        this.rootUrl ? { rootUrl: this.rootUrl } : {},
      ),
    );
    return this.toItem(file);
  }

  async list(folderId: string, pageToken?: string | null): Promise<DrivePage> {
    await this.folder(folderId);
    if (pageToken != null && (typeof pageToken !== "string" || !/^[\w\-.~=+/]{1,2000}$/.test(pageToken)))
      throw invalid("Página no válida");
    const data = await this.call(() =>
      this.drive.files.list({
        q: `${literal(folderId)} in parents and trashed = false`,
        pageSize: PAGE_SIZE,
        pageToken: pageToken || undefined,
        orderBy: "folder,name",
        fields: `nextPageToken,files(${ITEM_FIELDS})`,
        supportsAllDrives: true,
        includeItemsFromAllDrives: true,
      }),
    );
    const items = (data.files ?? []).map((file) => {
      if (file.mimeType === FOLDER_MIME && file.id) this.inside.add(file.id);
      return { ...this.toItem(file), parentId: folderId };
    });
    return { items, nextPageToken: data.nextPageToken ?? null };
  }

  /** Walks up from `id`: is `ancestor` on the way (or `id` itself)? */
  private async within(id: string, ancestor: string): Promise<boolean> {
    let current: string | undefined = id;
    for (let depth = 0; current && depth < MAX_DEPTH; depth++) {
      if (current === ancestor) return true;
      if (current === this.rootId) return false;
      current = (await this.get(current)).parents?.[0] ?? undefined;
    }
    return false;
  }

  async copy(id: string, parentId: string, name?: string): Promise<DriveItem> {
    if (id === this.rootId) throw invalid();
    const source = await this.existing(id);
    await this.folder(parentId);
    const target = name ?? source.name ?? "";
    if (!validName(target)) throw invalid("Nombre no válido");
    if (source.mimeType === FOLDER_MIME) {
      if (await this.within(parentId, id)) throw invalid();
      // Drive copies files only: a folder is recreated and its content copied into it.
      const copy = await this.createFolder(parentId, target);
      let token: string | null = null;
      do {
        const page: DrivePage = await this.list(id, token);
        for (const item of page.items) await this.copy(item.id, copy.id);
        token = page.nextPageToken;
      } while (token);
      return copy;
    }
    if (await this.taken(parentId, target)) throw conflict();
    const file = await this.call(() =>
      this.drive.files.copy({
        fileId: id,
        requestBody: { name: target, parents: [parentId] },
        fields: ITEM_FIELDS,
        supportsAllDrives: true,
      }),
    );
    return this.toItem(file);
  }

  async rename(id: string, name: string): Promise<DriveItem> {
    if (id === this.rootId) throw invalid();
    if (!validName(name)) throw invalid("Nombre no válido");
    const file = await this.existing(id);
    if (file.name === name) return this.toItem(file);
    const parent = file.parents?.[0];
    if (parent && (await this.taken(parent, name, id))) throw conflict();
    const updated = await this.call(() =>
      this.drive.files.update({ fileId: id, requestBody: { name }, fields: ITEM_FIELDS, supportsAllDrives: true }),
    );
    return this.toItem(updated);
  }

  async move(id: string, newParentId: string): Promise<DriveItem> {
    if (id === this.rootId) throw invalid();
    const file = await this.existing(id);
    await this.folder(newParentId);
    if (await this.within(newParentId, id)) throw invalid("No se puede mover una carpeta dentro de sí misma");
    const parents = file.parents ?? [];
    if (parents.length === 1 && parents[0] === newParentId) return this.toItem(file);
    if (await this.taken(newParentId, file.name ?? "", id)) throw conflict();
    const moved = await this.call(() =>
      this.drive.files.update({
        fileId: id,
        addParents: newParentId,
        removeParents: parents.join(",") || undefined,
        requestBody: {},
        fields: ITEM_FIELDS,
        supportsAllDrives: true,
      }),
    );
    return this.toItem(moved);
  }

  async delete(id: string): Promise<void> {
    if (id === this.rootId) throw invalid("No se puede eliminar la raíz del drive");
    await this.existing(id);
    await this.call(() =>
      this.drive.files.update({ fileId: id, requestBody: { trashed: true }, fields: "id", supportsAllDrives: true }),
    );
    this.inside.delete(id);
  }
}

/** Sends the client's requests for Google's token endpoint to `tokenUri` (the key's token_uri, a proxy, a test). */
export function redirectTokenRequests(auth: { transporter: JWT["transporter"] }, tokenUri: string) {
  if (tokenUri === GOOGLE_TOKEN_URL) return;
  auth.transporter.interceptors.request.add({
    resolved: async (config) => {
      if (String(config.url) === GOOGLE_TOKEN_URL) config.url = new URL(tokenUri);
      return config;
    },
  });
}

function readKeyFile(file: string): ServiceAccountKey {
  let key: ServiceAccountKey;
  try {
    key = JSON.parse(fs.readFileSync(file, "utf8"));
  } catch (error) {
    throw new Error(`No se pudo leer la llave de la cuenta de servicio (${file}): ${(error as Error).message}`);
  }
  if (!key?.client_email || !key?.private_key)
    throw new Error(`La llave de la cuenta de servicio (${file}) no tiene client_email ni private_key`);
  return key;
}

/** Drive's answer as a DocumentsError (Spanish message; SPEC §8's wording when the drive itself failed). */
function toDocumentsError(error: unknown): DocumentsError {
  if (error instanceof DocumentsError) return error;
  const { status } = failureOf(error);
  if (status === 404) return notFound();
  if (status === 400) return invalid("Google Drive rechazó la solicitud");
  return new DocumentsError("failed", pipelineMessages.driveFailed);
}
