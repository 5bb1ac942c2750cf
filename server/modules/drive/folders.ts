/**
 * One folder, one record; a record's folder follows the record (docs/decisions/027).
 *
 * - `assertFolderFree(db, port, folder, owner)`: a folder may be a client's, prospect's or project's only
 *   when it is not the drive's root, not another record's folder, not inside another record's folder
 *   (a project's folder inside its own client's is fine) and does not contain another record's folder
 *   (a client's folder holds its own projects' folders). The unique indexes of migration 0008 are the
 *   last word when two requests race; this check says why in Spanish before that.
 * - `placeFolder`: renames and moves a folder to where its record says, through the request's DriveWork
 *   (undone if the write fails); `rewriteIdsInside` then rewrites, in the same transaction, the ids
 *   stored by records whose folders were inside it (the local drive's ids are paths; Google's do not
 *   change, and the port says so).
 * - `placeProjectFolder` / `ensureClientFolder`: a project's folder is `<project_code> <name>` in its
 *   client's `Proyectos`, with the 9 numbered folders; a client without a folder gets one in the drive's
 *   root, named after it, as a won quotation's client does. Used on create, rename, move and «Revisar drive».
 */
import { and, eq, inArray, ne, type SQL, sql } from "drizzle-orm";
import type { PgColumn } from "drizzle-orm/pg-core";
import { CLIENT_FOLDERS, PROJECT_FOLDERS, TEMPLATES_FOLDER } from "../../../src/core/constants";
import { folderMessages } from "../../../src/core/messages";
import type { Tx } from "../../db/client";
import { clients, projects, prospects } from "../../db/schema";
import { notFound, ValidationError } from "../../http/errors";
import { type DocumentsPort, type DriveItem, type DriveWork, findFolder, listAll, safeFolderName } from "../../ports/documents";

export type RecordKind = "client" | "prospect" | "project";

/** Whose folder it is (or is to be): a new record has no id yet; a project says its client. */
export interface FolderOwner {
  kind: RecordKind;
  id?: number | null;
  clientId?: number | null;
}

interface FolderRecord {
  kind: RecordKind;
  id: number;
  label: string;
  clientId: number | null;
  folderId: string;
}

/** How far up and how many folders down the check looks (a drive is not walked whole). */
const MAX_DEPTH = 50;
const MAX_FOLDERS_BELOW = 1000;

const whose = (record: FolderRecord) => folderMessages[record.kind](record.label);

/** The clients, prospects and projects whose folder id matches `where` (given the table's column). */
async function recordsWhere(db: Tx, where: (column: PgColumn) => SQL | undefined): Promise<FolderRecord[]> {
  const found: FolderRecord[] = [];
  const c = await db
    .select({ id: clients.id, name: clients.name, folderId: clients.drive_root_id })
    .from(clients)
    .where(where(clients.drive_root_id));
  for (const r of c) found.push({ kind: "client", id: r.id, label: r.name, clientId: null, folderId: r.folderId ?? "" });
  const p = await db
    .select({ id: prospects.id, name: prospects.name, folderId: prospects.drive_root_id })
    .from(prospects)
    .where(where(prospects.drive_root_id));
  for (const r of p) found.push({ kind: "prospect", id: r.id, label: r.name, clientId: null, folderId: r.folderId ?? "" });
  const j = await db
    .select({
      id: projects.id,
      code: projects.project_code,
      name: projects.name,
      clientId: projects.client_id,
      folderId: projects.drive_root_id,
    })
    .from(projects)
    .where(where(projects.drive_root_id));
  for (const r of j)
    found.push({ kind: "project", id: r.id, label: `${r.code} ${r.name}`, clientId: r.clientId, folderId: r.folderId ?? "" });
  return found;
}

const recordsAt = (db: Tx, ids: string[]) =>
  ids.length ? recordsWhere(db, (column) => inArray(column, ids)) : Promise.resolve([]);

const same = (a: FolderOwner, b: { kind: RecordKind; id: number }) => a.kind === b.kind && a.id != null && a.id === b.id;

