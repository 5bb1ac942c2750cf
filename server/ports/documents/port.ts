/**
 * The documents port (the "drive", SPEC §5 and §9): folders and files, behind one interface so the
 * firm can keep them on this server (LocalDocuments, the default) or in Google Drive (the adapter of the
 * integrations issue, switched on with DOCUMENTS_ADAPTER). Callers keep the ids the port hands back:
 * an adapter may change an item's id when it is renamed or moved (the local one does: its ids are paths).
 *
 * Every adapter passes the same contract suite (tests/api/documents.contract.test.ts).
 */
import { DRIVE_PAGE_SIZE } from "../../../src/core/constants";
import type { DriveItem } from "../../../src/core/schemas/drive";
import type { Integration } from "../integration";

export type { DriveItem };

export interface DrivePage {
  items: DriveItem[];
  /** Opaque; pass it back for the next page. Null on the last page. */
  nextPageToken: string | null;
}

export type DocumentsErrorCode = "not_found" | "invalid" | "conflict" | "failed";

export class DocumentsError extends Error {
  constructor(
    readonly code: DocumentsErrorCode,
    message: string,
  ) {
    super(message);
  }
}

export interface DocumentsPort extends Integration {
  /** The id of the drive's top folder. */
  readonly rootId: string;
  createFolder(parentId: string, name: string): Promise<DriveItem>;
  /** Creates a file with that content (refuses a name already taken in the folder). */
  upload(parentId: string, name: string, content: Buffer | string): Promise<DriveItem>;
  /** Folders first, then files, by name; pages of DRIVE_PAGE_SIZE. */
  list(folderId: string, pageToken?: string | null): Promise<DrivePage>;
  /** Copies a file (or a folder with its content) into parentId; answers the copy. */
  copy(id: string, parentId: string, name?: string): Promise<DriveItem>;
  rename(id: string, name: string): Promise<DriveItem>;
  move(id: string, newParentId: string): Promise<DriveItem>;
  /** Deletes a file or a folder with everything in it. */
  delete(id: string): Promise<void>;
  getUrl(id: string): string;
  /** The item, or null when it does not exist (or the id is not one of this drive's). */
  info(id: string): Promise<DriveItem | null>;
  /** The folder id a URL of this drive points at, or null when the URL is not one of its folders. */
  folderIdFromUrl(url: string): string | null;
  /**
   * After the folder `oldId` was renamed or moved and answered `newId`: the id the item that was `id` has
   * now. The local drive's ids are paths, so the folder and everything inside it change id with it;
   * Google's ids never change. An id that is neither the folder nor inside it is answered unchanged.
   */
  idAfterMove(id: string, oldId: string, newId: string): string;
  /**
   * The text every id inside the folder starts with, when this adapter's ids say where an item lies (the
   * local drive: `<id>/`), so records stored inside a folder are found with one query; null when ids say
   * nothing about it (Google: nothing to rewrite after a move, and containment is found by listing).
   */
  idPrefixInside(folderId: string): string | null;
}

export const PAGE_SIZE = DRIVE_PAGE_SIZE;

/** Every item of a folder, through all its pages. */
export async function listAll(port: DocumentsPort, folderId: string): Promise<DriveItem[]> {
  const items: DriveItem[] = [];
  let token: string | null = null;
  do {
    const page: DrivePage = await port.list(folderId, token);
    items.push(...page.items);
    token = page.nextPageToken;
  } while (token);
  return items;
}

/** A child folder by exact name, or null. */
export async function findFolder(port: DocumentsPort, parentId: string, name: string): Promise<DriveItem | null> {
  return (await listAll(port, parentId)).find((item) => item.kind === "folder" && item.name === name) ?? null;
}

/**
 * Makes sure `parentId` holds a folder for each name, creating the missing ones. Answers every folder
 * (found or created) by name, and which ones were created (so a caller can undo them).
 */
/** `onCreate` hears of each folder as soon as it exists, so a failure midway can still undo the earlier ones. */
export async function ensureStructure(
  port: DocumentsPort,
  parentId: string,
  names: readonly string[],
  onCreate?: (item: DriveItem) => void,
) {
  const existing = await listAll(port, parentId);
  const folders: Record<string, DriveItem> = {};
  const created: DriveItem[] = [];
  for (const name of names) {
    const found = existing.find((item) => item.kind === "folder" && item.name === name);
    if (found) {
      folders[name] = found;
      continue;
    }
    const made = await port.createFolder(parentId, name);
    onCreate?.(made);
    folders[name] = made;
    created.push(made);
  }
  return { folders, created };
}

