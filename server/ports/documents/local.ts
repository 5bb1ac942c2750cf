/**
 * LocalDocuments: the drive as real folders under DATA_DIR/drive, served to signed-in users at
 * /drive/folders/<id> and /drive/files/<id>. An id is the item's path relative to the drive root
 * ('' is the root), so renaming or moving an item changes its id: callers keep the returned ids.
 * Ids are checked before any file-system call: no '..', '.', empty segments, absolute paths,
 * backslashes or NUL, and nothing that resolves (through a symbolic link) outside the root.
 */

import { constants as fsConstants } from "node:fs";
import fs from "node:fs/promises";
import path from "node:path";
import { DocumentsError, type DocumentsPort, type DriveItem, type DrivePage, PAGE_SIZE } from "./port";

export const DRIVE_FOLDERS_PATH = "/drive/folders";
export const DRIVE_FILES_PATH = "/drive/files";

const invalid = (what = "Ruta no válida") => new DocumentsError("invalid", what);
const notFound = () => new DocumentsError("not_found", "No se encontró el elemento en el drive");
const conflict = () => new DocumentsError("conflict", "Ya existe un elemento con ese nombre");

/** The segments of a valid id ('' → []), or null. */
export function idSegments(id: unknown): string[] | null {
  if (typeof id !== "string" || id.length > 2000) return null;
  if (id === "") return [];
  if (id.includes("\0") || id.includes("\\") || id.startsWith("/")) return null;
  const segments = id.split("/");
  for (const s of segments) {
    if (!validName(s)) return null;
  }
  return segments;
}

function validName(name: unknown): name is string {
  return (
    typeof name === "string" &&
    name.length > 0 &&
    Buffer.byteLength(name) <= 255 &&
    name !== "." &&
    name !== ".." &&
    name.trim() === name &&
    // biome-ignore lint/suspicious/noControlCharactersInRegex: refused characters
    !/[\u0000-\u001f\u007f/\\]/.test(name)
  );
}

export class LocalDocuments implements DocumentsPort {
  readonly kind = "local";
  readonly rootId = "";
  private realRoot: string | null = null;

  /** root: the folder that holds the drive; publicUrl: when set, URLs are absolute on it. */
  constructor(
    readonly root: string,
    private readonly publicUrl?: string,
  ) {}

  private async base(): Promise<string> {
    if (!this.realRoot) {
      await fs.mkdir(this.root, { recursive: true });
      this.realRoot = await fs.realpath(this.root);
    }
    return this.realRoot;
  }

  /** Absolute path of an id, checked to stay inside the root (symbolic links included). */
  private async resolve(id: string, mustExist = true): Promise<string> {
    const segments = idSegments(id);
    if (!segments) throw invalid();
    const root = await this.base();
    const full = path.join(root, ...segments);
    let real: string;
    try {
      real = await fs.realpath(full);
    } catch {
      if (mustExist) throw notFound();
      // Not there yet: its parent must be inside the root.
      real = path.join(
        await fs.realpath(path.dirname(full)).catch(() => {
          throw notFound();
        }),
        path.basename(full),
      );
    }
    const relative = path.relative(root, real);
    if (relative.startsWith("..") || path.isAbsolute(relative)) throw invalid();
    return full;
  }

  private idOf(segments: string[]) {
    return segments.join("/");
  }

  private urlFor(prefix: string, id: string) {
    const p = id === "" ? `${prefix}/` : `${prefix}/${id.split("/").map(encodeURIComponent).join("/")}`;
    return this.publicUrl ? new URL(p, this.publicUrl).toString() : p;
  }

  private async item(id: string): Promise<DriveItem> {
    const full = await this.resolve(id);
    const stat = await fs.lstat(full);
    if (!stat.isDirectory() && !stat.isFile()) throw notFound();
    const segments = idSegments(id) ?? [];
    const kind = stat.isDirectory() ? "folder" : "file";
    return {
      id,
      name: segments.at(-1) ?? "",
      kind,
      parentId: segments.length ? this.idOf(segments.slice(0, -1)) : null,
      url: this.urlFor(kind === "folder" ? DRIVE_FOLDERS_PATH : DRIVE_FILES_PATH, id),
    };
  }

  private child(parentId: string, name: string) {
    return parentId === "" ? name : `${parentId}/${name}`;
  }

  private async folder(id: string): Promise<string> {
    const full = await this.resolve(id);
    if (!(await fs.stat(full)).isDirectory()) throw invalid("No es una carpeta");
    return full;
  }

  getUrl(id: string): string {
    if (!idSegments(id)) throw invalid();
    return this.urlFor(DRIVE_FOLDERS_PATH, id);
  }

  fileUrl(id: string): string {
    if (!idSegments(id)) throw invalid();
    return this.urlFor(DRIVE_FILES_PATH, id);
  }