/** The folder's ancestors (parent first), up to the drive's root (excluded). */
async function ancestorsOf(port: DocumentsPort, folder: DriveItem): Promise<string[]> {
  const ids: string[] = [];
  let current = folder.parentId;
  for (let depth = 0; current !== null && current !== port.rootId && depth < MAX_DEPTH; depth++) {
    ids.push(current);
    current = (await port.info(current))?.parentId ?? null;
  }
  return ids;
}

/** Records whose folders lie inside `folder` that `allowed` does not accept (the first found, or null). */
async function foreignRecordBelow(
  db: Tx,
  port: DocumentsPort,
  folder: DriveItem,
  allowed: (record: FolderRecord) => boolean,
): Promise<FolderRecord | null> {
  const prefix = port.idPrefixInside(folder.id);
  if (prefix !== null) {
    const below = await recordsWhere(
      db,
      (column) => sql`left(${column}, ${prefix.length}) = ${prefix} and ${column} <> ${folder.id}`,
    );
    return below.find((r) => !allowed(r)) ?? null;
  }
  // Ids that say nothing about place (Google): look level by level, not into the folders of accepted records.
  let frontier = [folder.id];
  let seen = 0;
  while (frontier.length && seen < MAX_FOLDERS_BELOW) {
    const children: string[] = [];
    for (const id of frontier) {
      for (const item of await listAll(port, id)) if (item.kind === "folder") children.push(item.id);
    }
    seen += children.length;
    const records = await recordsAt(db, children);
    const foreign = records.find((r) => !allowed(r));
    if (foreign) return foreign;
    const accepted = new Set(records.map((r) => r.folderId));
    frontier = children.filter((id) => !accepted.has(id));
  }
  return null;
}

/** SIA's own folder (the templates, at the root) when `folder` is it or lies inside it, else null. */
async function reservedFolder(port: DocumentsPort, folder: DriveItem): Promise<string | null> {
  const templates = await findFolder(port, port.rootId, TEMPLATES_FOLDER);
  if (!templates) return null;
  if (folder.id === templates.id || (await ancestorsOf(port, folder)).includes(templates.id)) return templates.name;
  return null;
}

/** Why `folder` cannot be `owner`'s folder, or null when it can. `ignore`: records that do not count (e.g. the prospect being converted). */
export async function folderConflict(
  db: Tx,
  port: DocumentsPort,
  folder: DriveItem,
  owner: FolderOwner,
  options: { ignore?: FolderOwner[] } = {},
): Promise<string | null> {
  if (folder.id === port.rootId) return folderMessages.isRoot;
  const reserved = await reservedFolder(port, folder);
  if (reserved) return folderMessages.reserved(reserved);
  const ignored = (r: FolderRecord) => same(owner, r) || (options.ignore ?? []).some((o) => same(o, r));
  const exact = (await recordsAt(db, [folder.id])).find((r) => !ignored(r));
  if (exact) return folderMessages.ofRecord(whose(exact));
  const above = (await recordsAt(db, await ancestorsOf(port, folder))).find(
    // A project's folder lies in its own client's folder.
    (r) => !ignored(r) && !(owner.kind === "project" && r.kind === "client" && r.id === owner.clientId),
  );
  if (above) return folderMessages.insideRecord(whose(above));
  const below = await foreignRecordBelow(
    db,
    port,
    folder,
    // A client's folder holds its own projects' folders.
    (r) => ignored(r) || (owner.kind === "client" && owner.id != null && r.kind === "project" && r.clientId === owner.id),
  );
  if (below) return folderMessages.containsRecord(whose(below));
  return null;
}

/** 422 on drive_root_id, in Spanish, when `folder` cannot be `owner`'s folder (see folderConflict). */
export async function assertFolderFree(
  db: Tx,
  port: DocumentsPort,
  folder: DriveItem,
  owner: FolderOwner,
  options: { ignore?: FolderOwner[] } = {},
): Promise<void> {
  const conflict = await folderConflict(db, port, folder, owner, options);
  if (conflict) throw ValidationError.field("drive_root_id", conflict);
}

