import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it, vi } from "vitest";
import { createUniqueFolder, LocalDocuments } from "../../server/ports/documents";
import { documentsContract } from "../support/documents-contract";

const dirs: string[] = [];
const makeLocal = async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "sia-drive-"));
  dirs.push(dir);
  return new LocalDocuments(path.join(dir, "drive"));
};
afterAll(() => {
  for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
});

documentsContract("local", makeLocal);

describe("createUniqueFolder", () => {
  it("takes the next name when another request took one between its listing and its creation", async () => {
    const port = await makeLocal();
    await port.createFolder(port.rootId, "CV_Mismo");
    // The listing it read was from before the other request's folder existed.
    vi.spyOn(port, "list").mockResolvedValueOnce({ items: [], nextPageToken: null });
    expect((await createUniqueFolder(port, port.rootId, "CV_Mismo")).name).toBe("CV_Mismo (2)");
  });
});

describe("local documents: ids never leave the drive", () => {
  it("refuses traversal, absolute paths, NUL and symbolic links out of the root", async () => {
    const port = await makeLocal();
    const secret = path.join(path.dirname(port.root), "secreto.txt");
    fs.writeFileSync(secret, "no");
    for (const id of ["..", "../secreto.txt", "a/../../secreto.txt", "/etc/passwd", "a\0b", "a\\..\\b", "./a", "a//b"]) {
      expect(await port.info(id)).toBeNull();
      await expect(port.createFolder(id, "x")).rejects.toMatchObject({ code: expect.stringMatching(/invalid|not_found/) });
      await expect(port.delete(id)).rejects.toBeTruthy();
      await expect(port.copy(id, port.rootId)).rejects.toBeTruthy();
    }
    for (const name of ["..", ".", "a/b", "a\\b", "a\0b", ""]) {
      await expect(port.createFolder(port.rootId, name)).rejects.toMatchObject({ code: "invalid" });
    }
    fs.mkdirSync(port.root, { recursive: true });
    fs.symlinkSync(path.dirname(port.root), path.join(port.root, "escape"));
    expect(await port.info("escape/secreto.txt")).toBeNull();
    await expect(port.filePath("escape/secreto.txt")).rejects.toBeTruthy();
    await expect(port.delete(port.rootId)).rejects.toMatchObject({ code: "invalid" });
    expect(fs.existsSync(secret)).toBe(true);
  });

  it("reads folder URLs of its own path only (relative, or on PUBLIC_URL)", async () => {
    const local = new LocalDocuments("/tmp/x", "https://sia.firma.mx");
    expect(local.folderIdFromUrl("/drive/folders/Clientes/%C3%91and%C3%BA")).toBe("Clientes/Ñandú");
    expect(local.folderIdFromUrl("https://sia.firma.mx/drive/folders/Clientes?x=1")).toBe("Clientes");
    expect(local.getUrl("Clientes/Ñandú")).toBe("https://sia.firma.mx/drive/folders/Clientes/%C3%91and%C3%BA");
    for (const url of [
      "https://otro.mx/drive/folders/Clientes",
      "https://drive.google.com/drive/folders/abc",
      "/drive/files/x",
      "//evil.mx/drive/folders/a",
      "/drive/folders/../secret",
      "/drive/folders/a%2F..%2F..%2Fb",
      "/drive/folders/%00",
      "javascript:alert(1)",
    ]) {
      expect(local.folderIdFromUrl(url)).toBeNull();
    }
  });
});
