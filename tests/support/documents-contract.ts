/**
 * The contract every DocumentsPort adapter passes: documentsContract(makePort) registers the suite for
 * one adapter (the local one in tests/api/documents.contract.test.ts; the Google Drive adapter of the
 * integrations issue runs the same suite against its replaying server).
 */
import { describe, expect, it } from "vitest";
import { type DocumentsPort, ensureStructure, listAll } from "../../server/ports/documents";
import { DRIVE_PAGE_SIZE } from "../../src/core/constants";

export function documentsContract(name: string, makePort: () => Promise<DocumentsPort>) {
  describe(`documents port contract: ${name}`, () => {
    it("creates folders, lists them and answers their info and URL", async () => {
      const port = await makePort();
      const parent = await port.createFolder(port.rootId, "Clientes");
      expect(parent).toMatchObject({ name: "Clientes", kind: "folder", parentId: port.rootId });
      const child = await port.createFolder(parent.id, "Ñandú Café");
      const page = await port.list(parent.id);
      expect(page.items.map((i) => i.name)).toEqual(["Ñandú Café"]);
      expect(page.nextPageToken).toBeNull();
      expect(await port.info(child.id)).toMatchObject({ name: "Ñandú Café", kind: "folder", parentId: parent.id });
      expect(port.folderIdFromUrl(port.getUrl(child.id))).toBe(child.id);
      expect(await port.info("no-existe-en-el-drive")).toBeNull();
    });

    it("pages listings by DRIVE_PAGE_SIZE, folders first", async () => {
      const port = await makePort();
      const parent = await port.createFolder(port.rootId, "Muchos");
      for (let i = 0; i < DRIVE_PAGE_SIZE + 5; i++)
        await port.upload(parent.id, `archivo-${String(i).padStart(3, "0")}.txt`, "x");
      await port.createFolder(parent.id, "zzz carpeta");
      const first = await port.list(parent.id);
      expect(first.items).toHaveLength(DRIVE_PAGE_SIZE);
      expect(first.items[0]).toMatchObject({ name: "zzz carpeta", kind: "folder" });
      expect(first.nextPageToken).toBeTruthy();
      const second = await port.list(parent.id, first.nextPageToken);
      expect(second.items).toHaveLength(6);
      expect(second.nextPageToken).toBeNull();
      expect(await listAll(port, parent.id)).toHaveLength(DRIVE_PAGE_SIZE + 6);
    });

    it("copies, renames, moves and deletes", async () => {
      const port = await makePort();
      const a = await port.createFolder(port.rootId, "A");
      const b = await port.createFolder(port.rootId, "B");
      const file = await port.upload(a.id, "contrato.docx", "contenido");
      const copy = await port.copy(file.id, b.id, "copia.docx");
      expect(copy).toMatchObject({ name: "copia.docx", kind: "file", parentId: b.id });
      expect((await port.list(a.id)).items.map((i) => i.name)).toEqual(["contrato.docx"]);
      const renamed = await port.rename(copy.id, "renombrado.docx");
      expect(renamed.name).toBe("renombrado.docx");
      const moved = await port.move(renamed.id, a.id);
      expect(moved.parentId).toBe(a.id);
      expect((await port.list(a.id)).items.map((i) => i.name).sort()).toEqual(["contrato.docx", "renombrado.docx"]);
      expect((await port.list(b.id)).items).toEqual([]);
      await port.delete(a.id);
      expect(await port.info(a.id)).toBeNull();
      expect(await port.info(moved.id)).toBeNull();
    });

    it("renames and moves a folder with its content: what is inside answers at the ids the port says", async () => {
      const port = await makePort();
      const clientes = await port.createFolder(port.rootId, "Clientes");
      const otro = await port.createFolder(port.rootId, "Otro cliente");
      const client = await port.createFolder(clientes.id, "Ñandú");
      const proyectos = await port.createFolder(client.id, "Proyectos");
      const project = await port.createFolder(proyectos.id, "PRY-0001 Portal");
      const file = await port.upload(project.id, "acta.txt", "acta");
      await port.createFolder(clientes.id, "Tomado");

      // Rename: the folder keeps its place; its content answers at idAfterMove's ids.
      const renamed = await port.rename(client.id, "Ñandú Café");
      expect(renamed).toMatchObject({ name: "Ñandú Café", kind: "folder", parentId: clientes.id });
      expect(port.idAfterMove(client.id, client.id, renamed.id)).toBe(renamed.id);
      expect(port.idAfterMove(otro.id, client.id, renamed.id)).toBe(otro.id);
      const projectAfterRename = port.idAfterMove(project.id, client.id, renamed.id);
      expect(await port.info(projectAfterRename)).toMatchObject({ name: "PRY-0001 Portal", kind: "folder" });
      const proyectosAfterRename = port.idAfterMove(proyectos.id, client.id, renamed.id);
      expect((await port.info(projectAfterRename))?.parentId).toBe(proyectosAfterRename);
      const fileAfterRename = port.idAfterMove(file.id, client.id, renamed.id);
      expect(await port.info(fileAfterRename)).toMatchObject({ name: "acta.txt", kind: "file", parentId: projectAfterRename });
      expect(port.folderIdFromUrl(port.getUrl(projectAfterRename))).toBe(projectAfterRename);
      // Where ids are paths, the prefix finds what is inside; where they are not, there is none.
      const prefix = port.idPrefixInside(renamed.id);
      if (prefix !== null) expect(projectAfterRename.startsWith(prefix)).toBe(true);
      else expect(projectAfterRename).toBe(project.id);

      // Move: the same, one level elsewhere.
      const moved = await port.move(renamed.id, otro.id);
      expect(moved).toMatchObject({ name: "Ñandú Café", kind: "folder", parentId: otro.id });
      const projectAfterMove = port.idAfterMove(projectAfterRename, renamed.id, moved.id);
      expect(await port.info(projectAfterMove)).toMatchObject({ name: "PRY-0001 Portal", kind: "folder" });
      expect((await port.list(projectAfterMove)).items.map((i) => i.name)).toEqual(["acta.txt"]);
      expect((await port.list(otro.id)).items.map((i) => i.name)).toEqual(["Ñandú Café"]);
      expect((await port.list(clientes.id)).items.map((i) => i.name)).toEqual(["Tomado"]);

      // Conflicts are refused the same way on every adapter, and nothing moves.
      const tomado = (await port.list(clientes.id)).items[0];
      await expect(port.rename(tomado.id, "Tomado")).resolves.toMatchObject({ id: tomado.id, name: "Tomado" });
      const back = await port.createFolder(otro.id, "Tomado");
      await expect(port.move(tomado.id, otro.id)).rejects.toMatchObject({ code: "conflict" });
      await expect(port.rename(back.id, "Ñandú Café")).rejects.toMatchObject({ code: "conflict" });
      await expect(port.move(moved.id, projectAfterMove)).rejects.toMatchObject({ code: "invalid" });
      await expect(port.rename(moved.id, "a/b")).rejects.toMatchObject({ code: "invalid" });
      expect((await port.list(otro.id)).items.map((i) => i.name)).toEqual(
        ["Tomado", "Ñandú Café"].sort((a, b) => a.localeCompare(b, "es")),
      );
      expect(await port.info(projectAfterMove)).toMatchObject({ name: "PRY-0001 Portal" });
    });

    it("ensureStructure creates only what is missing", async () => {
      const port = await makePort();
      const root = await port.createFolder(port.rootId, "Estructura");
      await port.createFolder(root.id, "Comercial");
      const first = await ensureStructure(port, root.id, ["Administración", "Comercial", "Proyectos"]);
      expect(first.created.map((f) => f.name)).toEqual(["Administración", "Proyectos"]);
      const again = await ensureStructure(port, root.id, ["Administración", "Comercial", "Proyectos"]);
      expect(again.created).toEqual([]);
      expect(Object.keys(again.folders)).toEqual(["Administración", "Comercial", "Proyectos"]);
    });
  });
}