/** A folder about to hold a new record's folder (a prospect's CV_): neither a record's folder nor inside one. */
export async function assertParentFree(db: Tx, port: DocumentsPort, parent: DriveItem): Promise<void> {
  if (parent.id === port.rootId) return;
  const reserved = await reservedFolder(port, parent);
  if (reserved) throw ValidationError.field("drive_root_id", folderMessages.reserved(reserved));
  const [record] = await recordsAt(db, [parent.id, ...(await ancestorsOf(port, parent))]);
  if (record) throw ValidationError.field("drive_root_id", folderMessages.insideRecord(whose(record)));
}

/**
 * After folder `oldId` became `newId` (renamed or moved): the records whose folders were inside it get
 * their new ids and URLs, and so a new version (a form opened before would otherwise send the old folder back).
 */
export async function rewriteIdsInside(db: Tx, port: DocumentsPort, oldId: string, newId: string): Promise<void> {
  if (oldId === newId) return;
  const prefix = port.idPrefixInside(oldId);
  if (prefix === null) return;
  const tables = { client: clients, prospect: prospects, project: projects } as const;
  const inside = await recordsWhere(db, (column) => sql`left(${column}, ${prefix.length}) = ${prefix} and ${column} <> ${oldId}`);
  for (const record of inside) {
    const table = tables[record.kind];
    const id = port.idAfterMove(record.folderId, oldId, newId);
    await db
      .update(table)
      .set({ drive_root_id: id, drive_root_url: port.getUrl(id) })
      .where(eq(table.id, record.id));
  }
}

/** `name`, or the `name (n)` it already has when `name` is taken by something else; else the first free one. */
function placedName(current: string, name: string, taken: Set<string>): string {
  if (!taken.has(name)) return name;
  const escaped = name.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  if (new RegExp(`^${escaped} \\(\\d+\\)$`).test(current) && !taken.has(current)) return current;
  let candidate = name;
  for (let n = 2; taken.has(candidate); n++) candidate = `${name} (${n})`;
  return candidate;
}

/**
 * Puts `folder` in `parentId` named `name` (or `name (n)` when taken there), renaming and moving as needed.
 * Answers the folder as it is now and what was done, in Spanish. The caller rewrites stored ids.
 */
export async function placeFolder(
  work: DriveWork,
  folder: DriveItem,
  parentId: string,
  name: string,
  parentLabel: string,
): Promise<{ item: DriveItem; repairs: string[] }> {
  const repairs: string[] = [];
  const taken = new Set(
    (await listAll(work.port, parentId)).filter((i) => i.id !== folder.id && i.name !== "").map((i) => i.name),
  );
  const target = placedName(folder.name, name, taken);
  let item = folder;
  const rename = async () => {
    if (item.name === target) return;
    const from = item.name;
    item = await work.rename(item.id, target);
    repairs.push(folderMessages.renamed(from, target));
  };
  if (item.parentId !== parentId) {
    // Renamed first when its name is taken where it goes; moved first otherwise.
    if (taken.has(item.name)) await rename();
    item = await work.move(item.id, parentId);
    repairs.push(folderMessages.moved(item.name, parentLabel));
  }
  await rename();
  return { item, repairs };
}

/**
 * Every update of a versioned row moves its version (decision 023: the column's $onUpdate), so a form
 * opened before a folder moved is stale. Inside a record's own save, which has already moved it, this
 * keeps it where that save put it.
 */
export const keepVersion = (table: typeof clients | typeof prospects | typeof projects) => ({
  lock_version: sql<number>`${table.lock_version}`,
});

type ClientRow = typeof clients.$inferSelect;
type ProjectRow = typeof projects.$inferSelect;

/**
 * The client row, locked for the transaction (two projects created at once for a client without folder make
 * one). NO KEY UPDATE: a project being inserted holds KEY SHARE on its client (the foreign key); FOR UPDATE
 * would wait for it, and two such inserts would deadlock each other.
 */