  folderIdFromUrl(url: string): string | null {
    if (typeof url !== "string" || url.length > 2000) return null;
    let pathname: string;
    if (url.startsWith("/") && !url.startsWith("//")) {
      pathname = url.split(/[?#]/, 1)[0];
    } else {
      if (!this.publicUrl) return null;
      let parsed: URL;
      try {
        parsed = new URL(url);
      } catch {
        return null;
      }
      if (parsed.origin !== new URL(this.publicUrl).origin) return null;
      pathname = parsed.pathname;
    }
    if (pathname === DRIVE_FOLDERS_PATH || pathname === `${DRIVE_FOLDERS_PATH}/`) return "";
    if (!pathname.startsWith(`${DRIVE_FOLDERS_PATH}/`)) return null;
    let id: string;
    try {
      id = pathname
        .slice(DRIVE_FOLDERS_PATH.length + 1)
        .replace(/\/$/, "")
        .split("/")
        .map(decodeURIComponent)
        .join("/");
    } catch {
      return null;
    }
    return idSegments(id) ? id : null;
  }

  idAfterMove(id: string, oldId: string, newId: string): string {
    if (id === oldId) return newId;
    const prefix = this.idPrefixInside(oldId);
    return id.startsWith(prefix) ? this.child(newId, id.slice(prefix.length)) : id;
  }

  idPrefixInside(folderId: string): string {
    return folderId === "" ? "" : `${folderId}/`;
  }

  /** The drive's folder exists (created when missing) and can be written. */
  async check(): Promise<void> {
    try {
      await fs.access(await this.base(), fsConstants.W_OK);
    } catch {
      throw new Error(`No se puede escribir en la carpeta del drive (${this.root})`);
    }
  }

  async info(id: string): Promise<DriveItem | null> {
    if (!idSegments(id)) return null;
    try {
      return await this.item(id);
    } catch (error) {
      if (error instanceof DocumentsError) return null;
      throw error;
    }
  }

  async createFolder(parentId: string, name: string): Promise<DriveItem> {
    if (!validName(name)) throw invalid("Nombre de carpeta no válido");
    const parent = await this.folder(parentId);
    try {
      await fs.mkdir(path.join(parent, name));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "EEXIST") throw conflict();
      throw error;
    }
    return this.item(this.child(parentId, name));
  }

  async upload(parentId: string, name: string, content: Buffer | string): Promise<DriveItem> {
    if (!validName(name)) throw invalid("Nombre de archivo no válido");
    const parent = await this.folder(parentId);
    try {
      await fs.writeFile(path.join(parent, name), content, { flag: "wx" });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "EEXIST") throw conflict();
      throw error;
    }
    return this.item(this.child(parentId, name));
  }

  async list(folderId: string, pageToken?: string | null): Promise<DrivePage> {
    const full = await this.folder(folderId);
    const offset = pageToken ? Number(pageToken) : 0;
    if (!Number.isSafeInteger(offset) || offset < 0 || (pageToken && !/^\d+$/.test(pageToken))) throw invalid("Página no válida");
    const entries = (await fs.readdir(full, { withFileTypes: true })).filter(
      (e) => (e.isDirectory() || e.isFile()) && validName(e.name),
    );
    entries.sort((a, b) => Number(b.isDirectory()) - Number(a.isDirectory()) || a.name.localeCompare(b.name, "es"));
    const page = entries.slice(offset, offset + PAGE_SIZE);
    const items = page.map((e): DriveItem => {
      const id = this.child(folderId, e.name);
      const kind = e.isDirectory() ? "folder" : "file";
      return {
        id,
        name: e.name,
        kind,
        parentId: folderId,
        url: this.urlFor(kind === "folder" ? DRIVE_FOLDERS_PATH : DRIVE_FILES_PATH, id),
      };
    });
    return { items, nextPageToken: offset + PAGE_SIZE < entries.length ? String(offset + PAGE_SIZE) : null };
  }

  async copy(id: string, parentId: string, name?: string): Promise<DriveItem> {
    if (id === "") throw invalid();
    const source = await this.resolve(id);
    const parent = await this.folder(parentId);
    const target = name ?? path.basename(source);
    if (!validName(target)) throw invalid("Nombre no válido");
    const destination = path.join(parent, target);
    if (destination === source || destination.startsWith(`${source}${path.sep}`)) throw invalid();
    if (await exists(destination)) throw conflict();
    await fs.cp(source, destination, { recursive: true, errorOnExist: true, force: false });
    return this.item(this.child(parentId, target));
  }

  async rename(id: string, name: string): Promise<DriveItem> {
    if (id === "") throw invalid();
    if (!validName(name)) throw invalid("Nombre no válido");
    const source = await this.resolve(id);
    const segments = idSegments(id) ?? [];
    const parentId = this.idOf(segments.slice(0, -1));
    if (segments.at(-1) === name) return this.item(id);
    const destination = path.join(path.dirname(source), name);
    if (await exists(destination)) throw conflict();
    await fs.rename(source, destination);
    return this.item(this.child(parentId, name));
  }

  async move(id: string, newParentId: string): Promise<DriveItem> {
    if (id === "") throw invalid();
    const source = await this.resolve(id);
    const parent = await this.folder(newParentId);
    if (parent === source || parent.startsWith(`${source}${path.sep}`))
      throw invalid("No se puede mover una carpeta dentro de sí misma");
    const name = path.basename(source);
    const destination = path.join(parent, name);
    if (destination === source) return this.item(id);
    if (await exists(destination)) throw conflict();
    await fs.rename(source, destination);
    return this.item(this.child(newParentId, name));
  }

  async delete(id: string): Promise<void> {
    if (id === "") throw invalid("No se puede eliminar la raíz del drive");
    const full = await this.resolve(id);
    await fs.rm(full, { recursive: true, force: false });
  }

  /** Absolute path of a file, for serving it (checked like every id). */
  async filePath(id: string): Promise<string> {
    const full = await this.resolve(id);
    if (!(await fs.stat(full)).isFile()) throw notFound();
    return full;
  }
}

async function exists(p: string) {
  try {
    await fs.lstat(p);
    return true;
  } catch {
    return false;
  }
}