/**
 * A folder name safe on every adapter: no slashes, no control characters, at most 200 characters and
 * 240 bytes (file systems allow 255 bytes; the rest is room for a « (n)» suffix).
 */
export function safeFolderName(name: string): string {
  let chars = Array.from(
    name
      // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what we remove
      .replace(/[\u0000-\u001f\u007f/\\]/g, "-")
      .replace(/\s+/g, " ")
      .trim(),
  ).slice(0, 200);
  while (Buffer.byteLength(chars.join("")) > 240) chars = chars.slice(0, -1);
  const cleaned = chars.join("").trim();
  return cleaned === "" || cleaned === "." || cleaned === ".." ? "Carpeta" : cleaned;
}

/**
 * Creates `name` in parentId, or `name (2)`, `name (3)`… when that name is taken (also when another
 * request takes it between the listing and the creation: the next name is tried).
 */
export async function createUniqueFolder(port: DocumentsPort, parentId: string, name: string): Promise<DriveItem> {
  const taken = new Set((await listAll(port, parentId)).map((item) => item.name));
  let n = 1;
  for (let attempt = 0; ; attempt++) {
    let candidate = n === 1 ? name : `${name} (${n})`;
    while (taken.has(candidate)) candidate = `${name} (${++n})`;
    try {
      return await port.createFolder(parentId, candidate);
    } catch (error) {
      if (!(error instanceof DocumentsError && error.code === "conflict") || attempt >= 20) throw error;
      taken.add(candidate);
    }
  }
}

/**
 * Drive side effects of one business operation, with their undo steps: on failure the caller runs
 * `undo()` and the drive is left as it was (best effort, newest first).
 */
export class DriveWork {
  private readonly undos: Array<() => Promise<unknown>> = [];
  constructor(readonly port: DocumentsPort) {}

  async createFolder(parentId: string, name: string, unique = false) {
    const item = unique ? await createUniqueFolder(this.port, parentId, name) : await this.port.createFolder(parentId, name);
    this.undos.push(() => this.port.delete(item.id));
    return item;
  }

  async ensureStructure(parentId: string, names: readonly string[]) {
    return ensureStructure(this.port, parentId, names, (item) => this.undos.push(() => this.port.delete(item.id)));
  }

  async move(id: string, newParentId: string) {
    const before = await this.port.info(id);
    const moved = await this.port.move(id, newParentId);
    if (before?.parentId != null) {
      const back = before.parentId;
      this.undos.push(() => this.port.move(moved.id, back));
    }
    return moved;
  }

  async rename(id: string, name: string) {
    const before = await this.port.info(id);
    const renamed = await this.port.rename(id, name);
    if (before && before.name !== renamed.name) this.undos.push(() => this.port.rename(renamed.id, before.name));
    return renamed;
  }

  async copy(id: string, parentId: string, name?: string) {
    const copied = await this.port.copy(id, parentId, name);
    this.undos.push(() => this.port.delete(copied.id));
    return copied;
  }

  /** Moves everything inside `fromId` into `toId`, merging folders of the same name. */
  async moveContent(fromId: string, toId: string): Promise<void> {
    const target = await listAll(this.port, toId);
    for (const item of await listAll(this.port, fromId)) {
      const same = target.find((t) => t.name === item.name);
      if (same && same.kind === "folder" && item.kind === "folder") {
        await this.moveContent(item.id, same.id);
      } else if (same) {
        // A file (or a folder against a file) of the same name: keep both.
        const renamed = await this.port.rename(item.id, uniqueName(item.name, new Set(target.map((t) => t.name))));
        this.undos.push(() => this.port.rename(renamed.id, item.name));
        await this.move(renamed.id, toId);
      } else {
        await this.move(item.id, toId);
      }
    }
  }

  async undo() {
    for (const step of this.undos.reverse()) {
      try {
        await step();
      } catch {
        // best effort: keep undoing the rest
      }
    }
    this.undos.length = 0;
  }
}

function uniqueName(name: string, taken: Set<string>) {
  const dot = name.lastIndexOf(".");
  const [base, ext] = dot > 0 ? [name.slice(0, dot), name.slice(dot)] : [name, ""];
  let n = 2;
  while (taken.has(`${base} (${n})${ext}`)) n++;
  return `${base} (${n})${ext}`;
}