async function lockClient(db: Tx, id: number): Promise<ClientRow> {
  const [client] = await db.select().from(clients).where(eq(clients.id, id)).for("no key update");
  if (!client) throw notFound();
  return client;
}

/** The client's folder; one in the drive's root named after it when it has none (or it was removed). */
export async function ensureClientFolder(db: Tx, work: DriveWork, client: ClientRow, repairs: string[]): Promise<DriveItem> {
  const port = work.port;
  const folder = client.drive_root_id ? await port.info(client.drive_root_id) : null;
  if (folder?.kind === "folder") return folder;
  const made = await work.createFolder(port.rootId, safeFolderName(client.name), true);
  await db.update(clients).set({ drive_root_id: made.id, drive_root_url: made.url }).where(eq(clients.id, client.id));
  client.drive_root_id = made.id;
  client.drive_root_url = made.url;
  repairs.push(folderMessages.created(made.name));
  return made;
}

/** The folder name of a project (SPEC §9): `<project_code> <name>`. */
export const projectFolderName = (project: { project_code: string; name: string }) =>
  safeFolderName(`${project.project_code} ${project.name}`);

/**
 * The project's folder where it belongs: `<code> <name>` in its client's `Proyectos` (the client's folder
 * and structure made when missing), with the 9 numbered folders. A folder it has is renamed and moved
 * there; one it lacks is found there by name or created. The project row gets the folder's id and URL
 * (`bump: false` inside the project's own save, which already moved its version), and records stored inside
 * a moved folder get their new ids. Answers what was repaired, in Spanish.
 */
export async function placeProjectFolder(
  db: Tx,
  work: DriveWork,
  project: ProjectRow,
  options: { bump: boolean },
): Promise<{ folder: DriveItem; repairs: string[] }> {
  const port = work.port;
  const repairs: string[] = [];
  const client = await lockClient(db, project.client_id);
  const clientFolder = await ensureClientFolder(db, work, client, repairs);
  const structure = await work.ensureStructure(clientFolder.id, CLIENT_FOLDERS);
  for (const made of structure.created) repairs.push(folderMessages.created(made.name));
  const proyectos = structure.folders.Proyectos;
  const name = projectFolderName(project);
  const stored = project.drive_root_id ? await port.info(project.drive_root_id) : null;
  let folder: DriveItem;
  if (stored?.kind === "folder" && stored.id !== port.rootId) {
    const placed = await placeFolder(work, stored, proyectos.id, name, `${clientFolder.name}/${proyectos.name}`);
    folder = placed.item;
    repairs.push(...placed.repairs);
    await rewriteIdsInside(db, port, stored.id, folder.id);
  } else {
    // Lost (removed, or renamed where ids are paths): its folder in Proyectos by name, else one that still
    // starts with its code and is no other record's (renamed by hand), else a new one.
    const candidates = (await listAll(port, proyectos.id)).filter(
      (i) => i.kind === "folder" && (i.name === name || i.name.startsWith(`${project.project_code} `)),
    );
    const owners = new Set(
      (
        await recordsAt(
          db,
          candidates.map((c) => c.id),
        )
      )
        .filter((r) => !(r.kind === "project" && r.id === project.id))
        .map((r) => r.folderId),
    );
    const free = candidates.filter((c) => !owners.has(c.id));
    const found = free.find((c) => c.name === name) ?? free[0];
    if (found) {
      const placed = await placeFolder(work, found, proyectos.id, name, "");
      folder = placed.item;
      repairs.push(...placed.repairs);
      await rewriteIdsInside(db, port, found.id, folder.id);
    } else {
      folder = await work.createFolder(proyectos.id, name, true);
      repairs.push(folderMessages.created(folder.name));
    }
  }
  const numbered = await work.ensureStructure(folder.id, PROJECT_FOLDERS);
  for (const made of numbered.created) repairs.push(folderMessages.created(made.name));
  if (folder.id !== project.drive_root_id || folder.url !== project.drive_root_url) {
    await db
      .update(projects)
      .set({
        drive_root_id: folder.id,
        drive_root_url: folder.url,
        ...(options.bump ? {} : keepVersion(projects)),
      })
      .where(eq(projects.id, project.id));
  }
  return { folder, repairs };
}

/**
 * A record's own folder renamed after it (client or prospect rename): only when the folder is its own —
 * not another record's too, not holding others' folders (a legacy client pointed at `Clientes`, say).
 * Answers the folder's new id and URL, or null when nothing changed.
 */
export async function renameOwnFolder(
  db: Tx,
  work: DriveWork,
  owner: FolderOwner & { id: number },
  folderId: string | null,
  name: string,
): Promise<DriveItem | null> {
  const port = work.port;
  const folder = folderId ? await port.info(folderId) : null;
  if (folder?.kind !== "folder" || folder.parentId === null || folder.name === name) return null;
  if (await folderConflict(db, port, folder, owner)) return null;
  const { item } = await placeFolder(work, folder, folder.parentId, name, "");
  if (item.id === folder.id && item.name === folder.name) return null;
  await rewriteIdsInside(db, port, folder.id, item.id);
  return item;
}

/**
 * «Revisar drive» of a client: its folder exists (made in the root when not), is named after it (when it is
 * its own), holds its 4 folders, and each of its projects' folders is in its `Proyectos` (placeProjectFolder).
 */
export async function repairClientFolders(
  db: Tx,
  work: DriveWork,
  clientId: number,
): Promise<{ client: ClientRow; repairs: string[] }> {
  const port = work.port;
  const repairs: string[] = [];
  const client = await lockClient(db, clientId);
  let folder = await ensureClientFolder(db, work, client, repairs);
  const name = safeFolderName(client.name);
  if (folder.name !== name && folder.parentId !== null) {
    const conflict = await folderConflict(db, port, folder, { kind: "client", id: client.id });
    if (conflict) {
      repairs.push(folderMessages.notOwn(folder.name));
    } else {
      const placed = await placeFolder(work, folder, folder.parentId, name, "");
      repairs.push(...placed.repairs);
      await rewriteIdsInside(db, port, folder.id, placed.item.id);
      if (placed.item.id !== folder.id || placed.item.url !== client.drive_root_url) {
        await db
          .update(clients)
          .set({ drive_root_id: placed.item.id, drive_root_url: placed.item.url })
          .where(eq(clients.id, client.id));
      }
      folder = placed.item;
    }
  }
  const structure = await work.ensureStructure(folder.id, CLIENT_FOLDERS);
  for (const made of structure.created) repairs.push(folderMessages.created(made.name));
  const rows = await db
    .select()
    .from(projects)
    .where(eq(projects.client_id, client.id))
    .orderBy(projects.id)
    .for("no key update");
  for (const project of rows) {
    // Earlier moves may have rewritten this row's folder id: read it again.
    const [fresh] = await db.select().from(projects).where(eq(projects.id, project.id));
    repairs.push(...(await placeProjectFolder(db, work, fresh, { bump: true })).repairs);
  }
  const [saved] = await db.select().from(clients).where(eq(clients.id, client.id));
  return { client: saved, repairs };
}

/** «Revisar drive» of a project (the row locked): see placeProjectFolder. */
export async function repairProjectFolders(db: Tx, work: DriveWork, projectId: number) {
  const [project] = await db.select().from(projects).where(eq(projects.id, projectId)).for("no key update");
  if (!project) throw notFound();
  const { folder, repairs } = await placeProjectFolder(db, work, project, { bump: true });
  return { project, folder, repairs };
}

/** Other projects of a client, for moving their folders when the client's folder changes. */
export async function projectsOfClient(db: Tx, clientId: number, exceptId?: number) {
  return db
    .select()
    .from(projects)
    .where(and(eq(projects.client_id, clientId), exceptId ? ne(projects.id, exceptId) : undefined))
    .orderBy(projects.id);
}
